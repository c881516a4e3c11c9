"""What the server answers for a child's run: the child's answer only when it is one whole
JSON object from a child that ended with 0; else the runner's deny on a guarded event and
`{}` elsewhere."""

from __future__ import annotations

import json
import os
import signal

import pytest

from hookman.bridge.protocol import deny_answer
from hookman.serve.answers import EMPTY, child_body, failure_body, status_problem

EXITED_0 = 0
EXITED_3 = 3 << 8
KILLED = signal.SIGKILL


def test_a_whole_answer_of_a_child_that_ended_well_is_the_body() -> None:
    assert child_body(b'{"a": 1}\n', EXITED_0) == b'{"a": 1}'


@pytest.mark.parametrize(
    ("output", "status"),
    [
        (b'{"a": 1}\n', EXITED_3),
        (b'{"a": 1}\n', KILLED),
        (b'{"a": 1}\n', None),
        (b"", EXITED_0),
        (b"[]\n", EXITED_0),
        (b'{"a": \n', EXITED_0),
        (b'{"a": 1}\n{"b": 2}\n', EXITED_0),
        (b"\xff\n", EXITED_0),
    ],
)
def test_anything_else_is_no_answer(output: bytes, status: int | None) -> None:
    assert child_body(output, status) is None


def test_a_guarded_event_without_an_answer_gets_the_runners_deny_naming_hookman() -> None:
    body = json.loads(failure_body("PreToolUse", True, "was ended by SIGKILL"))
    reason = body["hookSpecificOutput"]["permissionDecisionReason"]
    assert body == deny_answer("PreToolUse", reason)
    assert reason.startswith("hookman blocked this tool call")
    assert "was ended by SIGKILL" in reason
    assert "hookman serve status" in reason


def test_an_observe_only_event_without_an_answer_gets_nothing() -> None:
    assert failure_body("PostToolUse", False, "was ended by SIGKILL") == EMPTY == b"{}"


def test_the_problem_says_how_the_child_ended() -> None:
    assert status_problem(None, b"") == "gave no answer"
    assert status_problem(KILLED, b"") == "was ended by SIGKILL"
    assert status_problem(EXITED_3, b"") == "ended with status 3"
    assert status_problem(EXITED_0, b"") == "ended without an answer"
    assert "not one JSON object" in status_problem(EXITED_0, b"[]")
    assert os.WIFEXITED(EXITED_3)
