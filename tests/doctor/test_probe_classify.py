from __future__ import annotations

import json
from typing import Any

import pytest

from hookman.doctor.model import Handler, Source
from hookman.doctor.probe_classify import CommandRun, blocks, classify


def handler(event: str, *, is_async: bool = False) -> Handler:
    return Handler(
        Source("project", "s.json"),
        "hooks.X[0].hooks[0]",
        event,
        None,
        "command",
        "x",
        None,
        {},
        is_async=is_async,
    )


def run(code: int | None, stdout: str = "", stderr: str = "") -> CommandRun:
    return CommandRun(code, stdout, stderr, 0.1, code is None)


def classified(event: str, result: CommandRun, **kwargs: Any) -> list[str]:
    return [found[0] for found in classify(handler(event, **kwargs), result, 600, 10)]


@pytest.mark.parametrize(
    ("event", "result", "expected"),
    [
        ("PostToolUse", run(0, "formatted 3 files\n"), ["plain-stdout-dropped"]),
        ("Stop", run(0, "done\n"), ["plain-stdout-dropped"]),
        ("PostToolUse", run(0, 'checking\n{"decision": "block"}\n'), ["json-mixed-with-prints"]),
        ("PreToolUse", run(0, 'log: {"x": 1}'), ["json-mixed-with-prints"]),
        ("PostToolUse", run(2, "", "bad\n"), ["block-cannot-block"]),
        ("PreToolUse", run(2, "why\n", "blocked\n"), ["stdout-with-exit-2"]),
        ("PreToolUse", run(1, "", "rm -rf is not allowed\n"), ["exit-1-not-2"]),
        ("Stop", run(1, "", "tests fail\n"), ["exit-1-not-2"]),
        ("PostToolUse", run(1, "", "boom\n"), ["probe-command-fails"]),
        ("PreToolUse", run(None), ["probe-slow"]),
        ("PostToolUse", run(2, "", "x"), ["async-decides"]),
    ],
)
def test_runs_the_client_does_not_hear_are_classified(
    event: str, result: CommandRun, expected: list[str]
) -> None:
    assert classified(event, result, is_async=expected == ["async-decides"]) == expected


@pytest.mark.parametrize(
    ("event", "result"),
    [
        ("PostToolUse", run(0)),
        (
            "PostToolUse",
            run(
                0,
                json.dumps(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "x",
                        }
                    }
                ),
            ),
        ),
        ("UserPromptSubmit", run(0, "plain context reaches the model\n")),
        ("SessionStart", run(0, "plain context\n")),
        ("PreToolUse", run(2, "", "blocked: rm -rf\n")),
        ("PreToolUse", run(0, "", "debug noise on stderr\n")),
        ("Notification", run(0, "", "")),
    ],
)
def test_runs_the_client_hears_stay_quiet(event: str, result: CommandRun) -> None:
    assert classified(event, result) == []


def test_a_run_past_its_own_budget_is_an_error_and_fails_open_on_pre_tool_use() -> None:
    found = classify(handler("PreToolUse"), run(None), 2, 10)
    assert [f[0:2] for f in found] == [("probe-over-budget", "error")]
    assert "a killed hook does not block" in found[0][2]


def test_exit_2_and_a_json_block_decision_block() -> None:
    assert blocks(run(2)) and blocks(run(0, '{"decision": "block", "reason": "x"}'))
    assert not blocks(run(0, '{"decision": "approve"}')) and not blocks(run(1, "", "x"))
