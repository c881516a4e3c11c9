"""install, disable, list and fire with Codex CLI among the project's agents: .codex/hooks.json
written and kept out of git, trust recorded through Codex's app server (a stand-in `codex`
here; the real binary in tests/e2e/test_codex.py), Claude Code's files as before."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from hookman.project.settings_entries import (
    BLOCKING,
    SENTINEL,
    find_hookman_entries,
    hookman_handler_kind,
)
from tests.fake_codex import install_fake_codex, trust_project, trust_state

from .helpers import GUARD, hookman, hookman_json, local_settings, write_hook

NOTES = """\
def hook(pi):
    pi.on("session_start", lambda event, ctx: None)
    pi.on("tool_result", lambda event, ctx: None, tools=["Bash"])
    pi.on("session_shutdown", lambda event, ctx: None)
"""


@pytest.fixture
def codex_home(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project)
    home = tmp_path / "codex-home"
    install_fake_codex(tmp_path / "bin", home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return home


def codex_hooks(project: Path) -> dict:
    return json.loads((project / ".codex" / "hooks.json").read_text())


def test_install_agent_codex_writes_both_clients_and_trusts_its_own(
    project: Path, codex_home: Path
) -> None:
    trust_project(codex_home, project)
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "codex", "--claude-version", "2.1.328")
    assert result.exit_code == 0, result.output
    assert 'agents = ["claude", "codex"]' in (project / ".claude" / "hookman.toml").read_text()
    claude = find_hookman_entries(local_settings(project))
    codex = find_hookman_entries(codex_hooks(project))
    # Claude Code's prompt gate and sentinel only: Codex honours no stop of a prompt, and
    # gets no sentinel (project/sentinel.py)
    assert [(event, hookman_handler_kind(handler)) for event, handler in claude] == [
        ("PreToolUse", BLOCKING),
        ("PreToolUse", SENTINEL),
        ("UserPromptSubmit", BLOCKING),
    ]
    assert [(event, hookman_handler_kind(handler)) for event, handler in codex] == [
        ("PreToolUse", BLOCKING)
    ]
    assert "--agent codex" in codex[0][1]["command"]
    assert all("--agent" not in handler["command"] for _, handler in claude)
    key = f"{project}/.codex/hooks.json:pre_tool_use:0:0"
    assert f"trusted in Codex: {key}" in result.output
    assert list(trust_state(codex_home)) == [key]
    assert "/.codex/hooks.json" in (project / ".git" / "info" / "exclude").read_text()
    again = hookman("install")
    assert "trusted in Codex" not in again.output and "already trusts" in again.output


def test_an_untrusted_project_is_named_with_what_to_do(project: Path, codex_home: Path) -> None:
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "codex")
    assert result.exit_code == 0, result.output
    assert "does not trust" in result.output and 'trust_level = "trusted"' in result.output
    assert trust_state(codex_home) == {}


def test_no_codex_trust_only_says_what_is_left(project: Path, codex_home: Path) -> None:
    trust_project(codex_home, project)
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "codex", "--no-codex-trust")
    assert "does not trust these hookman hooks yet" in result.output
    assert trust_state(codex_home) == {}


def test_events_without_a_codex_counterpart_are_named_and_session_end_is_capped(
    project: Path, codex_home: Path
) -> None:
    write_hook(project, "notes", NOTES)
    data = hookman_json(
        "install", "hooks/notes.py", "--agent", "codex", "--claude-version", "2.1.328"
    )
    codex = data["codex"]
    assert codex["version"] == "0.171.0"
    assert "PostToolUseFailure" in codex["not_in_codex"]
    assert "PostToolUseFailure" not in codex["written"] and "PostToolUse" in codex["written"]
    timeouts = {
        event: groups[0]["hooks"][0].get("timeout")
        for event, groups in codex_hooks(project)["hooks"].items()
    }
    assert timeouts["SessionEnd"] <= 3
    listed = hookman_json("list")
    assert listed["agents"] == ["claude", "codex"]
    assert "PostToolUse" in listed["codex"]["hooks"]["notes"]["events"]


def test_disabling_and_dropping_codex_remove_hookmans_entries_only(
    project: Path, codex_home: Path
) -> None:
    (project / ".codex").mkdir()
    foreign = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
    (project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [foreign]}}))
    write_hook(project, "guard", GUARD)
    hookman("install", "hooks/guard.py", "--agent", "codex")
    assert len(codex_hooks(project)["hooks"]["PreToolUse"]) == 2
    hookman("disable", "guard")
    assert codex_hooks(project)["hooks"]["PreToolUse"] == [foreign]
    hookman("enable", "guard")
    assert len(codex_hooks(project)["hooks"]["PreToolUse"]) == 2
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(toml.read_text().replace('agents = ["claude", "codex"]', 'agents = ["claude"]'))
    hookman("install")
    assert codex_hooks(project)["hooks"]["PreToolUse"] == [foreign]
    assert find_hookman_entries(local_settings(project))


def test_a_codex_file_git_tracks_stops_the_install_before_any_write(
    project: Path, codex_home: Path
) -> None:
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text("{}\n")
    subprocess.run(["git", "add", ".codex/hooks.json"], cwd=project, check=True)
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "codex")
    assert result.exit_code != 0
    assert "committed to git" in result.output and "git rm --cached" in result.output
    assert not (project / ".claude" / "settings.local.json").exists()
    assert (project / ".codex" / "hooks.json").read_text() == "{}\n"


def test_an_unknown_agent_is_refused(project: Path, codex_home: Path) -> None:
    result = hookman("install", "--agent", "cursor")
    assert result.exit_code == 2 and "cursor" in result.output


def test_fire_agent_codex_shows_what_codex_and_its_model_get(
    project: Path, codex_home: Path, tmp_path: Path
) -> None:
    write_hook(project, "guard", GUARD)
    hookman("install", "hooks/guard.py", "--agent", "codex")
    payload = tmp_path / "payload.json"
    payload.write_text(
        json.dumps(
            {
                "session_id": "s",
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "rm -rf /"},
                "cwd": str(project),
                "turn_id": "t",
                "tool_use_id": "c",
                "permission_mode": "bypassPermissions",
                "model": "m",
            }
        )
    )
    report = hookman_json("fire", "PreToolUse", "--agent", "codex", "--payload", str(payload))
    assert report["codex"]["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert report["codex"]["model_sees"] == [
        "Command blocked by PreToolUse hook: no. Command: rm -rf /"
    ]
    text = hookman("fire", "PreToolUse", "--agent", "codex", "--payload", str(payload)).output
    assert "answer to Codex" in text and "Command blocked by PreToolUse hook: no." in text


def test_a_hook_that_may_rewrite_tool_output_is_named(project: Path, codex_home: Path) -> None:
    write_hook(project, "notes", NOTES)
    result = hookman("install", "hooks/notes.py", "--agent", "codex")
    assert "reaches Codex's model unchanged" in " ".join(result.output.split())


def test_a_shell_guard_is_told_what_codex_never_shows_it(project: Path, codex_home: Path) -> None:
    """Codex runs no hook for write_stdin (measured on 0.150.0 and 0.171.0,
    tests/e2e/test_codex.py): a guard that allows `bash` in a terminal never sees the
    commands the model then types into it. install and list say so; a hook that guards no
    shell command is not told."""
    trust_project(codex_home, project)
    write_hook(project, "guard", GUARD)
    write_hook(project, "notes", NOTES)
    result = hookman("install", "hooks/guard.py", "hooks/notes.py", "--agent", "codex")
    said = " ".join(result.output.split())
    assert "the hook 'guard' guards shell commands" in said, result.output
    assert "write_stdin" in said and "'notes' guards" not in said
    listed = " ".join(hookman("list").output.split())
    assert "the hook 'guard' guards shell commands" in listed


CODEX_NAMED = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no"}
    pi.on("tool_call", check, tools=["exec_command"])
"""


def test_a_guard_that_names_codex_s_shell_tool_is_told_it_never_runs(
    project: Path, codex_home: Path
) -> None:
    """Codex's hooks see its shell tool exec_command as `Bash` (measured), so a guard that
    asks for `exec_command` matches nothing, in Codex or Claude Code: install says so."""
    write_hook(project, "named", CODEX_NAMED)
    result = hookman("install", "hooks/named.py", "--agent", "codex")
    said = " ".join(result.output.split())
    assert "the hook 'named' asks for the tool 'exec_command'" in said, result.output
    assert "'Bash'" in said
    assert "'Bash'" in " ".join(hookman("list").output.split())


def test_a_dry_run_says_what_it_would_write_for_codex_and_writes_nothing(
    project: Path, codex_home: Path
) -> None:
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "codex", "--dry-run")
    assert result.exit_code == 0, result.output
    path = project / ".codex" / "hooks.json"
    assert f"Codex: would write PreToolUse in {path}" in result.output
    assert "trusted in Codex" not in result.output and "does not trust" not in result.output
    assert not path.exists() and trust_state(codex_home) == {}
    data = hookman_json("install", "hooks/guard.py", "--agent", "codex", "--dry-run")
    assert data["codex"]["written"] == ["PreToolUse"] and data["codex"]["trust"] is None
    assert data["codex"]["diff"].startswith("--- /dev/null\n")


def test_disabling_codex_s_only_hook_says_its_entries_were_removed_never_no_events(
    project: Path, codex_home: Path
) -> None:
    trust_project(codex_home, project)
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", "--agent", "codex").exit_code == 0
    path = project / ".codex" / "hooks.json"
    dry = hookman("disable", "guard", "--dry-run").output
    assert f"Codex: would remove hookman's entries from {path}" in dry, dry
    said = hookman("disable", "guard").output
    assert f"Codex: removed hookman's entries from {path}" in said, said
    assert "(no enabled hook needs a Codex event)" in said
    assert find_hookman_entries(codex_hooks(project)) == []
    again = hookman("install").output  # nothing of hookman's left to write, or to keep
    assert "Codex: no hookman entries (no enabled hook needs a Codex event)" in again, again
    path.unlink()
    missing = hookman("install").output  # and no file is claimed for one that is not there
    assert "Codex: no hookman entries" in missing and str(path) not in missing, missing
    assert not path.exists()
    for output in (dry, said, again, missing):
        assert "no events" not in output


def test_list_names_codex_entries_this_machine_lacks_or_runs_for_fewer_tools(
    project: Path, codex_home: Path
) -> None:
    """hookman.toml asks for what .codex/hooks.json does not hold (a pull not installed
    since): list says Codex runs no hook there, and names `hookman install`."""
    trust_project(codex_home, project)
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", "--agent", "codex").exit_code == 0
    path = project / ".codex" / "hooks.json"
    quiet = hookman_json("list")
    assert not [w for w in quiet["warnings"] if str(path) in w], quiet
    assert quiet["codex"]["hooks"]["guard"]["not_installed"] == []
    assert quiet["codex"]["hooks"]["guard"]["installed_for"] == {}
    assert "  guard: PreToolUse\n" in hookman("list").output
    written = path.read_text()
    path.write_text(written.replace('"matcher": "Bash"', '"matcher": "Read"'))
    narrower = hookman_json("list")
    assert f"{path}: hookman's PreToolUse entry runs hooks for Read, not Bash" in " ".join(
        narrower["warnings"]
    ), narrower
    assert narrower["codex"]["hooks"]["guard"]["installed_for"] == {"PreToolUse": ["Read"]}
    assert "guard: PreToolUse (installed here for Read only)" in hookman("list").output
    path.write_text("{}")
    listed = hookman("list").output
    said = " ".join(listed.split())
    assert f"{path} has no hookman entry for PreToolUse: Codex runs no hook on that event" in said
    assert "until `hookman install` writes the entries" in said, said
    # The hook's own line tells the same: the event it plans is not installed here
    assert "guard: PreToolUse (not installed here yet)" in listed, listed
    assert hookman_json("list")["codex"]["hooks"]["guard"]["not_installed"] == ["PreToolUse"]
    assert hookman("install").exit_code == 0
    assert not [w for w in hookman_json("list")["warnings"] if str(path) in w]
