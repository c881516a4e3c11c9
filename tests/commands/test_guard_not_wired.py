"""After a pull without `hookman install`, a guard hookman.toml or a hook's code added on a
tool no installed blocking entry matches is still never skipped: the event's sentinel
(project/sentinel.py) reaches every other tool, and once the project changed it runs the
runner, which denies naming `hookman install` (project changed, or a path hook guarding what
install did not wire). fire, list and doctor say so (the cases of the hostile tests in
tests/bridge/test_attack_issue24.py), and no longer that those calls run without hookman.

A project installed by an older hookman has no sentinel: there Claude Code calls hookman
only for the blocking entries, those calls run without hookman, and the commands say that
(`hookman-guard-not-wired`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookman import paths
from hookman.project.settings_entries import hookman_handler_is_sentinel
from tests.bridge.attack_support import DENY, hookman_install, sentinel_handlers

from .helpers import client_verdicts, local_settings, pulled_after_install, tool_payload

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


def _write_hook(project: Path, name: str, source: str) -> Path:
    (project / "hooks").mkdir(exist_ok=True)
    path = project / "hooks" / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def _pull_hook(project: Path, name: str, tool: str) -> None:
    """A teammate's `hookman install hooks/NAME.py`, pulled: hookman.toml gains the hook."""
    config = project / ".claude" / "hookman.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + f'\n[[hooks]]\nname = "{name}"\npath = "hooks/{name}.py"\n'
        f'events = ["tool_call"]\ntools = {{ tool_call = ["{tool}"] }}\n',
        encoding="utf-8",
    )
    pulled_after_install(project, config, project / "hooks" / f"{name}.py")


def _fire(project: Path, tool: str) -> dict:
    path = project / "payload.json"
    path.write_text(json.dumps(tool_payload(project, tool)), encoding="utf-8")
    done = _hookman(project, "fire", "PreToolUse", "--payload", str(path), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _denies(report: dict) -> bool:
    return "deny" in json.dumps(report["answer"])


def _deny_reason(report: dict) -> str:
    return report["answer"]["hookSpecificOutput"]["permissionDecisionReason"]


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


def _changed(findings: list[dict]) -> str:
    [changed] = [found for found in findings if found["code"] == "hookman-project-changed"]
    return changed["message"]


def _client_denies_naming_install(project: Path, tool: str) -> list[str]:
    """What Claude Code does with a `tool` call: some entry it runs denies, naming `hookman
    install`; returns the verdicts' decisions."""
    verdicts = client_verdicts(project, tool)
    assert any(v.decision == DENY and "hookman install" in v.why for v in verdicts), verdicts
    return [v.decision for v in verdicts]


def _as_an_older_hookman_installed_it(project: Path) -> None:
    """What an install by a hookman without sentinels left: no sentinel in
    settings.local.json, no "sentinels" key in the manifest."""
    settings_path = project / ".claude" / "settings.local.json"
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    for event, groups in list(settings["hooks"].items()):
        for group in groups:
            group["hooks"] = [h for h in group["hooks"] if not hookman_handler_is_sentinel(h)]
        settings["hooks"][event] = [group for group in groups if group["hooks"]]
        if not settings["hooks"][event]:
            del settings["hooks"][event]
    settings_path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    manifest_path = paths.manifest_path(project)
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    del manifest["sentinels"]
    manifest_path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    assert sentinel_handlers(local_settings(project), "PreToolUse") == []


def test_a_guard_pulled_into_a_project_without_a_guarded_entry(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    hookman_install(project, "hooks/obs.py", *VERSION)
    _write_hook(project, "guard", GUARD)
    _pull_hook(project, "guard", "Bash")

    report = _fire(project, "Bash")
    findings = _doctor(project)
    listed = _hookman(project, "list")

    # the sentinel reaches Bash: the runner denies until install
    assert _denies(report), report["answer"]
    assert "hookman install" in _deny_reason(report)
    said = " ".join(report["effects"])
    assert "without hookman" not in said and "hookman install" in said
    assert _unwired(findings) == []
    changed = _changed(findings)
    assert "(PreToolUse on every tool, PreSkillShellCommand on every tool)" in changed
    assert "no guarded call reaches hookman" not in changed
    assert "without hookman" not in changed
    assert "is not wired" not in listed.stdout and "without hookman" not in listed.stdout
    assert "(PreToolUse on every tool, PreSkillShellCommand on every tool) are denied" in (
        listed.stdout.replace("\n", " ")
    )
    # what the installed settings do: only the sentinel matches Bash, and it denies
    assert [group.get("matcher") for group in local_settings(project)["hooks"]["PreToolUse"]] == [
        None
    ]
    assert _client_denies_naming_install(project, "Bash") == [DENY]


def test_a_pulled_guard_on_a_tool_the_installed_entry_does_not_match(project: Path) -> None:
    _write_hook(project, "g", GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)
    _write_hook(project, "no_write", WRITE_GUARD)
    _pull_hook(project, "no_write", "Write")

    bash, write = _fire(project, "Bash"), _fire(project, "Write")
    findings = _doctor(project)
    listed = _hookman(project, "list")

    assert _denies(bash)  # the installed Bash entry reaches the runner, which denies
    assert _denies(write), write["answer"]  # the sentinel reaches Write: denied too
    assert "hookman install" in _deny_reason(write)
    assert "matches Bash only" not in " ".join(write["effects"])
    assert _unwired(findings) == []
    changed = _changed(findings)
    assert "(PreToolUse on every tool, PreSkillShellCommand on every tool)" in changed
    assert "without hookman" not in changed
    assert "is not wired" not in listed.stdout and "without hookman" not in listed.stdout
    # what the installed settings do: the Bash entry denies Bash, the sentinel Write
    assert _client_denies_naming_install(project, "Bash") == [DENY]
    assert _client_denies_naming_install(project, "Write") == [DENY]


def test_a_path_hook_that_grew_a_guard_after_install(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    hookman_install(project, "hooks/obs.py", *VERSION)
    module = _write_hook(project, "obs", GREW_A_GUARD)  # pulled, no install yet
    pulled_after_install(project, module)

    report = _fire(project, "Bash")
    findings = _doctor(project)
    listed = _hookman(project, "list")

    # hookman.toml is as installed: the drift check denies, naming the hook and install
    assert _denies(report), report["answer"]
    assert "'obs' now guards Bash" in _deny_reason(report)
    said = " ".join(report["effects"])
    assert "runner denies this call until `hookman install`" in said
    assert "is not wired" not in said and "without hookman" not in said
    assert _unwired(findings) == []
    assert [found["code"] for found in findings if found["severity"] == "error"] == [
        "subscriptions-changed"
    ]
    assert "behind the code of obs" in listed.stdout
    assert "is not wired" not in listed.stdout
    assert _client_denies_naming_install(project, "Bash") == [DENY]


# A guard that lets the payloads' `rm -rf victim` through: only the drift check can deny it.
LENIENT_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "shutdown" in str(event["input"]):
            return {"block": True, "reason": "no shutdown"}
"""
GREW_A_REDACTION = (
    LENIENT_GUARD
    + """
    @pi.on("tool_result", tools=["Bash"])
    def redact(event, ctx):
        return {"content": "[REDACTED]"}
"""
)


def test_a_guard_that_grew_a_redaction_after_install_denies_until_install(
    project: Path,
) -> None:
    """The walk: a pull added a `tool_result` handler (a redaction) to a guard's code,
    hookman.toml unchanged; unwired, what the tool prints reaches the model. The guard's
    wired entry denies the call (nothing runs, nothing leaks), and the prompt gate stops."""
    _write_hook(project, "g", LENIENT_GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)
    module = _write_hook(project, "g", GREW_A_REDACTION)
    pulled_after_install(project, module)

    report = _fire(project, "Bash")

    assert _denies(report), report["answer"]
    assert "'g' now handles what Bash returns (tool_result)" in _deny_reason(report)
    assert "hookman install" in _deny_reason(report)
    assert _client_denies_naming_install(project, "Bash") == [DENY]
    hookman_install(project, *VERSION)
    assert not _denies(_fire(project, "Bash"))


@pytest.mark.parametrize("pulled", ["a guard on Bash", "a guard on Write"])
def test_an_install_by_an_older_hookman_without_sentinels(project: Path, pulled: str) -> None:
    if pulled == "a guard on Bash":
        _write_hook(project, "obs", OBSERVER)
        hookman_install(project, "hooks/obs.py", *VERSION)
        _as_an_older_hookman_installed_it(project)
        _write_hook(project, "guard", GUARD)
        _pull_hook(project, "guard", "Bash")
        name, tool = "guard", "Bash"
    else:
        _write_hook(project, "g", GUARD)
        hookman_install(project, "hooks/g.py", *VERSION)
        _as_an_older_hookman_installed_it(project)
        _write_hook(project, "no_write", WRITE_GUARD)
        _pull_hook(project, "no_write", "Write")
        name, tool = "no_write", "Write"

    report = _fire(project, tool)
    findings = _doctor(project)
    listed = _hookman(project, "list")

    assert not _denies(report), report["answer"]  # the client never calls hookman
    said = " ".join(report["effects"])
    assert "without hookman" in said and name in said and "hookman install" in said
    [unwired] = _unwired(findings)
    assert unwired["severity"] == "error"
    assert f"{name} (PreToolUse on {tool})" in unwired["message"]
    changed = _changed(findings)
    assert "every other call runs without hookman" in changed
    assert f"{name} (PreToolUse on {tool}) is not wired" in listed.stdout
    # list's notice of the change says so too
    notice = "a guard the project added for other events or tools is not wired, and Claude Code "
    assert notice + "runs those calls without hookman" in listed.stdout.replace("\n", " ")
    assert client_verdicts(project, tool) == []  # no entry reaches it: the tool runs
    if pulled == "a guard on Bash":
        assert "no guarded call reaches hookman" in changed
        assert "matches" not in said
    else:
        assert "(PreToolUse on Bash" in changed and "every tool" not in changed
        assert "matches Bash only" in said
        assert _client_denies_naming_install(project, "Bash") == [DENY]


def test_a_wired_project_has_no_unwired_guard(project: Path) -> None:
    _write_hook(project, "g", GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)

    findings = _doctor(project)

    assert _unwired(findings) == []
    assert findings == [] or all(found["severity"] != "error" for found in findings), findings
