from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.bridge.answer import AnswerBuilder
from hookman.bridge.output_schema import output_schema
from hookman.catalog.event_catalog import claude_code_catalog, claude_events

from .attack_support import schema_problem


def test_every_events_output_field_has_a_type() -> None:
    schema = output_schema()
    for event in claude_events():
        for name in claude_code_catalog()["events"][event]["hook_specific_output"]:
            assert name in schema.specific_types, (event, name)
    assert set(schema.top_level) == set(claude_code_catalog()["top_level_output_fields"])


def test_fields_that_fit_are_kept_and_the_rest_named() -> None:
    result = {
        "suppressOutput": "yes",
        "async": True,
        "continue": True,
        "decision": "allow",
        "hookSpecificOutput": {
            "hookEventName": "Stop",
            "updatedInput": "ls",
            "permissionDecision": "ask",
            "sessionTitle": "t",
        },
    }

    kept, misfits = output_schema().fit(result, "PreToolUse")

    assert kept == {"continue": True, "hookSpecificOutput": {"permissionDecision": "ask"}}
    assert [str(misfit) for misfit in misfits] == [
        "suppressOutput: a string, not true or false",
        "async: not a field Claude Code reads on PreToolUse",
        "decision: \"allow\" is not one of 'approve', 'block'",
        "hookSpecificOutput.updatedInput: a string, not an object",
        "hookSpecificOutput.sessionTitle: not a field Claude Code reads on PreToolUse",
    ]
    assert [misfit.field for misfit in misfits if misfit.decides] == [
        "decision",
        "hookSpecificOutput.updatedInput",
    ]


def test_an_event_may_narrow_a_fields_type() -> None:
    _, misfits = output_schema().fit(
        {"hookSpecificOutput": {"permissionDecision": "defer"}}, "PreModelSwitch"
    )
    assert [misfit.field for misfit in misfits] == ["hookSpecificOutput.permissionDecision"]


def test_a_builder_notes_what_it_left_out() -> None:
    answer = AnswerBuilder("PreToolUse")
    misfits = answer.merge_raw_result({"terminalSequence": 7, "suppressOutput": True}, "other")

    assert [(misfit.field, misfit.decides) for misfit in misfits] == [("terminalSequence", False)]
    assert answer.to_json() == {
        "suppressOutput": True,
        "systemMessage": "hookman: hook 'other' returned fields Claude Code would refuse "
        "(terminalSequence: a number, not a string); they were left "
        "out of the answer.",
    }


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=4,
)
_values = _json | st.sampled_from(["approve", "block", "allow", "deny", "ask", "defer"])
_names = st.sampled_from([*output_schema().top_level, "async", "terminalSequence", "x"]) | st.text(
    max_size=3
)
_specific_names = st.sampled_from([*output_schema().specific_types, "hookEventName", "x"])
_results = st.dictionaries(_names, _values, max_size=4) | st.builds(
    lambda top, specific: {**top, "hookSpecificOutput": specific},
    st.dictionaries(_names, _values, max_size=3),
    st.dictionaries(_specific_names, _values, max_size=4),
)


@settings(max_examples=300)
@given(
    before=st.lists(_results, max_size=3),
    after=st.lists(_results, max_size=3),
    event=st.sampled_from(["PreToolUse", "PreSkillShellCommand", "Stop", "PostToolUse"]),
)
def test_whatever_raw_handlers_return_the_answer_validates_and_a_deny_stays(
    before: list[dict], after: list[dict], event: str
) -> None:
    guarded = event in ("PreToolUse", "PreSkillShellCommand")
    answer = AnswerBuilder(event, guarded=guarded)
    for index, result in enumerate(before):
        answer.merge_raw_result(result, f"before{index}")
    answer.block("no rm", "guard")
    for index, result in enumerate(after):
        answer.merge_raw_result(result, f"after{index}")

    built = answer.to_json()

    assert schema_problem(built, event) is None, built
    assert answer.blocked
    if guarded:
        assert built["hookSpecificOutput"]["permissionDecision"] == "deny"
    else:
        assert built["decision"] == "block"


def test_the_catalog_agrees_with_the_client_rules_the_attack_tests_check() -> None:
    from .attack_support import _PRE_TOOL_USE_TYPES, _TOP_LEVEL_TYPES

    words = {bool: "boolean", str: "string", dict: "object"}
    schema = output_schema()
    for name, wanted in _TOP_LEVEL_TYPES.items():
        assert schema.top_level[name] == words[wanted], name
    for event in ("PreToolUse", "PreSkillShellCommand"):
        fields = schema.specific_fields(event)
        for name, wanted in _PRE_TOOL_USE_TYPES.items():
            assert fields.get(name, words[wanted]) == words[wanted], (event, name)
        assert fields["permissionDecision"] == ["allow", "deny", "ask", "defer"]


@pytest.mark.parametrize(
    ("event", "specific", "left_out"),
    [
        ("SessionStart", {"watchPaths": ["/a", "/b"], "reloadSkills": True}, []),
        (
            "SessionStart",
            {"watchPaths": "/a", "reloadSkills": "yes"},
            ["watchPaths", "reloadSkills"],
        ),
        (
            "UserPromptSubmit",
            {"sessionTitle": 3, "suppressOriginalPrompt": False},
            ["sessionTitle"],
        ),
        ("PermissionRequest", {"decision": {"behavior": "allow"}}, []),
        ("PermissionRequest", {"decision": "allow"}, ["decision"]),
        ("Elicitation", {"action": "accept", "content": {"a": 1}}, []),
        ("Elicitation", {"action": "yes", "content": [1]}, ["action", "content"]),
        ("PostToolUse", {"updatedToolOutput": None, "updatedMCPToolOutput": [1]}, []),
        ("WorktreeCreate", {"worktreePath": 1}, ["worktreePath"]),
        ("SessionEnd", {"additionalContext": "queued by hookman"}, []),
    ],
)
def test_each_events_fields_are_checked_by_their_type(
    event: str, specific: dict, left_out: list[str]
) -> None:
    kept, misfits = output_schema().fit({"hookSpecificOutput": specific}, event)

    assert [misfit.field for misfit in misfits] == [f"hookSpecificOutput.{n}" for n in left_out]
    assert set(kept["hookSpecificOutput"]) == set(specific) - set(left_out)


def test_fields_the_client_schema_has_are_kept_from_raw_answers() -> None:
    """terminalSequence (top level) and PostToolUse's classifierContext are in the answer
    schema of 2.1.328 and 2.1.332 (read from the binaries): a raw handler's are sent."""
    schema = output_schema()
    result = {
        "terminalSequence": "\u001b]9;done\u0007",
        "hookSpecificOutput": {"classifierContext": "host says: safe"},
    }
    kept, misfits = schema.fit(result, "PostToolUse")
    assert misfits == []
    assert kept == result
    _, misfits = schema.fit({"hookSpecificOutput": {"classifierContext": "x"}}, "PreToolUse")
    assert [str(m) for m in misfits] == [
        "hookSpecificOutput.classifierContext: not a field Claude Code reads on PreToolUse"
    ]
