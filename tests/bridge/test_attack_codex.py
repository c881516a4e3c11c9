"""Hostile guard results and environments against a Codex CLI entry (`... PreToolUse --agent
codex`), through the exact command install writes into .codex/hooks.json, run as Codex runs
it (`/bin/bash -c`, whatever $SHELL says: measured on 0.150.0 and 0.171.0) and under `sh`.

What Codex does with the result, measured in the real binaries (tests/e2e/test_codex.py):
exit 2 blocks with stderr as the reason, but only when stderr holds text (exit 2 with an
empty stderr lets the command run); on exit 0 a JSON deny blocks only when it holds nothing
but the fields Codex knows (systemMessage beside it is fine) and a reason that is not empty;
anything else (another exit status, stdout that is not one JSON object, an unknown key, an
empty reason) lets the command run. The guard must come out as a deny whatever it does."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .attack_support import (
    BASH,
    DENY,
    SHORT_TIMEOUT,
    TOOL_RUNS,
    Verdict,
    guard_that,
    short_timeout,
)
from .conftest import RunnerProject

ALLOW = "allow"
SHELLS = {"bash": BASH, "sh": "/bin/sh"}
_SPECIFIC_KEYS = {
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "additionalContext",
}


def codex_verdict(returncode: int, out: bytes, err: bytes) -> Verdict:
    """What Codex does with a PreToolUse hook's result (measured, see the module docstring)."""
    if returncode == 2:
        why = err.decode(errors="replace").strip()
        return Verdict(DENY if why else TOOL_RUNS, why or "exit 2 with an empty stderr", None, err)
    if returncode != 0:
        return Verdict(TOOL_RUNS, f"exit status {returncode}", None, err)
    text = out.decode(errors="replace")
    if text.count("\n") > 1 or not text.strip():
        return Verdict(TOOL_RUNS, f"stdout is not one line: {text[:200]!r}", None, err)
    try:
        answer = json.loads(text)
    except ValueError:
        return Verdict(TOOL_RUNS, f"stdout is not JSON: {text[:200]!r}", None, err)
    if answer == {}:
        return Verdict(ALLOW, "{}", answer, err)
    if not isinstance(answer, dict) or set(answer) - {"hookSpecificOutput", "systemMessage"}:
        return Verdict(TOOL_RUNS, f"a key Codex does not know: {text[:200]}", answer, err)
    specific = answer.get("hookSpecificOutput")
    if not isinstance(specific, dict) or set(specific) - _SPECIFIC_KEYS:
        return Verdict(TOOL_RUNS, f"a hookSpecificOutput Codex refuses: {text[:200]}", answer, err)
    reason = specific.get("permissionDecisionReason")
    if specific.get("permissionDecision") != DENY or specific.get("hookEventName") != "PreToolUse":
        return Verdict(TOOL_RUNS, f"not a deny: {text[:200]}", answer, err)
    if not isinstance(reason, str) or not reason.strip():
        return Verdict(TOOL_RUNS, f"a deny without a reason: {text[:200]}", answer, err)
    return Verdict(DENY, reason, answer, err)


def run_like_codex(
    project: RunnerProject,
    payload: dict[str, Any],
    *,
    shell: str = BASH,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> Verdict:
    command = project.command("PreToolUse", agent="codex")
    process = subprocess.Popen(
        [shell, "-c", command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=project.root,
        env={**os.environ, **(env or {})},
        start_new_session=True,
    )
    try:
        out, err = process.communicate(json.dumps(payload).encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return Verdict(TOOL_RUNS, "killed at the timeout", None, err)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    return codex_verdict(process.returncode, out, err)


def _rm_rf(project: RunnerProject) -> dict[str, Any]:
    return project.payload("PreToolUse", tool_input={"command": "rm -rf /"})


ONLY_RM_RF = "if 'rm -rf' not in event['input'].get('command', ''):\n    return None"
BLOCK = "return {'block': True, 'reason': 'no rm -rf'}"
# What a guard does when it sees `rm -rf` (each must come out as a Codex deny).
HOSTILE = {
    "block, reason not a string": "return {'block': True, 'reason': 42}",
    "block, empty reason": "return {'block': True, 'reason': ''}",
    "block, blank reason": "return {'block': True, 'reason': ' \\n\\t '}",
    "block, NUL reason": "return {'block': True, 'reason': '\\x00'}",
    "block, lone surrogate": "return {'block': True, 'reason': '\\ud800'}",
    "block, newlines": "return {'block': True, 'reason': 'a\\nb\\r\\nc'}",
    "block, huge reason": "return {'block': True, 'reason': 'x' * 400_000}",
    "block, reason None": "return {'block': True, 'reason': None}",
    "claude deny with extras": (
        "return {'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'permissionDecision': 'deny', 'permissionDecisionReason': 'no'}, "
        "'suppressOutput': True, 'continue': False, 'x': 1}"
    ),
    "claude deny, empty reason": (
        "return {'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'permissionDecision': 'deny', 'permissionDecisionReason': ''}}"
    ),
    "claude deny, blank reason": (
        "return {'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'permissionDecision': 'deny', 'permissionDecisionReason': '\\u3000\\u2028'}}"
    ),
    "claude deny, list reason": (
        "return {'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'permissionDecision': 'deny', 'permissionDecisionReason': ['no']}}"
    ),
    "claude ask": (
        "return {'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'permissionDecision': 'ask'}}"
    ),
    "decision block, no reason": "return {'decision': 'block'}",
    "updated input": (
        "return {'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'updatedInput': {'command': 'ls'}}}"
    ),
    "raises": "raise RuntimeError('boom')",
    "SystemExit(0)": "raise SystemExit(0)",
    "KeyboardInterrupt": "raise KeyboardInterrupt",
    "BaseException subclass": "class Out(BaseException): pass\nraise Out()",
    "os._exit(0)": "os._exit(0)",
    "SIGKILL self": "os.kill(os.getpid(), signal.SIGKILL)",
    "closes fd 1": "os.close(1)\n" + BLOCK,
    "writes to fd 1": "os.write(1, b'{\"x\": 1}\\n{')\n" + BLOCK,
    "writes to fd 2": "os.write(2, b'x' * 100_000)\n" + BLOCK,
    "a generator": "return (x for x in [{'block': True}])",
    "a thread left printing": (
        "threading.Thread(target=lambda: [os.write(1, b'{') for _ in iter(int, 1)], "
        "daemon=True).start()\n" + BLOCK
    ),
}


@pytest.fixture
def hostile(runner_project: RunnerProject, request: pytest.FixtureRequest) -> RunnerProject:
    body = f"{ONLY_RM_RF}\n{request.param}"
    guard = guard_that(body, then="return None")
    runner_project.add_hook("guard", guard, ["tool_call"], ["PreToolUse"])
    return runner_project


@pytest.mark.parametrize("shell", SHELLS.values(), ids=list(SHELLS))
@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=list(HOSTILE), indirect=True)
def test_whatever_the_guard_does_codex_gets_a_deny(hostile: RunnerProject, shell: str) -> None:
    verdict = run_like_codex(hostile, _rm_rf(hostile), shell=shell)
    assert verdict.decision == DENY, verdict


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=list(HOSTILE), indirect=True)
def test_whatever_the_guard_does_codex_gets_a_deny_past_bash_env(
    hostile: RunnerProject, tmp_path: Path
) -> None:
    start_up = tmp_path / "start-up.sh"
    start_up.write_text("echo hello from BASH_ENV\n", encoding="utf-8")
    verdict = run_like_codex(hostile, _rm_rf(hostile), env={"BASH_ENV": str(start_up)})
    assert verdict.decision == DENY, verdict


RM_GUARD = guard_that(ONLY_RM_RF, then=BLOCK)


def _break(project: RunnerProject, how: str, tmp_path: Path) -> dict[str, str]:
    """Break the install or the environment as `how` says; the environment to run with."""
    launcher, manifest = project.launcher_path, project.manifest_path
    if how == "launcher gone":
        launcher.unlink()
    elif how == "launcher emptied":
        launcher.write_text("")
    elif how == "launcher cut":
        launcher.write_text(launcher.read_text()[:900])
    elif how == "launcher a FIFO":
        launcher.unlink()
        os.mkfifo(launcher)
    elif how == "launcher a directory":
        launcher.unlink()
        launcher.mkdir()
    elif how == "manifest gone":
        manifest.unlink()
    elif how == "manifest emptied":
        manifest.write_text("")
    elif how == "manifest a FIFO":
        manifest.unlink()
        os.mkfifo(manifest)
    elif how == "manifest not JSON":
        manifest.write_text("{")
    elif how == "python gone":
        project.launcher_python = str(tmp_path / "no-python")
        project.write_launcher()
    elif how == "SHELLOPTS errexit nounset":
        return {"SHELLOPTS": "errexit:nounset:noclobber"}
    elif how == "PYTHON variables":
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text("import os; os.write(1, b'{')\n")
        return {"PYTHONPATH": str(site), "PYTHONHOME": str(tmp_path), "PYTHONSTARTUP": "/x"}
    elif how == "BASH_ENV prints":
        start_up = tmp_path / "start-up.sh"
        start_up.write_text("echo '{}'; echo oops >&2\n")
        return {"BASH_ENV": str(start_up)}
    elif how == "no sh on PATH":
        return {"PATH": str(tmp_path)}
    elif how == "no writable answer dir":
        project.state_dir.chmod(0o500)
        return {"TMPDIR": str(tmp_path / "missing")}
    return {}


BREAKAGES = [
    "launcher gone",
    "launcher emptied",
    "launcher cut",
    "launcher a FIFO",
    "launcher a directory",
    "manifest gone",
    "manifest emptied",
    "manifest a FIFO",
    "manifest not JSON",
    "python gone",
    "SHELLOPTS errexit nounset",
    "PYTHON variables",
    "BASH_ENV prints",
    "no sh on PATH",
    "no writable answer dir",
]


@pytest.mark.parametrize("shell", SHELLS.values(), ids=list(SHELLS))
@pytest.mark.parametrize("how", BREAKAGES)
def test_a_broken_install_or_environment_is_a_codex_deny(
    runner_project: RunnerProject, tmp_path: Path, how: str, shell: str
) -> None:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    env = _break(runner_project, how, tmp_path)
    try:
        payload = _rm_rf(runner_project)
        verdict = run_like_codex(runner_project, payload, shell=shell, env=env, timeout=40)
    finally:
        runner_project.state_dir.chmod(0o700)
    assert verdict.decision == DENY, verdict


@pytest.mark.parametrize("shell", SHELLS.values(), ids=list(SHELLS))
def test_the_same_guard_allows_a_harmless_command(
    runner_project: RunnerProject, shell: str
) -> None:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    assert run_like_codex(runner_project, payload, shell=shell).decision == ALLOW
    denied = run_like_codex(runner_project, _rm_rf(runner_project), shell=shell)
    assert denied.decision == DENY and denied.why == "no rm -rf", denied


def test_a_timeout_lowered_by_hand_in_codex_hooks_json_still_ends_in_a_deny(
    runner_project: RunnerProject,
) -> None:
    """Codex kills a hook at the `timeout` of its .codex/hooks.json entry, and the command
    then runs: the runner must decide before the timeout the user set there by hand (as it
    does for settings.local.json), not the one install recorded."""
    slow = guard_that(f"{ONLY_RM_RF}\ntime.sleep(30)", then=BLOCK)
    runner_project.add_hook("guard", slow, ["tool_call"], ["PreToolUse"])
    timeout = 3
    handler = {"type": "command", "command": runner_project.command("PreToolUse", agent="codex")}
    hooks = {"hooks": {"PreToolUse": [{"hooks": [{**handler, "timeout": timeout}]}]}}
    (runner_project.root / ".codex").mkdir()
    (runner_project.root / ".codex" / "hooks.json").write_text(json.dumps(hooks))
    verdict = run_like_codex(runner_project, _rm_rf(runner_project), timeout=timeout)
    assert verdict.decision == DENY, verdict
    assert "deadline of 2 s" in verdict.why, verdict


STOPPING = {
    "SIGSTOP self": "os.kill(os.getpid(), signal.SIGSTOP)",
    "kills its process group": "os.killpg(0, signal.SIGKILL)",
    "sleeps past the timeout": "time.sleep(60)",
    "spins in C": "import re\nre.match(r'(a+)+$', 'a' * 40 + 'b')",
}


@pytest.mark.parametrize("code", STOPPING.values(), ids=list(STOPPING))
def test_a_guard_that_stops_or_hangs_is_a_deny_within_codex_s_timeout(
    runner_project: RunnerProject, code: str
) -> None:
    runner_project.add_hook(
        "guard", guard_that(f"{ONLY_RM_RF}\n{code}", then=BLOCK), ["tool_call"], ["PreToolUse"]
    )
    short_timeout(runner_project)
    verdict = run_like_codex(runner_project, _rm_rf(runner_project), timeout=SHORT_TIMEOUT)
    assert verdict.decision == DENY, verdict
