"""The answer line of launcher format 3: the JSON, or exit 2 on stderr where a start-up file
of the client's shell may print before it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.answer_frame import framed_line
from hookman.bridge.protocol import EXIT_TWO_MARK, deny_answer

DENY = json.dumps(deny_answer("PreToolUse", "no\nrm -rf")) + "\n"
PRINTS = {"BASH_ENV": "/home/u/.bash_env"}


def test_without_a_start_up_file_the_line_is_the_json() -> None:
    assert framed_line(DENY, True, {}) == DENY.rstrip("\n")
    assert framed_line("{}\n", True, PRINTS) == "{}"
    assert framed_line(DENY, False, PRINTS) == DENY.rstrip("\n")  # not guarded: as it is


def test_a_deny_past_a_start_up_file_is_one_line_for_stderr() -> None:
    assert framed_line(DENY, True, PRINTS) == EXIT_TWO_MARK + "no rm -rf"
    assert framed_line(DENY, True, {"ENV": "/x"}).startswith(EXIT_TWO_MARK)


def test_answers_that_cannot_be_passed_on_become_a_deny() -> None:
    for answer in (
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"a": 1}}},
        {"continue": False},
    ):
        line = framed_line(json.dumps(answer) + "\n", True, PRINTS)
        assert line.startswith(EXIT_TWO_MARK) and "BASH_ENV is set" in line


@given(st.text())
def test_the_line_never_holds_a_line_break(reason: str) -> None:
    text = json.dumps(deny_answer("PreToolUse", reason)) + "\n"
    line = framed_line(text, True, PRINTS)
    assert "\n" not in line and "\r" not in line
