"""The installed command of a Codex CLI entry (`... EVENT --agent codex`): the runner answers
with only the fields Codex honours, and the launcher's fail-closed answers hold."""

from __future__ import annotations

import json
from typing import Any

from hookman.bridge.codex_answer import ASK_REASON
from hookman.catalog.codex_catalog import answer_fields
from hookman.project.settings_entries import build_command

from .conftest import RunnerProject
from .test_run_command import GUARD

ASK = """
def hook(pi):
    pi.on("PreToolUse", lambda event, ctx: {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                               "permissionDecisionReason": "sure?"},
        "suppressOutput": True, "systemMessage": "asked"})
"""


def _codex_deny(project: RunnerProject, payload: dict[str, Any]) -> str:
    """The reason of the installed Codex command's deny: for Codex a deny never trusts stdout
    (a BASH_ENV may have printed there and unset itself), so it is exit 2 with the reason
    alone on stderr, which Codex reads as a deny (docs/agents.md)."""
    done = project.run_installed("PreToolUse", payload, agent="codex")
    assert done.returncode == 2 and done.stdout == b"", done
    return done.stderr.decode("utf-8").rstrip("\n")


def test_a_guard_deny_is_a_codex_deny_and_is_logged_for_codex(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})
    assert _codex_deny(runner_project, payload) == "rm -rf is not allowed here"
    (record,) = runner_project.log_records()
    assert record["agent"] == "codex" and record["outcome"] == "denied"


def test_an_ask_becomes_a_plain_deny(runner_project: RunnerProject) -> None:
    runner_project.add_hook("ask", ASK, ["PreToolUse"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    assert _codex_deny(runner_project, payload) == f"{ASK_REASON}: sure?"


def test_an_allowed_call_is_an_empty_answer(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    assert runner_project.answer_installed("PreToolUse", payload, agent="codex") == {}


def test_the_claude_code_command_carries_no_agent_words(runner_project: RunnerProject) -> None:
    launcher = runner_project.launcher_path
    claude = build_command("PreToolUse", launcher, guarded=True)
    codex = build_command("PreToolUse", launcher, guarded=True, agent="codex")
    assert "--agent" not in claude
    assert codex == claude.replace(" PreToolUse && false", " PreToolUse --agent codex && false")


def test_a_deleted_launcher_still_denies_for_codex(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.launcher_path.unlink()
    payload = runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    done = runner_project.run_installed("PreToolUse", payload, agent="codex")
    assert done.returncode == 2  # Codex blocks on exit 2 (measured: tests/e2e/test_codex.py)
    assert b"hookman" in done.stderr and done.stdout == b""


def test_context_on_session_start_is_passed_on_alone(runner_project: RunnerProject) -> None:
    source = """
def hook(pi):
    pi.on("SessionStart", lambda event, ctx: {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "notes"},
        "systemMessage": "for the user"})
"""
    runner_project.add_hook("ctx", source, ["SessionStart"], ["SessionStart"])
    assert (
        runner_project.answer_installed(
            "SessionStart", runner_project.payload("SessionStart"), agent="codex"
        )
        == {}
    )  # without the manifest's "codex" section only a PreToolUse deny is certain
    manifest = json.loads(runner_project.manifest_path.read_text())
    manifest["codex"] = {"version": "0.171.0", "events": [], "answers": answer_fields()}
    runner_project.manifest_path.write_text(json.dumps(manifest))
    answer = runner_project.answer_installed(
        "SessionStart", runner_project.payload("SessionStart"), agent="codex"
    )
    assert json.dumps(answer) == json.dumps(
        {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "notes"}}
    )
