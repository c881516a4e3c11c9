from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.answer import AnswerBuilder, deadline_reason, fail_closed_reason


def _deny(reason: str) -> dict:
    return {
        "hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": reason}
    }


def test_an_empty_builder_says_nothing() -> None:
    assert AnswerBuilder("PreToolUse").to_json() == {}


def test_the_first_deny_wins_over_later_denies_and_allows() -> None:
    answer = AnswerBuilder("PreToolUse")
    answer.merge_raw_result({"hookSpecificOutput": {"permissionDecision": "allow"}}, "a")
    answer.merge_raw_result(_deny("first"), "b")
    answer.merge_raw_result(_deny("second"), "c")
    answer.merge_raw_result({"hookSpecificOutput": {"permissionDecision": "allow"}}, "d")

    assert answer.to_json() == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "first",
        }
    }
    assert answer.blocked_by == "b"


def test_a_block_decision_on_pre_tool_use_is_a_deny() -> None:
    answer = AnswerBuilder("PreToolUse")
    answer.merge_raw_result({"decision": "block", "reason": "old style"}, "a")

    assert answer.to_json()["hookSpecificOutput"]["permissionDecisionReason"] == "old style"


def test_block_elsewhere_is_a_top_level_decision() -> None:
    answer = AnswerBuilder("Stop")
    answer.merge_raw_result({"decision": "approve"}, "a")
    answer.merge_raw_result({"decision": "block", "reason": "tests fail"}, "b")
    answer.merge_raw_result({"decision": "approve", "reason": "fine"}, "c")

    assert answer.to_json() == {"decision": "block", "reason": "tests fail"}


def test_other_fields_are_last_wins_field_by_field() -> None:
    answer = AnswerBuilder("UserPromptSubmit")
    first = {"suppressOutput": True, "hookSpecificOutput": {"sessionTitle": "A"}}
    answer.merge_raw_result(first, "a")
    answer.merge_raw_result({"hookSpecificOutput": {"sessionTitle": "B"}}, "b")

    assert answer.to_json() == {
        "suppressOutput": True,
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "sessionTitle": "B"},
    }


def test_continue_false_sticks_with_its_stop_reason() -> None:
    answer = AnswerBuilder("Stop")
    answer.merge_raw_result({"continue": False, "stopReason": "done"}, "a")
    answer.merge_raw_result({"continue": True}, "b")

    assert answer.to_json() == {"continue": False, "stopReason": "done"}


def test_hookman_notices_follow_the_hooks_system_message() -> None:
    answer = AnswerBuilder("Stop")
    answer.merge_raw_result({"systemMessage": "from a hook"}, "a")
    answer.notify_user("from hookman")

    assert answer.to_json() == {"systemMessage": "from a hook\nfrom hookman"}


def test_fail_closed_reason_names_hook_and_fix() -> None:
    reason = fail_closed_reason("guard", "raised an error (boom)")
    assert "'guard' raised an error (boom)" in reason
    assert "hookman fire PreToolUse" in reason and "`hookman disable guard`" in reason
    assert "hookman disable" not in fail_closed_reason("(x)", "timed out")  # no placeholder


def test_a_deadline_reason_names_the_hook_or_where_hookman_was() -> None:
    named = deadline_reason("guard", 27)
    assert "the hook 'guard' did not finish within hookman's deadline of 27 s" in named
    assert "`hookman disable guard`" in named
    between = deadline_reason(None, 27, "PreToolUse")
    assert "hookman's deadline of 27 s passed while hookman was loading the project's" in between
    assert "outside any one hook" in between
    assert "`hookman fire PreToolUse`" in between and "`hookman log`" in between
    starting = deadline_reason(None, 27, hooks_started=False)
    assert "before the project's hooks started loading" in starting
    in_plugin = deadline_reason(None, 27, "PreToolUse", "team-guards")
    assert "`claude plugin update team-guards@MARKETPLACE`" in in_plugin
    assert "the plugin 'team-guards'" in in_plugin and "(loading)" not in in_plugin
    assert "hookman fire" not in in_plugin and "hookman log" not in in_plugin
    for reason in (between, starting):
        assert "(loading)" not in reason and "NAME" not in reason and "disable " not in reason


def test_a_plugins_fail_closed_reason_names_the_plugin_and_claude_plugin_commands() -> None:
    reason = fail_closed_reason("guard", "failed to load (x)", "PreToolUse", "team-guards")
    assert "the hook 'guard' of the plugin 'team-guards' failed to load (x)" in reason
    assert "`claude plugin update team-guards@MARKETPLACE`" in reason
    assert "`claude plugin disable team-guards@MARKETPLACE`" in reason
    assert "the plugin's author" in reason
    assert "hookman fire" not in reason and "hookman disable" not in reason
    assert "hookman log" not in reason


results = st.one_of(
    st.builds(_deny, st.text(min_size=1)),
    st.fixed_dictionaries(
        {"hookSpecificOutput": st.fixed_dictionaries({"additionalContext": st.text(min_size=1)})}
    ),
    st.fixed_dictionaries(
        {"hookSpecificOutput": st.fixed_dictionaries({"permissionDecision": st.just("allow")})}
    ),
)


@given(st.lists(results, max_size=8))
def test_merging_is_first_deny_and_contexts_in_order(merged: list[dict]) -> None:
    answer = AnswerBuilder("PreToolUse")
    for index, result in enumerate(merged):
        answer.merge_raw_result(result, f"hook{index}")
    specific = answer.to_json().get("hookSpecificOutput", {})

    outputs = [result["hookSpecificOutput"] for result in merged]
    denies = [output for output in outputs if "permissionDecisionReason" in output]
    contexts = [output["additionalContext"] for output in outputs if "additionalContext" in output]
    if denies:
        assert specific["permissionDecision"] == "deny"
        assert specific["permissionDecisionReason"] == denies[0]["permissionDecisionReason"]
    if contexts:
        assert specific["additionalContext"] == "\n\n".join(contexts)
    else:
        assert "additionalContext" not in specific
