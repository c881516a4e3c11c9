"""Helpers for the hostile tests (test_attack_*.py): run the installed settings command the
way Claude Code does and read the verdict Claude Code would reach.

Claude Code spawns the hook's shell detached (its own process group), kills it when the
entry's timeout passes, reads a JSON decision only on exit 0, and lets the tool run on any
other exit, on a kill, on an empty or non-JSON stdout, and on an answer its schema refuses."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookman.catalog.event_catalog import guarded_events
from hookman.project.settings_entries import hookman_handler_is_sentinel

from .conftest import RunnerProject

DENY = "deny"
TOOL_RUNS = "tool runs"
ALLOW = "allow"
STOPPED = "prompt stopped"  # `continue: false` on UserPromptSubmit: the model is never asked
BASH = shutil.which("bash") or "/bin/bash"  # found before a test changes PATH
SH = "/bin/sh"
SHELLS = {"bash": BASH, "sh": SH}  # Claude Code's shell, and a POSIX sh (dash on Debian)
SHORT_TIMEOUT = 4  # seconds: the entry's timeout in these tests, so a hang costs little
SHORT_DEADLINE = 3.0  # what install writes for it (below the timeout by max(1 s, 10 %))


@dataclass
class Verdict:
    decision: str  # DENY, ALLOW, STOPPED or TOOL_RUNS
    why: str
    answer: dict[str, Any] | None
    stderr: bytes

    def __str__(self) -> str:
        return f"{self.decision}: {self.why}"


def short_timeout(project: RunnerProject, event: str = "PreToolUse") -> None:
    """Give `event`'s entry a short timeout (install writes at least 30 s; the launcher and
    runner are the same whatever the number)."""
    project.entries[event] = {"matcher": None, "timeout": SHORT_TIMEOUT, "deadline": SHORT_DEADLINE}
    project.write_manifest()


def entry_timeout(project: RunnerProject, event: str) -> float:
    return float(project.entries[event]["timeout"])


def run_like_claude_code(
    project: RunnerProject,
    event: str,
    payload: dict[str, Any] | bytes,
    *,
    shell_prefix: str = "",
    env: dict[str, str] | None = None,
    shell: str = BASH,
    timeout: float | None = None,
) -> Verdict:
    """Run the settings command for `event` as Claude Code does and say what the client does."""
    return run_settings_command(
        shell_prefix + project.command(event),
        event,
        payload,
        timeout=entry_timeout(project, event) if timeout is None else timeout,
        cwd=project.root,
        env=env,
        shell=shell,
    )


def run_settings_command(
    command: str,
    event: str,
    payload: dict[str, Any] | bytes,
    *,
    timeout: float,
    cwd: Path,
    env: dict[str, str] | None = None,
    shell: str = BASH,
) -> Verdict:
    """Run one settings command through bash (or `shell`) as Claude Code does (detached,
    killed at its timeout) and say what the client does with the result: exit 2 blocks a
    guarded event whatever stdout holds; a JSON answer counts only on exit 0 and only when
    stdout is the JSON alone (measured: text before it makes the client read plain text)."""
    stdin = json.dumps(payload).encode() if isinstance(payload, dict) else payload
    process = subprocess.Popen(
        [shell, "-c", command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        start_new_session=True,  # Claude Code spawns hooks detached on POSIX
    )
    try:
        out, err = process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return Verdict(TOOL_RUNS, "killed at the entry's timeout", None, err)
    finally:
        _kill_group_quietly(process.pid)
    return claude_verdict(process.returncode, out, err, event)


def claude_verdict(returncode: int, out: bytes, err: bytes, event: str) -> Verdict:
    """What Claude Code does with a hook's result: exit 2 blocks a guarded event whatever
    stdout holds (stderr is the reason); a JSON answer counts only on exit 0 and only when
    stdout is the JSON alone; anything else lets the tool run."""
    if returncode == 2 and event in guarded_events():
        # Exit 2 blocks a guarded event whatever stdout holds; stderr is the reason.
        return Verdict(DENY, err.decode(errors="replace").strip(), None, err)
    if returncode != 0:
        return Verdict(TOOL_RUNS, f"exit status {returncode}", None, err)
    try:
        answer = json.loads(out)
    except ValueError:
        return Verdict(TOOL_RUNS, f"stdout is not JSON: {out[:200]!r}", None, err)
    if not isinstance(answer, dict):
        return Verdict(TOOL_RUNS, "stdout is not a JSON object", None, err)
    refused = schema_problem(answer, event)
    if refused:
        return Verdict(TOOL_RUNS, f"Claude Code's schema refuses it: {refused}", answer, err)
    if event == "UserPromptSubmit" and answer.get("continue") is False:  # measured, 2.1.197+
        return Verdict(STOPPED, str(answer.get("stopReason", "")), answer, err)
    specific = answer.get("hookSpecificOutput") or {}
    if specific.get("permissionDecision") == DENY:
        return Verdict(DENY, specific.get("permissionDecisionReason", ""), answer, err)
    return Verdict(ALLOW, json.dumps(answer)[:300], answer, err)


def hookman_install(project_dir: Path, *args: str) -> dict[str, Any]:
    """`hookman install ARGS` in the project (HOOKMAN_HOME from the environment, as the
    fixtures set it); returns the settings.local.json it wrote."""
    done = subprocess.run(
        [sys.executable, "-m", "hookman", "install", *args],
        cwd=project_dir,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done
    settings = project_dir / ".claude" / "settings.local.json"
    return json.loads(settings.read_text(encoding="utf-8"))


def installed_handlers(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """The handlers written under `event`, but the sentinel (sentinel_handlers)."""
    return [h for h in _handlers(settings, event) if not hookman_handler_is_sentinel(h)]


def sentinel_handlers(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """hookman's sentinel handler under `event` (project/sentinel.py), if written."""
    return [h for h in _handlers(settings, event) if hookman_handler_is_sentinel(h)]


def _handlers(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    groups = settings.get("hooks", {}).get(event, [])
    return [handler for group in groups for handler in group.get("hooks", [])]


def _kill_group_quietly(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


# The output schema of Claude Code 2.1.328, as its binary declares it (zod; unknown keys are
# dropped, a wrongly typed known key fails the whole answer: "Hook JSON output validation
# failed", after which the output is plain text and the tool runs; seen in the real client,
# tests/e2e/test_attack_guard.py).
_TOP_LEVEL_TYPES: dict[str, type | tuple[type, ...]] = {
    "continue": bool,
    "suppressOutput": bool,
    "stopReason": str,
    "systemMessage": str,
    "terminalSequence": str,
    "reason": str,
}
_PRE_TOOL_USE_TYPES: dict[str, type | tuple[type, ...]] = {
    "permissionDecisionReason": str,
    "updatedInput": dict,
    "additionalContext": str,
}


def schema_problem(answer: dict[str, Any], event: str) -> str | None:
    """Why Claude Code's output schema refuses `answer` (None when it accepts it)."""
    if answer.get("async") is True:
        return "async: true makes it an async hook's first line"
    for key, wanted in _TOP_LEVEL_TYPES.items():
        if key in answer and not isinstance(answer[key], wanted):
            return f"{key}: {type(answer[key]).__name__}"
    if "decision" in answer and answer["decision"] not in ("approve", "block"):
        return f"decision: {answer['decision']!r}"
    specific = answer.get("hookSpecificOutput")
    if specific is None:
        return None
    if not isinstance(specific, dict) or specific.get("hookEventName") != event:
        return "hookSpecificOutput without this event's hookEventName"
    if event in ("PreToolUse", "PreSkillShellCommand"):
        for key, wanted in _PRE_TOOL_USE_TYPES.items():
            if key in specific and not isinstance(specific[key], wanted):
                return f"hookSpecificOutput.{key}: {type(specific[key]).__name__}"
        decision = specific.get("permissionDecision")
        if decision is not None and decision not in ("allow", "deny", "ask", "defer"):
            return f"hookSpecificOutput.permissionDecision: {decision!r}"
    return None


def guard_that(body: str, then: str = "return {'block': True, 'reason': 'checked'}") -> str:
    """A tool_call hook whose handler runs `body`, then `then`."""
    lines = [*textwrap.dedent(body).strip().splitlines(), then]
    indented = "\n".join(f"        {line}" for line in lines)
    return f"""
import ctypes, os, signal, subprocess, sys, threading, time
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
{indented}
"""


RM_GUARD = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm" in str(event["input"].get("command")):
            return {"block": True, "reason": "no rm"}
"""


def venv_with_pth(base: Path, target: Path, pth_code: str | None) -> str:
    """A copy of the venv `base` at `target` (made once by `make_base_venv`) whose
    site-packages holds a `.pth` running `pth_code`; returns its interpreter."""
    shutil.copytree(base, target, symlinks=True)
    site_packages = next(target.glob("lib/python*/site-packages"))
    if pth_code is not None:
        (site_packages / "aa_hostile.pth").write_text(pth_code + "\n", encoding="utf-8")
    return str(target / "bin" / "python")


def make_base_venv(target: Path) -> Path:
    """A bare venv of this interpreter in which hookman imports as installed (a `.pth` naming
    this checkout, as an editable install writes)."""
    import venv

    venv.EnvBuilder(with_pip=False, symlinks=True).create(target)
    site_packages = next(target.glob("lib/python*/site-packages"))
    import hookman

    root = Path(hookman.__file__).resolve().parents[1]
    (site_packages / "hookman_checkout.pth").write_text(f"{root}\n", encoding="utf-8")
    return target
