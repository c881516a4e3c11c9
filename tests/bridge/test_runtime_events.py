from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman.bridge.runtime_events import runtime_steps, tool_call_payload_problem

SAMPLES = Path(__file__).resolve().parents[2] / "hookman" / "catalog" / "payloads"


def _plan(event: str, payload: dict) -> list[tuple[str, str]]:
    return [(step.kind, step.event["type"]) for step in runtime_steps(event, payload)]


def test_tool_call_event_from_pre_tool_use() -> None:
    (step,) = runtime_steps(
        "PreToolUse", {"tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": "ls"}}
    )
    assert step.event == {
        "type": "tool_call",
        "tool_name": "Bash",
        "tool_call_id": "t",
        "input": {"command": "ls"},
        "source": "tool",
    }


def test_a_skill_shell_command_is_a_tool_call_that_says_where_it_came_from() -> None:
    payload = json.loads((SAMPLES / "PreSkillShellCommand.json").read_text(encoding="utf-8"))

    (step,) = runtime_steps("PreSkillShellCommand", payload)

    assert step.kind == "tool_call"
    assert step.event == {
        "type": "tool_call",
        "tool_name": "Bash",
        "tool_call_id": payload["tool_use_id"],
        "input": {"command": "rm -rf victim && touch SKILL-SHELL-RAN.txt && echo CLEANED"},
        "source": "skill_shell",
        "command_name": "clean",
        "command_source": "projectSettings",
        "invoked_by": "user",
    }


def test_a_skill_shell_payload_missing_its_fields_still_becomes_a_tool_call() -> None:
    (step,) = runtime_steps("PreSkillShellCommand", {"tool_name": "Bash", "command_name": 3})

    assert step.kind == "tool_call"
    assert step.event["input"] == {} and step.event["source"] == "skill_shell"
    assert step.event["command_name"] is None and step.event["invoked_by"] is None


def test_tool_result_events() -> None:
    (ok,) = runtime_steps("PostToolUse", {"tool_name": "Bash", "tool_response": "x"})
    (failed,) = runtime_steps("PostToolUseFailure", {"tool_name": "Bash", "error": "boom"})

    assert ok.kind == "tool_result" and ok.event["is_error"] is False
    assert ok.event["content"] == [{"type": "text", "text": "x"}] and ok.event["details"] == "x"
    assert failed.kind == "tool_result_ignored" and failed.event["is_error"] is True
    assert failed.event["content"] == [{"type": "text", "text": "boom"}]
    assert failed.event["details"] is None


def test_prompt_submit_starts_the_agent_first() -> None:
    assert _plan("UserPromptSubmit", {"prompt": "hi"}) == [
        ("emit", "agent_start"),
        ("before_agent_start", "before_agent_start"),
    ]


def test_stop_is_agent_end_only_for_the_main_agent() -> None:
    assert _plan("Stop", {}) == [("emit", "agent_end")]
    assert _plan("Stop", {"agent_id": "a1"}) == []


def test_compaction_events_by_trigger() -> None:
    assert _plan("PreCompact", {"trigger": "manual"}) == [("cancellable", "session_before_compact")]
    assert _plan("PreCompact", {"trigger": "auto"}) == [
        ("emit", "auto_compaction_start"),
        ("cancellable", "session_before_compact"),
    ]
    assert _plan("PostCompact", {"trigger": "auto"}) == [
        ("emit", "session_compact"),
        ("emit", "auto_compaction_end"),
    ]


def test_session_events_and_unmapped_events() -> None:
    assert _plan("SessionStart", {}) == [("emit", "session_start")]
    assert _plan("SessionEnd", {}) == [("emit", "session_shutdown")]
    assert _plan("Notification", {}) == []


def test_every_sample_tool_call_payload_is_usable() -> None:
    for event in ("PreToolUse", "PreSkillShellCommand"):
        payload = json.loads((SAMPLES / f"{event}.json").read_text(encoding="utf-8"))
        assert tool_call_payload_problem(event, payload) is None


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"tool_input": "ls"}, "has no tool input object (tool_input is 'ls')"),
        ({"tool_input": None}, "has no tool input object (tool_input is missing)"),
        ({"tool_name": 3}, "has no tool name (tool_name is 3)"),
        ({"tool_input": {"command": 1}}, "has no 'command' text in the Bash tool's input"),
        ({"hook_event_name": "Stop"}, "says it is a 'Stop' event, not PreToolUse"),
        ({"tool_use_id": ["x"]}, "has a tool_use_id that is not text (['x'])"),
    ],
)
def test_a_tool_call_payload_the_client_never_sends_is_named(change: dict, problem: str) -> None:
    payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}, **change}

    assert tool_call_payload_problem("PreToolUse", payload) == problem


def test_other_tools_need_only_an_input_object() -> None:
    assert tool_call_payload_problem("PreToolUse", {"tool_name": "Edit", "tool_input": {}}) is None
