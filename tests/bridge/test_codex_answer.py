"""The runner's answer in Codex CLI's protocol: only the fields Codex honours, a deny stays a
deny (Codex ignores an answer holding anything else, and then runs the command)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.codex_answer import ASK_REASON, CHANGED_REASON, codex_answer
from hookman.catalog.codex_catalog import answer_fields

FIELDS = answer_fields()
DENY_KEYS = {"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
specific = st.fixed_dictionaries(
    {},
    optional={
        "hookEventName": st.sampled_from(["PreToolUse", "Stop", "x"]) | json_values,
        "permissionDecision": st.sampled_from(["allow", "deny", "ask", "defer"]) | json_values,
        "permissionDecisionReason": st.text(max_size=10) | json_values,
        "updatedInput": json_values,
        "additionalContext": st.text(max_size=10) | json_values,
        "updatedToolOutput": json_values,
    },
)
answers = st.fixed_dictionaries(
    {},
    optional={
        "hookSpecificOutput": specific | json_values,
        "continue": st.booleans() | json_values,
        "stopReason": st.text(max_size=8),
        "suppressOutput": st.booleans(),
        "systemMessage": st.text(max_size=8),
        "decision": st.sampled_from(["block", "approve"]) | json_values,
        "reason": st.text(max_size=8) | json_values,
    },
).flatmap(
    lambda known: st.dictionaries(st.text(max_size=6), json_values, max_size=2).map(
        lambda extra: {**extra, **known}
    )
)
events = st.sampled_from(
    [
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionStart",
        "UserPromptSubmit",
        "SessionEnd",
        "PreCompact",
        "Notification",
    ]
)


def is_deny(answer: dict[str, Any]) -> bool:
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    return specific.get("permissionDecision") == "deny"


def stops(answer: dict[str, Any]) -> bool:
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    return (
        specific.get("permissionDecision") in ("deny", "ask")
        or "updatedInput" in specific
        or answer.get("continue") is False
        or answer.get("decision") == "block"
    )


@given(events, answers)
def test_the_answer_holds_only_fields_codex_honours(event: str, answer: dict[str, Any]) -> None:
    result = codex_answer(event, answer, FIELDS)
    line = json.dumps(result, ensure_ascii=False)
    assert "\n" not in line and json.loads(line) == result  # one JSON line
    if not result:
        return
    allowed = FIELDS.get(event, {"top": [], "specific": []})
    assert set(result) <= set(allowed["top"]) | {"hookSpecificOutput"}
    specific = result.get("hookSpecificOutput")
    if specific is not None:
        assert set(specific) <= set(allowed["specific"]) and specific["hookEventName"] == event
        assert all(isinstance(value, str) for value in specific.values())
    if "reason" in result:
        assert isinstance(result["reason"], str) and result["decision"] == "block"


@given(answers)
def test_on_pre_tool_use_a_wish_to_stop_is_a_deny_and_nothing_else_is(
    answer: dict[str, Any],
) -> None:
    result = codex_answer("PreToolUse", answer, FIELDS)
    if stops(answer):
        assert is_deny(result)
        specific = result["hookSpecificOutput"]
        assert set(specific) <= DENY_KEYS
        assert isinstance(specific["permissionDecisionReason"], str)
        assert specific["permissionDecisionReason"]
    else:
        assert result == {}


@given(answers)
def test_without_the_manifest_facts_a_deny_is_still_a_deny(answer: dict[str, Any]) -> None:
    result = codex_answer("PreToolUse", answer, None)
    assert is_deny(result) == stops(answer)
    if result:
        assert set(result["hookSpecificOutput"]) == DENY_KEYS - {"additionalContext"}


def test_a_deny_keeps_its_reason_and_its_context() -> None:
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm -rf",
            "additionalContext": "see the policy",
        },
        "suppressOutput": True,
        "systemMessage": "for the user",
    }
    assert codex_answer("PreToolUse", answer, FIELDS) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm -rf",
            "additionalContext": "see the policy",
        }
    }


def test_an_ask_and_a_changed_input_become_denies_that_say_why() -> None:
    ask = {"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "sure?"}}
    changed = {
        "hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls"}}
    }
    reason = codex_answer("PreToolUse", ask, FIELDS)["hookSpecificOutput"][
        "permissionDecisionReason"
    ]
    assert reason == f"{ASK_REASON}: sure?"
    changed_answer = codex_answer("PreToolUse", changed, FIELDS)["hookSpecificOutput"]
    assert changed_answer["permissionDecisionReason"] == CHANGED_REASON


def test_an_allow_with_context_on_pre_tool_use_is_nothing() -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "hi"}}
    assert codex_answer("PreToolUse", answer, FIELDS) == {}


def test_context_and_stop_blocks_pass_on_other_events() -> None:
    context = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"},
        "systemMessage": "dropped",
    }
    assert codex_answer("SessionStart", context, FIELDS) == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}
    }
    stop = {"decision": "block", "reason": "one more thing", "suppressOutput": True}
    assert codex_answer("Stop", stop, FIELDS) == {"decision": "block", "reason": "one more thing"}
    assert codex_answer("SessionEnd", {"systemMessage": "x"}, FIELDS) == {}
