from __future__ import annotations

import json

import pytest

from hookman.bridge.client_facts import ClientFacts
from hookman.bridge.model_view import model_view

from .conftest import client_section

BASH = {"tool_name": "Bash"}
READ = {"tool_name": "Read"}
CURRENT = ClientFacts(client_section("2.1.328"))
OLDER = ClientFacts(client_section("2.1.197"))
UNKNOWN = ClientFacts(client_section(None))
DENY = {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}


def _view(
    event: str,
    answer: object,
    payload: dict | None = None,
    client: ClientFacts = CURRENT,
    **kwargs: object,
):
    stdout = answer if isinstance(answer, str) else json.dumps(answer)
    return model_view(event, payload or BASH, client=client, stdout=stdout, exit_code=0, **kwargs)


@pytest.mark.parametrize(
    ("client", "expected"),
    [
        (CURRENT, "PreToolUse:Bash hook error: no"),
        (OLDER, "no"),
        (UNKNOWN, "PreToolUse:Bash hook error: no"),  # the newest measured form
        (ClientFacts(client_section("2.0.0")), "no"),  # older than every measurement
    ],
)
def test_what_the_model_reads_for_a_deny_depends_on_the_client(
    client: ClientFacts, expected: str
) -> None:
    view = _view("PreToolUse", DENY, client=client)
    assert view.model_texts == [expected]
    assert view.effects == ["the tool call is denied; the model reads the reason as its result"]


def test_additional_context_names_event_and_tool() -> None:
    view = _view("PostToolUse", {"hookSpecificOutput": {"additionalContext": "careful"}})
    assert view.model_texts == ["PostToolUse:Bash hook additional context: careful"]


def test_post_tool_use_context_on_2_1_197_is_a_system_reminder() -> None:
    answer = {"hookSpecificOutput": {"additionalContext": "FACT"}}
    assert _view("PostToolUse", answer, READ, client=OLDER).model_texts == [
        "<system-reminder>\nPostToolUse:Read hook additional context: FACT\n</system-reminder>"
    ]
    session_start = _view("SessionStart", answer, {}, client=OLDER)
    assert session_start.model_texts == ["SessionStart hook additional context: FACT"]


def test_context_on_stop_says_it_starts_another_turn() -> None:
    view = _view("Stop", {"hookSpecificOutput": {"additionalContext": "more"}}, {})
    assert view.model_texts == ["Stop hook additional context: more"]
    assert view.effects == ["additionalContext here gives the model another turn"]


def test_braces_in_a_reason_are_kept_verbatim() -> None:
    answer = {
        "hookSpecificOutput": {
            "permissionDecision": "deny",
            "permissionDecisionReason": "{label} {text} {0}",
        }
    }
    assert _view("PreToolUse", answer).model_texts == [
        "PreToolUse:Bash hook error: {label} {text} {0}"
    ]


def test_plain_stdout_reaches_the_model_only_on_some_events() -> None:
    assert _view("UserPromptSubmit", "hello\n", {}).model_texts == [
        "UserPromptSubmit hook success: hello"
    ]
    assert _view("PostToolUse", "hello\n").model_texts == []


def test_exit_two_on_pre_tool_use_shows_the_command_line() -> None:
    view = model_view(
        "PreToolUse",
        BASH,
        client=CURRENT,
        stdout="",
        exit_code=2,
        stderr="blocked\n",
        command="python g.py",
    )
    assert view.model_texts == ["PreToolUse:Bash hook error: [python g.py]: blocked"]


def test_exit_two_blocks_only_where_the_catalog_says_so() -> None:
    blocking = model_view("PreCompact", {}, client=CURRENT, stdout="", exit_code=2, stderr="no")
    assert blocking.effects == ["PreCompact is blocked"]
    ignored = model_view("SessionEnd", {}, client=CURRENT, stdout="", exit_code=2, stderr="no")
    assert ignored.user_messages == ["no"]
    assert ignored.effects == ["exit 2 does not block SessionEnd; stderr is shown to the user"]


def test_a_pre_compact_block_reason_goes_to_the_user_only() -> None:
    view = _view("PreCompact", {"decision": "block", "reason": "not now"}, {})
    assert view.model_texts == []
    assert view.user_messages == ["not now"]
    assert view.effects == ["compaction is blocked"]


def test_stop_block_is_feedback_and_system_message_is_for_the_user() -> None:
    view = _view("Stop", {"decision": "block", "reason": "run tests", "systemMessage": "hi"}, {})
    assert view.model_texts[0] == "Stop hook feedback:\nrun tests"  # 2.1.328
    assert view.user_messages == ["hi"]


@pytest.mark.parametrize(
    ("version", "texts"),
    [
        ("2.1.197", ["Stop hook feedback:\nrun tests"]),
        (
            "2.1.328",
            [
                "Stop hook feedback:\nrun tests",
                'Stop hook blocking error from command: "sh /s/hookman-run.sh Stop": run tests',
            ],
        ),
    ],
)
def test_a_stop_block_reads_as_measured_with_the_whole_command(
    version: str, texts: list[str]
) -> None:
    view = model_view(
        "Stop",
        {},
        client=ClientFacts(client_section(version)),
        stdout=json.dumps({"decision": "block", "reason": "run tests"}),
        exit_code=0,
        command="sh /s/hookman-run.sh Stop",
    )
    assert view.model_texts == texts


def test_updated_tool_output_replaces_what_the_model_reads() -> None:
    answer = {"hookSpecificOutput": {"updatedToolOutput": {"stdout": "X", "stderr": ""}}}
    assert _view("PostToolUse", answer).model_texts == ["X"]


SKILL_SHELL = ClientFacts(client_section("2.1.332"))
NOT_RUN = "[not run: blocked by hook: no]"


@pytest.mark.parametrize(
    ("answer", "exit_code", "stderr"),
    [
        (DENY, 0, ""),
        ({"decision": "block", "reason": "no"}, 0, ""),
        ("", 2, "no\n"),
    ],
    ids=["json deny", "decision block", "exit 2"],
)
def test_a_blocked_skill_shell_command_reads_not_run_with_the_reason(
    answer: object, exit_code: int, stderr: str
) -> None:
    stdout = answer if isinstance(answer, str) else json.dumps(answer)
    view = model_view(
        "PreSkillShellCommand",
        BASH,
        client=SKILL_SHELL,
        stdout=stdout,
        exit_code=exit_code,
        stderr=stderr,
    )
    assert view.model_texts == [NOT_RUN]
    assert "the skill's shell command" in view.effects[0]


def test_updated_input_on_a_skill_shell_command_means_it_does_not_run() -> None:
    answer = {"hookSpecificOutput": {"updatedInput": {"command": "ls"}}}
    view = _view("PreSkillShellCommand", answer, client=SKILL_SHELL)
    assert view.model_texts == [
        "[not run: blocked by hook: the hook changed the command, which isn't supported here]"
    ]
    assert view.effects == [
        "Claude Code does not apply updatedInput on PreSkillShellCommand: the command is not run"
    ]
    assert _view("PreToolUse", answer, client=SKILL_SHELL).effects == [
        "the tool runs with the hook's updatedInput"
    ]
