"""The installed command run by Copilot CLI (a Claude Code entry, COPILOT_CLI in its
environment), Qwen Code and droid (`... EVENT --agent qwen|droid`), with the payloads the real
binaries sent: the guard sees Claude Code's tool names and denies, in the agent's protocol;
the deadline denies before the timeout of the agent's own entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman.bridge.entry_timeout import deadlines_within

from .conftest import RunnerProject

PAYLOADS = Path(__file__).resolve().parents[2] / "hookman" / "catalog" / "agent_payloads"
RM_RF = "mkdir -p build && rm -rf build && echo RAN > ran.txt"
# The bash guard's way (templates/bash_guard.py): only Bash calls reach it.
GUARD = """
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "rm -rf is not allowed here"}
    pi.on("tool_call", check, tools=["Bash"])
"""
TOOLS = {"tool_call": ["Bash"]}
HUNG = """
import time
def hook(pi):
    def check(event, ctx):
        time.sleep(60)
    pi.on("tool_call", check, tools=["Bash"])
"""
COPILOT_ENV = {"COPILOT_CLI": "1", "COPILOT_CLI_BINARY_VERSION": "1.0.102"}


def _payload(agent: str, project: RunnerProject, command: str = RM_RF) -> dict[str, Any]:
    (path,) = PAYLOADS.glob(f"{agent}-*-PreToolUse.json")
    payload = json.loads(path.read_text(encoding="utf-8"))
    payload["cwd"] = str(project.root)
    payload["tool_input"]["command"] = command
    return payload


def _run(project: RunnerProject, agent: str, payload: dict[str, Any]) -> dict[str, Any]:
    if agent == "copilot":  # a Claude Code entry, Copilot known from its environment
        return project.answer_installed("PreToolUse", payload, env=COPILOT_ENV)
    return project.answer_installed("PreToolUse", payload, agent=agent)


@pytest.mark.parametrize("agent", ["qwen", "droid", "copilot"])
def test_the_guard_denies_rm_rf_sent_under_the_agent_s_tool_name(
    runner_project: RunnerProject, agent: str
) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], TOOLS)
    answer = _run(runner_project, agent, _payload(agent, runner_project))
    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == "rm -rf is not allowed here"
    if agent == "copilot":  # honoured at the top level too; nothing it fails open on
        assert answer["permissionDecision"] == "deny"
        assert answer["permissionDecisionReason"] == "rm -rf is not allowed here"
    elif agent == "qwen":  # a later hook's allow cannot replace a continue: false there
        assert answer["continue"] is False
        assert answer["stopReason"] == "rm -rf is not allowed here"
    else:
        assert set(answer) == {"hookSpecificOutput"}
    (record,) = runner_project.log_records()
    assert record["agent"] == agent and record["outcome"] == "denied"


@pytest.mark.parametrize("agent", ["qwen", "droid", "copilot"])
def test_ls_runs(runner_project: RunnerProject, agent: str) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], TOOLS)
    assert _run(runner_project, agent, _payload(agent, runner_project, "ls")) == {}


def test_without_the_agent_flag_qwen_s_shell_call_passes_a_bash_guard(
    runner_project: RunnerProject,
) -> None:
    """What the flag is for: hookman's entry copied into .qwen/settings.json as it is let
    `rm -rf` run (measured): the guard never saw a Bash call."""
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], TOOLS)
    payload = _payload("qwen", runner_project)
    assert runner_project.answer_installed("PreToolUse", payload) == {}


def test_copilot_context_reaches_the_top_level(runner_project: RunnerProject) -> None:
    source = """
def hook(pi):
    pi.on("SessionStart", lambda event, ctx: {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "notes"},
        "systemMessage": "for the user"})
"""
    runner_project.add_hook("ctx", source, ["SessionStart"], ["SessionStart"])
    payload = runner_project.payload("SessionStart")
    answer = runner_project.answer_installed("SessionStart", payload, env=COPILOT_ENV)
    assert answer == {"additionalContext": "notes"}


def test_claude_code_s_answer_is_unchanged_without_copilot(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], TOOLS)
    payload = runner_project.payload("PreToolUse", tool_input={"command": RM_RF})
    answer = runner_project.answer_installed("PreToolUse", payload)
    assert set(answer) == {"hookSpecificOutput"}
    (record,) = runner_project.log_records()
    assert "agent" not in record


def _entries(project: RunnerProject, agent: str, timeout: int) -> None:
    """The agent's own file with hookman's entry at `timeout` seconds, in its shape."""
    groups = [
        {
            "matcher": "Bash",
            "hooks": [
                {
                    "type": "command",
                    "command": project.command("PreToolUse", agent=agent),
                    "timeout": timeout,
                }
            ],
        }
    ]
    if agent == "droid":
        path, data = project.root / ".factory" / "hooks.json", {"PreToolUse": groups}
    else:
        path, data = project.root / ".qwen" / "settings.json", {"hooks": {"PreToolUse": groups}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_a_hung_guard_is_denied_before_the_agent_s_own_entry_timeout(
    runner_project: RunnerProject, agent: str
) -> None:
    """qwen and droid let the call run when a hook times out: the runner's deadline comes
    from the timeout in the agent's own file (droid: events at the top level)."""
    runner_project.add_hook("slow", HUNG, ["tool_call"], ["PreToolUse"], TOOLS)
    _entries(runner_project, agent, 3)
    answer = runner_project.answer_installed(
        "PreToolUse", _payload(agent, runner_project, "ls"), agent=agent
    )
    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    deadline = deadlines_within(3)[0]
    assert f"deadline of {deadline:g} s" in specific["permissionDecisionReason"]
    stops = {"continue", "stopReason"} if agent == "qwen" else set()  # the deadline's deny too
    assert set(answer) == {"hookSpecificOutput", *stops}


def test_copilot_s_deadline_deny_is_heard_at_the_top_level(runner_project: RunnerProject) -> None:
    runner_project.add_hook("slow", HUNG, ["tool_call"], ["PreToolUse"], TOOLS)
    runner_project.entries["PreToolUse"].update({"timeout": 3, "deadline": 2.0})
    runner_project.write_manifest()
    answer = runner_project.answer_installed(
        "PreToolUse", _payload("copilot", runner_project, "ls"), env=COPILOT_ENV
    )
    assert answer["permissionDecision"] == "deny"
    assert "deadline of 2 s" in answer["permissionDecisionReason"]
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_a_deleted_launcher_still_denies(runner_project: RunnerProject, agent: str) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], TOOLS)
    runner_project.launcher_path.unlink()
    done = runner_project.run_installed(
        "PreToolUse", _payload(agent, runner_project, "ls"), agent=agent
    )
    assert done.returncode == 2 and b"hookman" in done.stderr  # exit 2: a deny in both


def test_copilot_naming_another_project_is_denied_as_under_claude_code(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    """Copilot sets CLAUDE_PROJECT_DIR as Claude Code does: a run for another project than
    the manifest's never runs this project's guards in silence (bridge/project_moved.py)."""
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], TOOLS)
    other = tmp_path / "other"
    other.mkdir()
    env = {**COPILOT_ENV, "CLAUDE_PROJECT_DIR": str(other)}
    payload = _payload("copilot", runner_project, "ls")
    answer = runner_project.answer_installed("PreToolUse", payload, env=env)
    assert answer["permissionDecision"] == "deny"
    assert str(other) in answer["permissionDecisionReason"]
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
