"""Hostile: another hook's return value must not void a guard's deny.

Claude Code validates a hook's JSON against its output schema; one wrongly typed known field
and the whole answer, deny included, is read as plain text: the tool runs (seen in the real
client, tests/e2e/test_attack_guard.py). Raw PreToolUse handlers return Claude Code output
fields, which hookman merges into the one answer, so an unrelated hook's sloppy field can
undo every guard's deny."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .attack_support import DENY, RM_GUARD, run_like_claude_code, short_timeout
from .conftest import RunnerProject

RAW_RM_GUARD = """
def hook(pi):
    @pi.on("PreToolUse")
    def guard(event, ctx):
        if "rm" in event["tool_input"]["command"]:
            return {"hookSpecificOutput": {"permissionDecision": "deny",
                                           "permissionDecisionReason": "raw: no rm"}}
"""


def _raw_returning(result: str) -> str:
    return f'def hook(pi):\n    pi.on("PreToolUse", lambda event, ctx: {result})\n'


# (what the other raw handler returns, whether it runs before the guard)
VOIDS_THE_DENY = {
    "suppressOutput a string": ('{"suppressOutput": "yes"}', False),
    "terminalSequence a number": ('{"terminalSequence": 7}', False),
    "updatedInput a string": ('{"hookSpecificOutput": {"updatedInput": "ls"}}', False),
    "updatedInput null": ('{"hookSpecificOutput": {"updatedInput": None}}', False),
    "async true": ('{"async": True}', False),
    "decision allow before a raw guard": ('{"decision": "allow"}', True),
    "reason a number before a raw guard": ('{"decision": "approve", "reason": 5}', True),
}


@pytest.mark.xfail(
    strict=True,
    reason="bypass: answer.py merges a raw handler's wrongly typed output field next to the "
    "deny; Claude Code's schema then refuses the whole answer and the tool runs",
)
@pytest.mark.parametrize(
    ("returned", "before"), list(VOIDS_THE_DENY.values()), ids=list(VOIDS_THE_DENY)
)
def test_another_hooks_sloppy_field_cannot_void_a_deny(
    runner_project: RunnerProject, returned: str, before: bool
) -> None:
    guard = (
        "guard",
        RAW_RM_GUARD if before else RM_GUARD,
        ["PreToolUse" if before else "tool_call"],
    )
    other = ("other", _raw_returning(returned), ["PreToolUse"])
    for name, source, events in [other, guard] if before else [guard, other]:
        runner_project.add_hook(name, source, events, ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    verdict = run_like_claude_code(runner_project, "PreToolUse", payload)

    assert verdict.decision == DENY, verdict


# Fields hookman already keeps out of a deny, or makes fit: the answer stays one the
# client reads.
KEPT_FIT = {
    "continue a string": '{"continue": "no"}',
    "stopReason a number": '{"stopReason": 5}',
    "systemMessage a number": '{"systemMessage": 5}',
    "additionalContext a list": '{"hookSpecificOutput": {"additionalContext": ["a", 1]}}',
    "permissionDecision allow": '{"hookSpecificOutput": {"permissionDecision": "allow"}}',
    "permissionDecision nonsense": '{"hookSpecificOutput": {"permissionDecision": 5}}',
    "another event's name": '{"hookSpecificOutput": {"hookEventName": "PostToolUse"}}',
    "decision approve": '{"decision": "approve", "reason": "fine"}',
}


@pytest.mark.parametrize("returned", list(KEPT_FIT.values()), ids=list(KEPT_FIT))
def test_fields_hookman_keeps_fit_leave_the_deny_standing(
    runner_project: RunnerProject, returned: str
) -> None:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("other", _raw_returning(returned), ["PreToolUse"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    verdict = run_like_claude_code(runner_project, "PreToolUse", payload)

    assert verdict.decision == DENY, verdict
    assert verdict.why == "no rm"


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)
_OUTPUT_KEYS = [
    "continue",
    "suppressOutput",
    "stopReason",
    "decision",
    "reason",
    "systemMessage",
    "terminalSequence",
    "async",
]
_SPECIFIC_KEYS = [
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
    "additionalContext",
]
_returned = st.fixed_dictionaries(
    {},
    optional={
        **{key: _json_values for key in _OUTPUT_KEYS},
        "hookSpecificOutput": st.fixed_dictionaries(
            {}, optional={key: _json_values for key in _SPECIFIC_KEYS}
        ),
    },
)


@pytest.mark.xfail(
    strict=True, reason="bypass: see test_another_hooks_sloppy_field_cannot_void_a_deny"
)
@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(returned=_returned)
@example(returned={"suppressOutput": 0})
def test_whatever_another_raw_handler_returns_a_deny_stays_a_deny(
    runner_project: RunnerProject, returned: dict
) -> None:
    runner_project.hooks.clear()
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("other", _raw_returning(repr(returned)), ["PreToolUse"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    verdict = run_like_claude_code(runner_project, "PreToolUse", payload)

    assert verdict.decision == DENY, verdict


def test_a_huge_answer_from_another_hook_cannot_delay_the_deny_past_the_timeout(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    big = "{'hookSpecificOutput': {'additionalContext': 'x' * 12_000_000}}"
    runner_project.add_hook("context", _raw_returning(big), ["PreToolUse"], ["PreToolUse"])
    short_timeout(runner_project)
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    verdict = run_like_claude_code(runner_project, "PreToolUse", payload)

    assert verdict.decision == DENY, verdict
