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

    done = _log("--all", "-n", "1")

    assert done.exit_code == 0
    recent = done.output.split("last 1 lines\n", 1)[1]
    assert "SessionStart" not in recent
    assert "failed-closed" in recent and "! g (tool_call): boom" in recent


def test_per_session_agent_and_event_views_as_json() -> None:
    _write(
        _record(session="aaa", agent_id=None, event="Stop"),
        _record(session="aaa", agent_id="sub1", event="Stop"),
        _record(session="bbb", event="Stop"),
        _record(session="aaa", event="PreToolUse"),
    )

    main_agent = json.loads(_log("--all", "--json", "--session", "aaa", "--agent", "main").output)
    sub_agent = json.loads(_log("--all", "--json", "--agent", "sub1").output)
    stops = json.loads(_log("--all", "--json", "--event", "Stop").output)

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
    show_log(follow=True, json_output=True, follow_seconds=1.5, all_projects=True)
    writer.join()

    events = [json.loads(line)["event"] for line in capsys.readouterr().out.splitlines()]
    assert events == ["SessionStart", "Stop"]


def test_an_empty_log_says_so_and_names_all(project: Path) -> None:
    done = _log("--project", str(project))
    assert done.exit_code == 0
    assert done.output == (
        f"no matching lines for project {project.resolve()} in {paths.firing_log_path()}.\n"
        "  `hookman log --all` shows every project.\n"
    )


def test_format_record_is_one_line() -> None:
    line = format_record(_record(agent_id="sub1"))
    assert line == (
        "2026-11-30T05:00:00.000Z  PreToolUse  ok  12ms  session s-main  agent sub1  hooks guard"
    )


def test_an_async_run_is_marked() -> None:
    line = format_record(_record(event="PostToolUse", **{"async": True}))
    assert line.startswith("2026-11-30T05:00:00.000Z  PostToolUse (async)  ok  ")


def test_by_default_only_the_current_project_is_shown(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = str(project.resolve())
    _write(_record(project=here, session="mine"), _record(project="/elsewhere", session="theirs"))
    monkeypatch.chdir(project)

    shown = json.loads(_log("--json").output)
    every = json.loads(_log("--json", "--all").output)

    assert [r["session"] for r in shown] == ["mine"]
    assert [r["session"] for r in every] == ["mine", "theirs"]


def test_all_and_project_together_is_a_usage_error(project: Path) -> None:
    done = _log("--all", "--project", str(project))
    assert done.exit_code == 2 and "--all shows every project" in done.stderr


ROOM_RECORDS = [
    _record(session="s-one-1234567", event="SessionStart", time="2026-11-30T05:00:00.000Z"),
    _record(session="s-one-1234567", time="2026-11-30T05:00:01.000Z"),
    _record(
        session="s-one-1234567",
        time="2026-11-30T05:00:02.000Z",
        outcome="denied",
        reason="Blocked by the bash guard: rm -rf deletes without asking.",
    ),
    _record(session="s-one-1234567", agent_id="sub-agent-42", time="2026-11-30T05:00:03.000Z"),
    _record(
        session="s-one-1234567",
        time="2026-11-30T05:00:04.000Z",
        outcome="failed-closed",
        errors=[{"hook": "g", "event": "tool_call", "error": "boom"}],
    ),
    _record(session="s-two", event="Stop", outcome="blocked", time="2026-11-30T06:00:00.000Z"),
]
ROOM = """\
project {project}: 6 events in 2 sessions

session s-one-12  Claude Code  2026-11-30 05:00:00 - 2026-11-30 05:00:04  5 events
  main            SessionStart 1 (1 ok)  PreToolUse 3 (1 ok, 1 denied, 1 failed-closed)
  agent sub-agen  PreToolUse 1 (1 ok)
  last denies
    2026-11-30 05:00:02  main  PreToolUse  denied  Blocked by the bash guard: rm -rf deletes \
without asking.
    2026-11-30 05:00:04  main  PreToolUse  failed-closed  g: boom

session s-two  Claude Code  2026-11-30 06:00:00 - 2026-11-30 06:00:00  1 event
  main  Stop 1 (1 blocked)
  last denies
    2026-11-30 06:00:00  main  Stop  blocked  (no reason recorded)

last 2 lines
2026-11-30T05:00:04.000Z  PreToolUse  failed-closed  12ms  session s-one-12  agent main  hooks guard
    ! g (tool_call): boom
2026-11-30T06:00:00.000Z  Stop  blocked  12ms  session s-two  agent main  hooks guard
"""


def test_the_room_view_piped(project: Path) -> None:
    here = str(project.resolve())
    _write(*(dict(record, project=here) for record in ROOM_RECORDS))

    done = _log("--project", str(project), "-n", "2")

    assert done.exit_code == 0
    assert done.output == ROOM.format(project=here)


# Codex CLI's session ids are UUIDv7: two sessions a few seconds apart share "0192f0c1-a".
CODEX_ONE = "0192f0c1-a3b4-7c00-8000-000000000001"
CODEX_TWO = "0192f0c1-a9e2-7c00-8000-000000000002"


def test_the_room_names_each_sessions_agent_with_prefixes_unique_among_those_shown(
    project: Path,
) -> None:
    here = str(project.resolve())
    _write(
        _record(project=here, session=CODEX_ONE, agent="codex", time="2026-11-30T05:00:00.000Z"),
        _record(project=here, session=CODEX_TWO, agent="codex", time="2026-11-30T05:00:05.000Z"),
        _record(project=here, session="c1a9d7e0-claude", time="2026-11-30T05:00:09.000Z"),
    )

    done = _log("--project", str(project), "-n", "1")

    assert done.exit_code == 0, done.output
    headers = [line for line in done.output.splitlines() if line.startswith("session ")]
    assert headers == [
        "session 0192f0c1-a3  Codex CLI  2026-11-30 05:00:00 - 2026-11-30 05:00:00  1 event",
        "session 0192f0c1-a9  Codex CLI  2026-11-30 05:00:05 - 2026-11-30 05:00:05  1 event",
        "session c1a9d7e0  Claude Code  2026-11-30 05:00:09 - 2026-11-30 05:00:09  1 event",
    ]
    assert done.output.rstrip("\n").endswith("session c1a9d7e0  agent main  hooks guard")
    one = _log("--project", str(project), "--session", "0192f0c1-a9")  # the shown prefix
    assert ": 1 event in 1 session" in one.output and "Codex CLI" in one.output


def test_follow_on_a_terminal_redraws_the_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from rich.console import Console

    from hookman.commands import log as log_command

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100, color_system=None)
    monkeypatch.setattr(log_command, "console", lambda: terminal)
    _write(_record(event="SessionStart"))

    def append_soon() -> None:
        time.sleep(0.3)
        _write(_record(outcome="denied", reason="GUARD SAID NO"))

    writer = threading.Thread(target=append_soon)
    writer.start()
    show_log(follow=True, follow_seconds=1.5, all_projects=True)
    writer.join()

    drawn = screen.getvalue()
    assert "all projects: 1 event in 1 session" in drawn
    assert "all projects: 2 events in 1 session" in drawn  # redrawn with the new record
    assert "GUARD SAID NO" in drawn
    assert "\x1b[" in drawn  # drawn in place (cursor movement), not appended as lines


def test_follow_when_piped_streams_plain_lines(capsys: pytest.CaptureFixture[str]) -> None:
    _write(_record(event="SessionStart"))

    def append_soon() -> None:
        time.sleep(0.3)
        _write(_record(event="Stop", outcome="blocked"))

    writer = threading.Thread(target=append_soon)
    writer.start()
    show_log(follow=True, follow_seconds=1.5, all_projects=True)
    writer.join()

    assert capsys.readouterr().out.splitlines() == [
        format_record(_record(event="SessionStart")),
        format_record(_record(event="Stop", outcome="blocked")),
    ]


def test_json_reads_only_the_end_of_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """`hookman log --json -n N` prints the last N matching lines: it reads them from the
    end and leaves the rest of the log (every other project's lines) unread."""
    from hookman.bridge import firing_log
    from hookman.commands import log as log_command

    _write(*(_record(project="/p", n=number) for number in range(50)))
    _write(_record(project="/other"), _record(project="/p", n=50, event="Stop"))
    parsed: list[int] = []
    original = firing_log.parse_lines

    def counting(lines: list[str]) -> list[dict[str, object]]:
        parsed.append(len(lines))
        return original(lines)

    monkeypatch.setattr(firing_log, "parse_lines", counting)
    monkeypatch.setattr(log_command, "read_records", None)  # the whole log is not read

    done = _log("--all", "--json", "-n", "2")
    assert done.exit_code == 0, done.output
    shown = json.loads(done.output)
    assert [(r["project"], r.get("n")) for r in shown] == [("/other", None), ("/p", 50)]
    assert sum(parsed) <= 3
