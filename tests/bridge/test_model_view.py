from __future__ import annotations

import json

from hookman.bridge.model_view import model_view

BASH = {"tool_name": "Bash"}


def _view(event: str, answer: object, payload: dict | None = None, **kwargs: object):
    stdout = answer if isinstance(answer, str) else json.dumps(answer)
    return model_view(event, payload or BASH, stdout=stdout, exit_code=0, **kwargs)


def test_a_deny_shows_the_reason_as_the_tool_result() -> None:
    view = _view(
        "PreToolUse",
        {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}},
    )
    assert view.model_texts == ["no"]


def test_additional_context_names_event_and_tool() -> None:
    view = _view("PostToolUse", {"hookSpecificOutput": {"additionalContext": "careful"}})
    assert view.model_texts == ["PostToolUse:Bash hook additional context: careful"]


def test_plain_stdout_reaches_the_model_only_on_some_events() -> None:
    assert _view("UserPromptSubmit", "hello\n", {}).model_texts == [
        "UserPromptSubmit hook success: hello"
    ]
    assert _view("PostToolUse", "hello\n").model_texts == []


def test_exit_two_on_pre_tool_use_shows_the_command_line() -> None:
    view = model_view(
        "PreToolUse", BASH, stdout="", exit_code=2, stderr="blocked\n", command="python g.py"
    )
    assert view.model_texts == ["PreToolUse:Bash hook error: [python g.py]: blocked"]


def test_stop_block_is_feedback_and_system_message_is_for_the_user() -> None:
    view = _view("Stop", {"decision": "block", "reason": "run tests", "systemMessage": "hi"}, {})
    assert view.model_texts == ["Stop hook feedback: run tests"]
    assert view.user_messages == ["hi"]


def test_updated_tool_output_replaces_what_the_model_reads() -> None:
    answer = {"hookSpecificOutput": {"updatedToolOutput": {"stdout": "X", "stderr": ""}}}
    assert _view("PostToolUse", answer).model_texts == ["X"]
