"""What hookman writes into settings.local.json holds up in the real client: held-back event
names, a rewrite of the file by the client, and the hand-broken entry that silences a file."""

from __future__ import annotations

import json

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "GUARD-E2E: rm -rf is not allowed here"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

GUARD_WITH_DIRECTORY_ADDED = (
    GUARD
    + """
    pi.on("DirectoryAdded", lambda payload, ctx: None)
"""
)

DIRECTORY_ADDED_SINCE = "2.1.219"  # claude_code_events.json
SKILL_SHELL_SINCE = "2.1.332"


def guard_blocks(e2e: E2EProject) -> bool:
    victim = e2e.root / "victim"
    victim.mkdir(exist_ok=True)
    run = e2e.run_claude("tidy", turns=[bash(f"rm -rf {victim}"), say("ok")])
    assert run.returncode == 0, run.describe()
    blocked = victim.is_dir()
    assert blocked == ("GUARD-E2E" in "".join(run.tool_result_texts())), run.describe()
    return blocked


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_an_event_the_client_does_not_know_is_held_back_and_the_file_still_loads(
    e2e: E2EProject,
) -> None:
    e2e.write_hook("guard", GUARD_WITH_DIRECTORY_ADDED)

    done = e2e.hookman("install", "hooks/guard.py", "--json")

    report = json.loads(done.stdout)
    written = set(e2e.settings()["hooks"])
    newest = version_key(e2e.version) >= version_key(SKILL_SHELL_SINCE)
    skill_shell = {"PreSkillShellCommand"} if newest else set()  # the guard's: test_skill_shell
    if version_key(e2e.version) < version_key(DIRECTORY_ADDED_SINCE):
        assert "DirectoryAdded" in report["held_back"]
        assert written == {"PreToolUse", "UserPromptSubmit"}  # and the prompt gate
    else:
        assert "DirectoryAdded" not in report["held_back"]
        assert written == {"PreToolUse", "DirectoryAdded", "UserPromptSubmit"} | skill_shell
    assert guard_blocks(e2e)


def test_hookman_entries_survive_a_client_rewrite_and_reinstall_keeps_the_clients_changes(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    installed = e2e.settings()

    # The client rewrites settings.local.json itself (and drops keys it does not know).
    e2e.claude_cli("plugin", "init", "e2edemo")
    e2e.claude_cli("plugin", "disable", "e2edemo@skills-dir", "--scope", "local")
    rewritten = e2e.settings()
    assert rewritten["enabledPlugins"] == {"e2edemo@skills-dir": False}
    assert rewritten["hooks"] == installed["hooks"]

    e2e.hookman("install")

    assert e2e.settings() == rewritten
    assert guard_blocks(e2e)


def test_a_hand_broken_pre_tool_use_entry_next_to_hookmans_silences_the_guard(
    e2e: E2EProject,
) -> None:
    # The fact doctor reports: 2.1.328 applies nothing from a file with an invalid
    # PreToolUse entry, 2.1.197 drops the whole file; hookman itself never writes one.
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    settings = e2e.settings()
    for group in settings["hooks"]["PreToolUse"]:
        for entry in group["hooks"]:
            assert entry["type"] == "command" and isinstance(entry["command"], str)
    broken = {"matcher": "Bash", "hooks": [{"type": "e2e-unknown-type", "command": "true"}]}
    settings["hooks"]["PreToolUse"].append(broken)
    e2e.write_settings(settings)

    assert not guard_blocks(e2e)


def test_a_hand_broken_pre_skill_shell_command_entry_silences_the_file_from_2_1_332(
    e2e: E2EProject,
) -> None:
    # 2.1.332 treats PreSkillShellCommand like PreToolUse: one invalid entry under it and
    # nothing of the file applies. Older clients drop the unknown event name and go on.
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    settings = e2e.settings()
    broken = {"matcher": "Bash", "hooks": [{"type": "e2e-unknown-type", "command": "true"}]}
    settings["hooks"].setdefault("PreSkillShellCommand", []).append(broken)
    e2e.write_settings(settings)

    silenced = version_key(e2e.version) >= version_key(SKILL_SHELL_SINCE)
    assert guard_blocks(e2e) is not silenced
