"""Each classification the `probed` section can give, for hookman's answers and for runs of
command hooks."""

from __future__ import annotations

from typing import Any

import pytest

from hookman.doctor.probe_classify import CommandRun
from hookman.doctor.probe_outcome import command_outcome, hookman_outcome, sample_label


def _report(answer: Any = None, **extra: Any) -> dict[str, Any]:
    report: dict[str, Any] = {
        "hooks": [{"name": "guard", "load_error": None, "calls": []}],
        "answer": {} if answer is None else answer,
        "outcome": "ok",
        "async": None,
        "queued_for_next_event": [],
    }
    report.update(extra)
    return report


def _deny(event: str, reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


@pytest.mark.parametrize(
    ("event", "report", "expected"),
    [
        (
            "PreToolUse",
            _report(_deny("PreToolUse", "no rm")),
            ("denied", "denied (no rm): the guard works"),
        ),
        (
            "UserPromptSubmit",
            _report({"decision": "block", "reason": "not now"}),
            ("blocked", "blocked (not now)"),
        ),
        (
            "PreToolUse",
            _report(
                {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}
            ),
            ("ask", "answered permissionDecision ask"),
        ),
        (
            "PreToolUse",
            _report({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {}}}),
            ("changed_input", "changed the tool input (updatedInput)"),
        ),
        (
            "SessionStart",
            _report(
                {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "x"}}
            ),
            ("answered", "answered with additionalContext"),
        ),
        (
            "Notification",
            _report(queued_for_next_event=["hello"]),
            ("queued", "no answer; queued a message for the next event that takes context"),
        ),
        ("Notification", _report(), ("no_answer", "no answer (observe only)")),
        ("PreToolUse", _report(), ("no_answer", "no answer: the client lets the call run")),
        (
            "Stop",
            _report(
                hooks=[], **{"async": {"hooks": [{"name": "n", "load_error": None, "calls": []}]}}
            ),
            ("async", "ran async: observe only, the client does not wait for its answer"),
        ),
        (
            "PreToolUse",
            _report(
                _deny("PreToolUse", "x"),
                hooks=[{"name": "guard", "load_error": "boom", "calls": []}],
            ),
            ("failed_to_load", "guard failed to load, so hookman denies the call"),
        ),
        (
            "Stop",
            _report(hooks=[{"name": "g", "load_error": None, "calls": [{"error": "bug"}]}]),
            ("raised", "g raised"),
        ),
        (
            "PreToolUse",
            _report(_deny("PreToolUse", "x"), outcome="timeout"),
            ("timed_out", "did not finish within hookman's deadline, so hookman denies the call"),
        ),
    ],
)
def test_hookman_answers_are_classified(
    event: str, report: dict[str, Any], expected: tuple[str, str]
) -> None:
    assert hookman_outcome(event, report) == expected


def _run(exit_code: int | None, stdout: str = "", stderr: str = "") -> CommandRun:
    return CommandRun(exit_code, stdout, stderr, 0.1, exit_code is None)


@pytest.mark.parametrize(
    ("event", "run", "codes", "expected"),
    [
        ("Stop", _run(0), [], ("no_answer", "exit 0, no output (observe only)")),
        (
            "PreToolUse",
            _run(0),
            [],
            ("no_answer", "exit 0, no output: the client lets the call run"),
        ),
        (
            "Stop",
            _run(0, "{}"),
            [],
            ("no_answer", "exit 0 with an empty JSON answer (observe only)"),
        ),
        (
            "PreToolUse",
            _run(0, '{"hookSpecificOutput": {"permissionDecision": "deny"}}'),
            [],
            ("denied", "denied: the guard works"),
        ),
        (
            "PreToolUse",
            _run(2, "", "no way\nmore"),
            [],
            ("denied", "denied with exit 2 (no way): the guard works"),
        ),
        ("Stop", _run(2, "", "keep going"), [], ("blocked", "blocked with exit 2 (keep going)")),
        (
            "PostToolUse",
            _run(2, "", "bad"),
            ["block-cannot-block"],
            ("blocks_nothing", "exit 2 (bad), but PostToolUse cannot block"),
        ),
        (
            "UserPromptSubmit",
            _run(0, "hello"),
            [],
            ("plain_text", "printed plain text, which reaches the model"),
        ),
        (
            "PostToolUse",
            _run(0, "hello"),
            ["plain-stdout-dropped"],
            ("plain_text_dropped", "printed plain text, which the client keeps in its debug log"),
        ),
        (
            "PostToolUse",
            _run(0, 'note\n{"decision": "block"}'),
            ["json-mixed-with-prints"],
            ("unparsable", "printed JSON mixed with other text: the client cannot parse it"),
        ),
        (
            "Stop",
            _run(1, "", "oops"),
            ["probe-command-fails"],
            ("failed", "failed with exit 1: oops"),
        ),
        (
            "Stop",
            _run(None),
            ["probe-slow"],
            ("timed_out", "still running after 0 s; doctor stopped it"),
        ),
    ],
)
def test_command_runs_are_classified(
    event: str, run: CommandRun, codes: list[str], expected: tuple[str, str]
) -> None:
    assert command_outcome(event, run, codes) == expected


def test_the_sample_is_named_by_what_it_carries() -> None:
    bash = {"tool_name": "Bash", "tool_input": {"command": "rm -rf ./build"}}
    assert sample_label("PreToolUse", bash) == "Bash `rm -rf ./build`"
    assert sample_label(
        "PreToolUse", {"tool_name": "Read", "tool_input": {"file_path": "a`b"}}
    ) == ("Read `` a`b ``")
    assert sample_label("SessionStart", {"source": "startup"}) == "SessionStart (source startup)"
    assert sample_label("Stop", {"stop_hook_active": False}) == "Stop"
