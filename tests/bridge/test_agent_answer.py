"""The runner's answer to Copilot, Qwen Code and droid (bridge/agent_answer.py): only the
fields each honours, where its model reads them; every wish to stop a tool call is a deny
the agent hears, never a shape it fails open on (catalog <agent>_events.json, measured)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.agent_answer import (
    ASK_REASON,
    CHANGED_REASON,
    DEFAULT_REASON,
    STOP_REASON,
    STOPPED_REASON,
    agent_answer,
)
from hookman.bridge.agent_facts import OTHER_AGENTS, answer_fields, deny_also_stops

REASON = "Blocked by the bash guard: rm -rf deletes without asking."


def _deny(reason: str = REASON, **more: Any) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
            **more,
        }
    }


def _exact(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True)


# Exactly what each agent gets for a guard's deny (a one-line mutation changes one of these).
DENIES = {
    "copilot": {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": REASON,
        },
        "permissionDecision": "deny",
        "permissionDecisionReason": REASON,
    },
    # Qwen Code keeps any hook's continue: false but lets a later hook's permissionDecision
    # replace hookman's deny (catalog/agent_hook_merge.json, measured)
    "qwen": {**_deny(), "continue": False, "stopReason": REASON},
    "droid": _deny(),
}


@pytest.mark.parametrize("agent", OTHER_AGENTS)
def test_a_guard_s_deny_is_the_deny_the_agent_hears(agent: str) -> None:
    claude = {**_deny(), "systemMessage": "for the user", "suppressOutput": True}
    assert _exact(agent_answer(agent, "PreToolUse", claude)) == _exact(DENIES[agent])


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_qwen_and_droid_never_get_the_top_level_deny_they_ignore(agent: str) -> None:
    answer = agent_answer(agent, "PreToolUse", _deny())
    assert set(answer) == {"hookSpecificOutput", *_stop_keys(agent)}


def _stop_keys(agent: str) -> set[str]:
    """What a deny adds for an agent that keeps any hook's continue: false (Qwen Code)."""
    return {"continue", "stopReason"} if deny_also_stops(agent) else set()


def test_only_qwen_s_deny_also_stops_the_call() -> None:
    """Qwen Code lets a later hook's permissionDecision replace hookman's deny but keeps any
    hook's continue: false (measured: tests/e2e/test_agent_merge.py); droid's continue:
    false is read as stopping the session, Copilot's merge is not read."""
    assert [agent for agent in OTHER_AGENTS if deny_also_stops(agent)] == ["qwen"]
    answer = agent_answer("qwen", "PreToolUse", _deny())
    assert answer["continue"] is False and answer["stopReason"] == REASON
    assert "continue" not in agent_answer("qwen", "PreToolUse", {})


@pytest.mark.parametrize("agent", OTHER_AGENTS)
@pytest.mark.parametrize(
    ("claude", "reason"),
    [
        (
            {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}},
            "ask",
        ),
        (
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "ask",
                    "permissionDecisionReason": "sure?",
                }
            },
            "ask: sure?",
        ),
        (
            {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"c": 1}}},
            "changed",
        ),
        ({"continue": False}, STOPPED_REASON),
        ({"continue": False, "stopReason": "enough"}, f"{STOPPED_REASON}: enough"),
        ({"decision": "block", "reason": "no"}, "no"),
        ({"decision": "block"}, DEFAULT_REASON),
        (_deny(""), DEFAULT_REASON),
        (_deny("  "), DEFAULT_REASON),
        (
            {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}},
            f"{DEFAULT_REASON}: a hook answered the decision 'defer'",
        ),
    ],
)
def test_every_wish_to_stop_the_call_is_a_deny(
    agent: str, claude: dict[str, Any], reason: str
) -> None:
    name = {"copilot": "GitHub Copilot CLI", "qwen": "Qwen Code", "droid": "Factory droid"}[agent]
    expected = {
        "ask": ASK_REASON.format(agent=name),
        "ask: sure?": ASK_REASON.format(agent=name) + ": sure?",
        "changed": CHANGED_REASON.format(agent=name),
    }.get(reason, reason)
    answer = agent_answer(agent, "PreToolUse", claude)
    specific = answer["hookSpecificOutput"]
    assert specific == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": expected,
    }
    if agent == "copilot":
        assert answer["permissionDecision"] == "deny"
        assert answer["permissionDecisionReason"] == expected
    assert "decision" not in answer  # Copilot and droid let the tool run on it


@pytest.mark.parametrize("agent", OTHER_AGENTS)
@pytest.mark.parametrize(
    "claude",
    [
        {},
        {"systemMessage": "hi"},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}},
        {"suppressOutput": True},
    ],
)
def test_an_allowed_call_is_an_empty_answer(agent: str, claude: dict[str, Any]) -> None:
    assert agent_answer(agent, "PreToolUse", claude) == {}


def test_copilot_reads_context_only_at_the_top_level() -> None:
    for event in ("SessionStart", "UserPromptSubmit", "PostToolUse"):
        claude = {
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": "notes"},
            "systemMessage": "x",
        }
        assert agent_answer("copilot", event, claude) == {"additionalContext": "notes"}


def test_copilot_s_deny_carries_context_at_the_top_level() -> None:
    answer = agent_answer("copilot", "PreToolUse", _deny(additionalContext="why"))
    assert answer["additionalContext"] == "why"
    assert "additionalContext" not in answer["hookSpecificOutput"]


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_qwen_and_droid_read_context_in_hook_specific_output(agent: str) -> None:
    claude = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "n"}}
    assert agent_answer(agent, "SessionStart", claude) == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "n"}
    }
    allowed = agent_answer(agent, "PreToolUse", _deny(additionalContext="c"))
    assert allowed["hookSpecificOutput"]["additionalContext"] == "c"


@pytest.mark.parametrize("agent", OTHER_AGENTS)
def test_a_stop_block_is_passed_on_with_its_reason(agent: str) -> None:
    assert agent_answer(agent, "Stop", {"decision": "block", "reason": "tests fail"}) == {
        "decision": "block",
        "reason": "tests fail",
    }
    assert agent_answer(agent, "Stop", {"decision": "block"})["reason"] == STOP_REASON
    assert agent_answer(agent, "Stop", {"systemMessage": "x"}) == {}


@pytest.mark.parametrize("agent", OTHER_AGENTS)
def test_an_event_without_honoured_fields_gets_nothing(agent: str) -> None:
    claude = {"systemMessage": "x", "hookSpecificOutput": {"additionalContext": "y"}}
    assert agent_answer(agent, "Notification", claude) == {}


def test_an_agent_without_facts_gets_claude_code_s_answer() -> None:
    assert agent_answer("gemini", "PreToolUse", _deny()) == _deny()


_text = st.text(max_size=10)
_specific = st.fixed_dictionaries(
    {},
    optional={
        "hookEventName": st.just("PreToolUse"),
        "permissionDecision": st.one_of(st.sampled_from(["allow", "deny", "ask", "defer"]), _text),
        "permissionDecisionReason": st.one_of(_text, st.integers(), st.none()),
        "additionalContext": st.one_of(_text, st.integers()),
        "updatedInput": st.dictionaries(_text, _text, max_size=2),
    },
)
_claude_answers = st.fixed_dictionaries(
    {},
    optional={
        "hookSpecificOutput": _specific,
        "continue": st.booleans(),
        "stopReason": _text,
        "decision": st.one_of(st.just("block"), _text),
        "reason": _text,
        "systemMessage": _text,
        "suppressOutput": st.booleans(),
    },
)


def _stops(claude: dict[str, Any]) -> bool:
    specific = claude.get("hookSpecificOutput") or {}
    return (
        specific.get("permissionDecision") not in (None, "allow")
        or "updatedInput" in specific
        or claude.get("continue") is False
        or claude.get("decision") == "block"
    )


@given(agent=st.sampled_from(OTHER_AGENTS), claude=_claude_answers)
def test_pre_tool_use_answers_deny_exactly_when_claude_code_s_would_stop(
    agent: str, claude: dict[str, Any]
) -> None:
    answer = agent_answer(agent, "PreToolUse", claude)
    specific = answer.get("hookSpecificOutput", {})
    denied = specific.get("permissionDecision") == "deny"
    assert denied == _stops(claude)
    if denied:
        assert isinstance(specific["permissionDecisionReason"], str)
        assert specific["permissionDecisionReason"].strip()
    allowed = answer_fields(agent)["PreToolUse"]
    stops = _stop_keys(agent) if denied else set()
    assert set(answer) <= {"hookSpecificOutput", *allowed["top"], *stops}
    assert set(specific) <= set(allowed["specific"])
    assert "decision" not in answer
    assert answer.get("continue") is (False if stops else None)
    assert answer.get("stopReason") == (specific["permissionDecisionReason"] if stops else None)


@given(
    agent=st.sampled_from(OTHER_AGENTS),
    event=st.sampled_from(["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "Setup"]),
    claude=_claude_answers,
)
def test_other_events_keep_only_honoured_fields(
    agent: str, event: str, claude: dict[str, Any]
) -> None:
    answer = agent_answer(agent, event, claude)
    allowed = answer_fields(agent).get(event, {"top": [], "specific": []})
    assert set(answer) <= {"hookSpecificOutput", *allowed["top"]}
    assert set(answer.get("hookSpecificOutput", {})) <= set(allowed["specific"])
