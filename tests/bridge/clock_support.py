"""Running the exact commands hookman writes under each shell a client's `/bin/sh` may be
(without touching the machine's /bin/sh: the shell runs as the outer `sh -c` with argv0
"sh", and a directory first on PATH holds `sh` linked to it, which the command's `sh
LAUNCHER` finds), and Codex's `/bin/bash -c` with that `sh` inside; optionally as an
unprivileged user with a process limit (class 2 of issue 23).

Each run is judged as its client reads the result (attack_support.py, test_attack_codex.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookman.catalog.event_catalog import guarded_events

from .attack_support import BASH, TOOL_RUNS, Verdict, run_settings_command
from .conftest import RunnerProject

# The family (Debian packages dash, bash, busybox, mksh, ksh, zsh, yash, posh), by the
# program that plays `sh`.
FAMILY = {
    "dash": "dash",
    "bash": "bash",
    "busybox": "busybox",
    "mksh": "mksh",
    "ksh93": "ksh",
    "zsh": "zsh",
    "yash": "yash",
    "posh": "posh",
}


# The tests that wait out a timeout run under four of them by default (the launcher is the
# same bytes under all; these four differ most: dash, bash's retries, ksh93's parsing, posh's
# missing `command -v` and `[ -O ]`); `HOOKMAN_SH_FAMILY_FULL=1` (CI's second pass) runs all.
TIMED = (
    list(FAMILY)
    if os.environ.get("HOOKMAN_SH_FAMILY_FULL") == "1"
    else ["dash", "bash", "ksh93", "posh"]
)


def family_shell(name: str) -> str:
    """The path of the shell `name` of the family; skipped when missing, failed in CI."""
    found = shutil.which(FAMILY[name])
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{FAMILY[name]} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{FAMILY[name]} is not installed")
    return found


def sh_dir(shell: str, base: Path) -> Path:
    """A directory (world-readable) holding `sh` linked to `shell`."""
    directory = base / f"sh-{Path(shell).name}"
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    link = directory / "sh"
    if not link.is_symlink():
        link.symlink_to(shell)
    return directory


@dataclass
class Timed:
    verdict: Verdict
    seconds: float


def run_as_sh(
    project: RunnerProject,
    event: str,
    payload: dict[str, Any],
    *,
    shell: str,
    base: Path,
    timeout: float,
    env: dict[str, str] | None = None,
) -> Timed:
    """The settings command for `event`, run by `shell` as Claude Code's `/bin/sh -c`."""
    path = f"{sh_dir(shell, base)}{os.pathsep}{os.environ.get('PATH', '')}"
    started = time.monotonic()
    verdict = run_settings_command(
        project.command(event),
        event,
        payload,
        timeout=timeout,
        cwd=project.root,
        env={**(env or {}), "PATH": path},
        shell=str(sh_dir(shell, base) / "sh"),
    )
    return Timed(verdict, time.monotonic() - started)


def run_command(
    argv: list[str],
    payload: dict[str, Any],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float,
    judge: Callable[[int, bytes, bytes], Verdict],
    limit: tuple[int, int] | None = None,
) -> Timed:
    """Run `argv` (argv[0] the program) as a client does (detached, killed at `timeout`);
    `limit` (uid, processes): as that uid, with `ulimit -u` at that number."""
    user: dict[str, Any] = {}
    if limit is not None:
        uid, processes = limit

        def lower() -> None:
            resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))

        user = {"user": uid, "group": uid, "extra_groups": [], "preexec_fn": lower}
    started = time.monotonic()
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
        **user,
    )
    try:
        out, err = process.communicate(json.dumps(payload).encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return Timed(Verdict(TOOL_RUNS, "killed at the timeout", None, err), timeout)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    return Timed(judge(process.returncode, out, err), time.monotonic() - started)


def claude_judge(event: str) -> Callable[[int, bytes, bytes], Verdict]:
    """Claude Code's reading of a result (attack_support.run_settings_command's rules)."""
    from .attack_support import ALLOW, DENY, schema_problem

    def judge(returncode: int, out: bytes, err: bytes) -> Verdict:
        if returncode == 2 and event in guarded_events():
            return Verdict(DENY, err.decode(errors="replace").strip(), None, err)
        if returncode != 0:
            return Verdict(TOOL_RUNS, f"exit status {returncode}", None, err)
        try:
            answer = json.loads(out)
        except ValueError:
            return Verdict(TOOL_RUNS, f"stdout is not JSON: {out[:200]!r}", None, err)
        if not isinstance(answer, dict) or schema_problem(answer, event):
            return Verdict(TOOL_RUNS, "an answer Claude Code refuses", None, err)
        specific = answer.get("hookSpecificOutput") or {}
        if specific.get("permissionDecision") == DENY:
            return Verdict(DENY, specific.get("permissionDecisionReason", ""), answer, err)
        return Verdict(ALLOW, json.dumps(answer)[:300], answer, err)

    return judge


def outer_argv(project: RunnerProject, event: str, sh: Path, *, codex: bool) -> list[str]:
    """The client's own command line: `sh -c CMD` (`sh` a link to the shell, which then
    runs as sh: Claude Code) or `/bin/bash -c CMD` (Codex)."""
    if codex:
        return [BASH, "-c", project.command(event, agent="codex")]
    return [str(sh), "-c", project.command(event)]
