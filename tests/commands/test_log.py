from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookman import paths
from hookman.bridge.firing_log import append_record
from hookman.cli.app import app
from hookman.commands.log import format_record, show_log


def _record(**fields: object) -> dict:
    base = {
        "time": "2026-11-30T05:00:00.000Z",
        "project": "/p",
        "session": "s-main",
        "agent_id": None,
        "event": "PreToolUse",
        "hooks": ["guard"],
        "outcome": "ok",
        "duration_ms": 12.5,
        "errors": [],
        "output": "",
        "notices": [],
    }
    return {**base, **fields}


def _write(*records: dict) -> None:
    for record in records:
        append_record(str(paths.firing_log_path()), record)


def _log(*args: str):
    return CliRunner().invoke(app, ["log", *args])


def test_log_shows_the_last_lines_with_errors() -> None:
    _write(
        _record(event="SessionStart"),
        _record(
            outcome="failed-closed", errors=[{"hook": "g", "event": "tool_call", "error": "boom"}]
        ),
    )

    done = _log("-n", "1")

    assert done.exit_code == 0
    assert "SessionStart" not in done.output
    assert "failed-closed" in done.output and "! g (tool_call): boom" in done.output


def test_per_session_agent_and_event_views_as_json() -> None:
    _write(
        _record(session="aaa", agent_id=None, event="Stop"),
        _record(session="aaa", agent_id="sub1", event="Stop"),
        _record(session="bbb", event="Stop"),
        _record(session="aaa", event="PreToolUse"),
    )

    main_agent = json.loads(_log("--json", "--session", "aaa", "--agent", "main").output)
    sub_agent = json.loads(_log("--json", "--agent", "sub1").output)
    stops = json.loads(_log("--json", "--event", "Stop").output)

    assert [(r["session"], r["event"]) for r in main_agent] == [
        ("aaa", "Stop"),
        ("aaa", "PreToolUse"),
    ]
    assert [r["agent_id"] for r in sub_agent] == ["sub1"]
    assert len(stops) == 3


def test_project_filter(project: Path) -> None:
    _write(_record(project=str(project.resolve())), _record(project="/elsewhere"))

    records = json.loads(_log("--json", "--project", str(project)).output)

    assert [r["project"] for r in records] == [str(project.resolve())]


def test_follow_prints_lines_appended_later(capsys: pytest.CaptureFixture[str]) -> None:
    _write(_record(event="SessionStart"))

    def append_soon() -> None:
        time.sleep(0.3)
        _write(_record(event="Stop", outcome="blocked"))

    writer = threading.Thread(target=append_soon)
    writer.start()
    show_log(follow=True, json_output=True, follow_seconds=1.5)
    writer.join()

    events = [json.loads(line)["event"] for line in capsys.readouterr().out.splitlines()]
    assert events == ["SessionStart", "Stop"]


def test_an_empty_log_says_so() -> None:
    done = _log()
    assert done.exit_code == 0 and "no matching lines" in done.output


def test_format_record_is_one_line() -> None:
    line = format_record(_record(agent_id="sub1"))
    assert line == (
        "2026-11-30T05:00:00.000Z  PreToolUse  ok  12ms  session s-main  agent sub1  hooks guard"
    )


def test_an_async_run_is_marked() -> None:
    line = format_record(_record(event="PostToolUse", **{"async": True}))
    assert line.startswith("2026-11-30T05:00:00.000Z  PostToolUse (async)  ok  ")
