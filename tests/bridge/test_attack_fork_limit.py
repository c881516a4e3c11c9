"""Issue 23, class 2: no process can be forked (the user's process limit, `ulimit -u`, is
reached). Through the exact commands, as an unprivileged user (a limit binds no root) whose
limit lets exactly the processes before the fork under test exist: 1 (the client's shell
cannot fork the launcher), 2 (the launcher cannot fork python), 3 (the runner cannot start
its watchdog). Each shell of the family plays `sh`; Codex's outer shell is always bash.

What each shell does about a failed fork (measured on the Debian packages, as `sh`): dash,
busybox, zsh and yash fail at once (dash and busybox end the shell with status 2, zsh with 1,
running no EXIT trap; yash goes on with status 126); bash retries 1+2+4+8 s, then ends the
shell (status 254, after its EXIT trap); mksh retries ~31 s (status 1 after its EXIT trap),
posh ~31 s (status 1, no trap); ksh93 retries forever. The runner's part (its watchdog) must
deny at once. The shell's part is the settings command's EXIT trap (launcher format 5: bash
as `sh` and Codex's bash deny after their 15 s of retries) and a launcher status of its own
for its stderr deny (74: dash's fatal status 2 gets the command's reason)."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.direct_command import RUNNER_CODE

from .attack_support import DENY, guard_that
from .clock_support import FAMILY, claude_judge, family_shell, outer_argv, run_command, sh_dir
from .conftest import RunnerProject
from .test_attack_codex import codex_verdict

TIMEOUT = 4  # the entry's timeout where the answer must come at once
RETRY_TIMEOUT = 30  # install's timeout: bash's 15 s of retries must end before it
# The process limit that makes that process's fork fail. On a guarded event the launcher
# starts the runner under its own timer when timeout(1) is there (one process more; a
# timeout that cannot fork the runner exits 125, and the launcher denies).
OUTER, LAUNCHER = 1, 2
RUNNER = 4 if shutil.which("timeout") else 3
STOPS_ON_RM = guard_that(
    "if 'rm' not in event['input'].get('command', ''):\n    return None\n"
    "os.kill(os.getpid(), signal.SIGSTOP)"
)


def _uid() -> int:
    """An unprivileged uid of this test process alone (the limit counts every process of the
    uid on the machine: a uid another test or session uses would move the count)."""
    return 61000 + os.getpid() % 4000


def _python() -> str:
    """An interpreter the unprivileged uid can run (a venv under /root is out of its reach)."""
    for candidate in (sys.executable, os.path.realpath(sys.executable), "/usr/bin/python3"):
        check = "import sys; assert sys.version_info >= (3, 10)"
        try:
            done = subprocess.run(
                [candidate, "-I", "-S", "-c", check],
                user=_uid(),
                group=_uid(),
                extra_groups=[],
                capture_output=True,
                check=False,
            )
        except OSError:  # out of the user's reach
            continue
        if done.returncode == 0:
            return candidate
    pytest.skip("no interpreter the unprivileged user can run")


@pytest.fixture
def limited() -> Iterator[tuple[RunnerProject, Path]]:
    """A project (and a base dir) the unprivileged uid can read and write."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI runs as root with setpriv (util-linux)")
        pytest.skip("needs root and setpriv to run as a user with a process limit")
    base = Path(tempfile.mkdtemp(prefix="hookman-nproc-"))
    base.chmod(0o755)
    project = RunnerProject(base / "project", base / "home")
    project.launcher_python = _python()
    project.add_hook("guard", STOPS_ON_RM, ["tool_call"], ["PreToolUse"])
    project.entries["PreToolUse"] = {"matcher": None, "timeout": TIMEOUT, "deadline": 3.0}
    project.write_manifest()
    for path in [base, *base.rglob("*")]:
        os.lchown(path, _uid(), _uid())
    try:
        yield project, base
    finally:
        _end_processes_of(_uid())
        shutil.rmtree(base, ignore_errors=True)


def _end_processes_of(uid: int) -> None:
    """SIGKILL what this test started as `uid` and is left (ksh93 retrying a fork)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        left = [entry for entry in os.listdir("/proc") if entry.isdigit() and _owner(entry) == uid]
        if not left:
            return
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(int(pid), 9)
        time.sleep(0.05)


def _owner(pid: str) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def _run(
    limited: tuple[RunnerProject, Path],
    name: str,
    processes: int,
    *,
    codex: bool = False,
    timeout: float = TIMEOUT,
) -> Any:
    project, base = limited
    if timeout != TIMEOUT:
        project.entries["PreToolUse"] = {"matcher": None, "timeout": timeout, "deadline": 27.0}
        project.write_manifest()
        os.lchown(project.manifest_path, _uid(), _uid())
        os.lchown(project.launcher_path, _uid(), _uid())
    shell = family_shell(name)
    directory = sh_dir(shell, base)
    env = {"PATH": f"{directory}:/usr/bin:/bin", "HOME": str(base / "home"), "LANG": "C"}
    payload = project.payload("PreToolUse", tool_name="Bash", tool_input={"command": "rm -rf /"})
    return run_command(
        outer_argv(project, "PreToolUse", directory / "sh", codex=codex),
        payload,
        cwd=project.root,
        env=env,
        timeout=timeout,
        judge=codex_verdict if codex else claude_judge("PreToolUse"),
        limit=(_uid(), processes),
    )


def test_the_limit_binds_the_unprivileged_user(limited: tuple[RunnerProject, Path]) -> None:
    """The set-up itself: with a limit of 1 the user's shell cannot start a process."""
    done = subprocess.run(
        ["sh", "-c", "/bin/true"],
        user=_uid(),
        group=_uid(),
        extra_groups=[],
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NPROC, (1, 1)),
        capture_output=True,
        check=False,
    )
    assert done.returncode != 0, done


@pytest.mark.parametrize("name", list(FAMILY))
def test_a_runner_that_cannot_start_its_watchdog_denies_at_once(
    limited: tuple[RunnerProject, Path], name: str
) -> None:
    """Before issue 23 the runner ran the guards unwatched: one that stops its process
    (SIGSTOP) froze every in-process deadline and the client's kill let the tool run."""
    timed = _run(limited, name, RUNNER)
    assert timed.verdict.decision == DENY, timed.verdict
    assert "watchdog" in timed.verdict.why, timed.verdict


@pytest.mark.parametrize("name", ["dash", "bash", "ksh93"])
def test_a_codex_runner_that_cannot_start_its_watchdog_denies_at_once(
    limited: tuple[RunnerProject, Path], name: str
) -> None:
    timed = _run(limited, name, RUNNER, codex=True)
    assert timed.verdict.decision == DENY, timed.verdict


@pytest.mark.parametrize("name", ["dash", "busybox", "yash"])
def test_a_client_shell_that_fails_a_fork_at_once_denies(
    limited: tuple[RunnerProject, Path], name: str
) -> None:
    assert _run(limited, name, OUTER).verdict.decision == DENY


@pytest.mark.waits  # the entry's whole deadline, or bash's 15 s of fork retries
def test_bash_as_sh_that_cannot_fork_the_launcher_denies_before_the_timeout(
    limited: tuple[RunnerProject, Path],
) -> None:
    timed = _run(limited, "bash", OUTER, timeout=RETRY_TIMEOUT)
    assert timed.verdict.decision == DENY, timed.verdict


@pytest.mark.waits  # the entry's whole deadline, or bash's 15 s of fork retries
def test_codex_s_bash_that_cannot_fork_the_launcher_denies_before_the_timeout(
    limited: tuple[RunnerProject, Path],
) -> None:
    timed = _run(limited, "dash", OUTER, codex=True, timeout=RETRY_TIMEOUT)
    assert timed.verdict.decision == DENY, timed.verdict


@pytest.mark.parametrize("name", ["dash", "busybox", "zsh", "yash"])
def test_a_launcher_that_cannot_fork_python_denies_at_once(
    limited: tuple[RunnerProject, Path], name: str
) -> None:
    assert _run(limited, name, LAUNCHER).verdict.decision == DENY


@pytest.mark.parametrize("name", ["zsh", "yash"])
def test_a_codex_launcher_that_cannot_fork_python_denies_at_once(
    limited: tuple[RunnerProject, Path], name: str
) -> None:
    assert _run(limited, name, LAUNCHER, codex=True).verdict.decision == DENY


@pytest.mark.parametrize("name", ["dash", "busybox"])
def test_a_codex_launcher_whose_shell_dies_on_the_fork_still_says_why(
    limited: tuple[RunnerProject, Path], name: str
) -> None:
    """Codex lets a command run on exit 2 with an empty stderr."""
    assert _run(limited, name, LAUNCHER, codex=True).verdict.decision == DENY


_FAILING_SHIM = """#!/bin/sh
# the real interpreter in which {what} fail as at the process limit (threads still start):
# the runner's entry code ($4) runs after them
entry=$4
shift 4
exec {python} -I -S -c "import os, sys
def _no_process(*args, **options):
    raise BlockingIOError(11, 'Resource temporarily unavailable')
{patch}
$entry" "$@"
"""
NO_PROCESS = "os.fork = os.posix_spawn = _no_process"
# the watchdog's shell is spawned but is not bash (it exits unconfirmed), and the fork that
# should replace it fails
NO_FORK_NO_BASH = (
    "os.fork = _no_process\n"
    "sys.path.append(sys.argv[1])\n"
    "import hookman.bridge.watchdog as watchdog\n"
    "watchdog._BASH_PATHS = ({dash!r},)"
)


def _run_failing(project: RunnerProject, tmp_path: Path, what: str, patch: str) -> Any:
    shim = tmp_path / "python3"
    text = _FAILING_SHIM.format(what=what, python=sys.executable, patch=patch)
    shim.write_text(text, encoding="utf-8")
    shim.chmod(0o755)
    project.launcher_python = str(shim)
    project.add_hook("guard", STOPS_ON_RM, ["tool_call"], ["PreToolUse"])
    project.entries["PreToolUse"] = {"matcher": None, "timeout": TIMEOUT, "deadline": 3.0}
    project.write_manifest()
    directory = sh_dir(family_shell("dash"), tmp_path)
    payload = project.payload("PreToolUse", tool_name="Bash", tool_input={"command": "rm -rf /"})
    return run_command(
        outer_argv(project, "PreToolUse", directory / "sh", codex=False),
        payload,
        cwd=project.root,
        env={**os.environ, "PATH": f"{directory}:{os.environ.get('PATH', '')}"},
        timeout=TIMEOUT,
        judge=claude_judge("PreToolUse"),
    )


def test_a_runner_that_can_start_threads_but_no_process_denies_at_once(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    """Before issue 23 the runner then ran the guards unwatched (the backstop thread and the
    hard stop's thread live in the process a SIGSTOP freezes): the client's kill at the
    timeout let the tool run."""
    timed = _run_failing(runner_project, tmp_path, "fork and spawn", NO_PROCESS)
    assert timed.verdict.decision == DENY, timed.verdict
    assert "watchdog" in timed.verdict.why, timed.verdict


def test_a_watchdog_that_is_not_confirmed_and_cannot_be_replaced_denies(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    dash = shutil.which("dash")
    if dash is None:
        pytest.skip("needs dash as the watchdog's shell that is not bash")
    patch = NO_FORK_NO_BASH.format(dash=dash)
    timed = _run_failing(runner_project, tmp_path, "fork", patch)
    assert timed.verdict.decision == DENY, timed.verdict
    assert "watchdog" in timed.verdict.why, timed.verdict


_NO_THREAD = (
    "import _thread\n"
    "def _no_thread(*args, **options):\n"
    '    raise RuntimeError("can\'t start new thread")\n'
    "_thread.start_new_thread = _no_thread\n"
)


def test_a_guarded_run_with_no_thread_and_no_watchdog_denies_at_once(
    runner_project: RunnerProject,
) -> None:
    """`hookman run` started without the launcher has no watchdog; with no thread either (the
    deadline's backstop), a guard that stops the process would hang it past any timeout."""
    runner_project.add_hook("guard", STOPS_ON_RM, ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"] = {"matcher": None, "timeout": TIMEOUT, "deadline": 3.0}
    runner_project.write_manifest()
    code = _NO_THREAD + RUNNER_CODE
    argv = [sys.executable, "-c", code, "run", "PreToolUse", "--manifest"]
    payload = runner_project.payload(
        "PreToolUse", tool_name="Bash", tool_input={"command": "rm -rf /"}
    )
    timed = run_command(
        [*argv, str(runner_project.manifest_path)],
        payload,
        cwd=runner_project.root,
        env=dict(os.environ),
        timeout=TIMEOUT,
        judge=claude_judge("PreToolUse"),
    )
    assert timed.verdict.decision == DENY, timed.verdict
    assert "watchdog" in timed.verdict.why, timed.verdict
