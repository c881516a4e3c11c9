"""After a pull without `hookman install`, Claude Code calls hookman only for the entries
installed here: a guard hookman.toml or a hook's code added on another event or tool is not
wired, and those calls run without hookman. fire, list and doctor say so (the cases of the
hostile tests in tests/bridge/test_attack_issue24.py), and never that such a call is denied."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.bridge.attack_support import hookman_install

VERSION = ("--claude-version", "2.1.332")
GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""
WRITE_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Write"])
    def guard(event, ctx):
        return {"block": True, "reason": "no writes"}
"""
OBSERVER = """
def hook(pi):
    pi.on("before_agent_start", lambda event, ctx: None)
"""
GREW_A_GUARD = (
    OBSERVER
    + """
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""
)


def _hookman(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _write_hook(project: Path, name: str, source: str) -> None:
    (project / "hooks").mkdir(exist_ok=True)
    (project / "hooks" / f"{name}.py").write_text(source, encoding="utf-8")


def _pull_hook(project: Path, name: str, tool: str) -> None:
    """A teammate's `hookman install hooks/NAME.py`, pulled: hookman.toml gains the hook."""
    config = project / ".claude" / "hookman.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + f'\n[[hooks]]\nname = "{name}"\npath = "hooks/{name}.py"\n'
        f'events = ["tool_call"]\ntools = {{ tool_call = ["{tool}"] }}\n',
        encoding="utf-8",
    )


def _fire(project: Path, tool: str) -> dict:
    payload = {
        "session_id": "s",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": {"command": "rm -rf victim"}
        if tool == "Bash"
        else {"file_path": str(project / "x"), "content": "x"},
        "tool_use_id": "toolu_1",
    }
    path = project / "payload.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    done = _hookman(project, "fire", "PreToolUse", "--payload", str(path), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _denies(report: dict) -> bool:
    return "deny" in json.dumps(report["answer"])


def _doctor(project: Path) -> list[dict]:
    done = _hookman(project, "doctor", *VERSION, "--json")
    return json.loads(done.stdout)["findings"]


def _unwired(findings: list[dict], event: str = "PreToolUse") -> list[dict]:
    """The guard-not-wired findings about `event` (a Bash guard also guards skill shells)."""
    return [
        found
        for found in findings
        if found["code"] == "hookman-guard-not-wired" and f"({event} on" in found["message"]
    ]


def test_a_guard_pulled_into_a_project_without_a_guarded_entry(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    hookman_install(project, "hooks/obs.py", *VERSION)
    _write_hook(project, "guard", GUARD)
    _pull_hook(project, "guard", "Bash")

    report = _fire(project, "Bash")
    findings = _doctor(project)
    listed = _hookman(project, "list")

    assert not _denies(report), report["answer"]  # the client never calls hookman
    said = " ".join(report["effects"])
    assert "without hookman" in said and "guard" in said and "hookman install" in said
    [unwired] = _unwired(findings)
    assert (
        unwired["severity"] == "error"
        and "guard guard (PreToolUse on Bash)" in (unwired["message"])
    )
    [changed] = [found for found in findings if found["code"] == "hookman-project-changed"]
    assert "no guarded call reaches hookman" in changed["message"]
    assert "the guard guard (PreToolUse on Bash) is not wired" in listed.stdout


def test_a_pulled_guard_on_a_tool_the_installed_entry_does_not_match(project: Path) -> None:
    _write_hook(project, "g", GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)
    _write_hook(project, "no_write", WRITE_GUARD)
    _pull_hook(project, "no_write", "Write")

    bash, write = _fire(project, "Bash"), _fire(project, "Write")
    findings = _doctor(project)
    listed = _hookman(project, "list")

    assert _denies(bash)  # the installed Bash entry reaches the runner, which denies
    assert not _denies(write), write["answer"]  # no entry matches Write: the tool runs
    assert "matches Bash only" in " ".join(write["effects"])
    [unwired] = _unwired(findings)
    assert "no_write (PreToolUse on Write)" in unwired["message"]
    [changed] = [found for found in findings if found["code"] == "hookman-project-changed"]
    assert "(PreToolUse on Bash" in changed["message"]
    assert "every guarded tool call" not in changed["message"]
    assert "no_write (PreToolUse on Write) is not wired" in listed.stdout
    assert "guarded tool calls are denied until" not in listed.stdout


def test_a_path_hook_that_grew_a_guard_after_install(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    hookman_install(project, "hooks/obs.py", *VERSION)
    _write_hook(project, "obs", GREW_A_GUARD)  # pulled, no install yet

    report = _fire(project, "Bash")
    findings = _doctor(project)
    listed = _hookman(project, "list")

    assert not _denies(report)
    said = " ".join(report["effects"])
    assert "the guard obs (PreToolUse on Bash) is not wired" in said
    [unwired] = _unwired(findings)
    assert "obs (PreToolUse on Bash)" in unwired["message"]
    assert "the guard obs (PreToolUse on Bash) is not wired" in listed.stdout


def test_a_wired_project_has_no_unwired_guard(project: Path) -> None:
    _write_hook(project, "g", GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)

    findings = _doctor(project)

    assert _unwired(findings) == []
    assert findings == [] or all(found["severity"] != "error" for found in findings), findings
