from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hookman import paths
from hookman.bridge.session_state import SessionState
from hookman.cli.app import app


def _statuses(project: Path, session: str, statuses: dict[str, str]) -> None:
    SessionState(str(paths.project_state_dir(project)), session).write_statuses(statuses)


def test_statusline_reads_claude_codes_json_for_session_and_project(project: Path) -> None:
    _statuses(project, "s1", {"b": "second", "a": "first\tline"})
    _statuses(project, "s2", {"a": "other session"})
    status_input = {"session_id": "s1", "workspace": {"project_dir": str(project)}}

    done = CliRunner().invoke(app, ["statusline", "--width", "40"], input=json.dumps(status_input))

    assert done.exit_code == 0
    assert done.output == "first line second\n"


def test_statusline_cuts_to_the_width(project: Path) -> None:
    _statuses(project, "s1", {"a": "a rather long status text"})
    status_input = {"session_id": "s1", "workspace": {"current_dir": str(project)}}

    done = CliRunner().invoke(app, ["statusline", "--width", "10"], input=json.dumps(status_input))

    assert done.output == "a rathe...\n"


def test_statusline_without_statuses_prints_nothing(project: Path) -> None:
    done = CliRunner().invoke(
        app, ["statusline", "--project", str(project)], input='{"session_id": "none"}'
    )
    assert done.exit_code == 0 and done.output == ""


def test_statusline_without_a_session_uses_the_latest(project: Path) -> None:
    _statuses(project, "only", {"k": "v"})

    done = CliRunner().invoke(app, ["statusline", "--project", str(project)], input="not json")

    assert done.output == "v\n"
