"""Inline shell commands of slash commands and skills (!`cmd`): PreToolUse never sees them.
From 2.1.332 the client fires PreSkillShellCommand first, and a hookman `tool_call` guard on
Bash, installed by `hookman install`, blocks them there; older clients run them unguarded,
and `hookman install` / `hookman list` say so."""

from __future__ import annotations

import json

import pytest

from .harness import E2EProject
from .mock_anthropic import ToolUse, say

pytestmark = pytest.mark.e2e

SKILL_SHELL_SINCE = "2.1.332"  # claude_code_events.json
GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        where = event["source"], event.get("command_name"), event.get("invoked_by")
        return {"block": True, "reason": "GUARD-E2E: rm -rf is not allowed here (%s %s %s)" % where}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""
CLEAN_COMMAND = """
---
description: clean up the victim directory
---
Result: !`rm -rf victim && touch RAN && echo CLEANED`
"""
HELLO_COMMAND = """
---
description: a harmless inline command
---
Result: !`echo HELLO-$((40+2))`
"""
CLEAN_SKILL = """
---
name: wipe
description: wipe the victim directory
---
Result: !`rm -rf victim && touch RAN && echo CLEANED`
"""
HELD_BACK_WARNING = (
    "PreSkillShellCommand is held back (it needs Claude Code >= 2.1.332), so tool_call guards "
    "do not see the inline shell commands (!`cmd`) of skills and slash commands, which run "
    "unguarded on that client; upgrade Claude Code and run `hookman install` again to guard "
    "them."
)


def knows_skill_shell(version: str) -> bool:
    return tuple(map(int, version.split("."))) >= tuple(map(int, SKILL_SHELL_SINCE.split(".")))


def install_guard(e2e: E2EProject) -> dict:
    """Install the guard for the client on PATH (its `claude --version`); the JSON report."""
    e2e.write_hook("guard", GUARD)
    return json.loads(e2e.hookman("install", "hooks/guard.py", "--json").stdout)


def test_a_bash_guard_blocks_a_slash_commands_inline_rm_rf_where_the_client_allows(
    e2e: E2EProject,
) -> None:
    report = install_guard(e2e)
    e2e.write(".claude/commands/clean.md", CLEAN_COMMAND)
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("/clean", turns=[say("ok")])

    assert run.returncode == 0, run.describe()
    assert report["claude_version"] == e2e.version
    if knows_skill_shell(e2e.version):
        assert report["written"]["PreSkillShellCommand"] == {"matcher": "Bash", "timeout": 30}
        assert victim.is_dir() and not (e2e.root / "RAN").exists()
        assert run.model_saw(
            "Result: [not run: blocked by hook: GUARD-E2E: rm -rf is not allowed here "
            "(skill_shell clean user)]"
        ), run.describe()
        assert not run.model_saw("CLEANED")
    else:
        # PreToolUse never fires for it, and the client has no PreSkillShellCommand: the
        # command runs, and hookman said so when it installed the guard.
        assert report["held_back"] == {"PreSkillShellCommand": {"since": SKILL_SHELL_SINCE}}
        assert HELD_BACK_WARNING in report["warnings"]
        assert not victim.exists() and (e2e.root / "RAN").exists()
        assert run.model_saw("Result: CLEANED"), run.describe()
        listed = json.loads(e2e.hookman("list", "--json").stdout)
        assert listed["warnings"] == [HELD_BACK_WARNING]
        assert HELD_BACK_WARNING in " ".join(e2e.hookman("list").stdout.split())
    assert not run.model_saw("PreToolUse:Bash")


def test_a_harmless_inline_command_still_runs_under_the_guard(e2e: E2EProject) -> None:
    install_guard(e2e)
    e2e.write(".claude/commands/hello.md", HELLO_COMMAND)

    run = e2e.run_claude("/hello", turns=[say("ok")])

    assert run.returncode == 0, run.describe()
    assert run.model_saw("Result: HELLO-42"), run.describe()


def test_a_skill_the_model_invokes_cannot_run_rm_rf_past_the_guard_where_the_client_allows(
    e2e: E2EProject,
) -> None:
    install_guard(e2e)
    e2e.write(".claude/skills/wipe/SKILL.md", CLEAN_SKILL)
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("wipe it", turns=[[ToolUse("Skill", {"skill": "wipe"})], say("ok")])

    assert run.returncode == 0, run.describe()
    if knows_skill_shell(e2e.version):
        assert victim.is_dir() and not (e2e.root / "RAN").exists()
        assert run.model_saw(
            "Result: [not run: blocked by hook: GUARD-E2E: rm -rf is not allowed here "
            "(skill_shell wipe claude)]"
        ), run.describe()
    else:  # the model itself can run an inline rm -rf that no hook sees
        assert not victim.exists() and (e2e.root / "RAN").exists(), run.describe()
        assert run.model_saw("Result: CLEANED"), run.describe()
