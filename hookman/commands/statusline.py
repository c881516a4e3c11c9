"""`hookman statusline`: the status line built from the hooks' `set_status` texts.

Usable as Claude Code's `statusLine` command: Claude Code pipes a JSON object with
`session_id` and `workspace` to it; the texts of that session of that project are shown,
sorted, sanitised and cut to the width (hookman.runtime.render_status_line).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, TextIO

from hookman import paths
from hookman.bridge.manifest_reader import ManifestError, read_manifest
from hookman.bridge.session_state import SessionState, read_status_file
from hookman.project import find_project_dir
from hookman.runtime import render_status_line

DEFAULT_WIDTH = 80


def statusline(
    *, width: int | None = None, project: Path | None = None, stdin: TextIO | None = None
) -> int:
    status_input = _read_status_input(stdin if stdin is not None else sys.stdin)
    project_dir = _project_dir(project, status_input)
    state_dir = _state_dir(project_dir)
    session = status_input.get("session_id")
    statuses = _statuses(state_dir, session if isinstance(session, str) else None)
    columns = width if width is not None else shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    line = render_status_line(statuses, max(columns, 0), color=color)
    if line:
        sys.stdout.write(line + "\n")
    return 0


def _read_status_input(stream: TextIO) -> dict[str, Any]:
    """Claude Code's statusLine JSON when stdin is piped; {} on a terminal or bad input."""
    try:
        if stream.isatty():
            return {}
        data = json.loads(stream.read() or "null")
    except (OSError, ValueError, AttributeError):
        return {}
    return data if isinstance(data, dict) else {}


def _project_dir(project: Path | None, status_input: dict[str, Any]) -> Path:
    if project is not None:
        return find_project_dir(project)
    workspace = status_input.get("workspace")
    if isinstance(workspace, dict):
        for key in ("project_dir", "current_dir"):
            candidate = workspace.get(key)
            if isinstance(candidate, str) and Path(candidate).is_dir():
                return find_project_dir(start=Path(candidate))
    cwd = status_input.get("cwd")
    if isinstance(cwd, str) and Path(cwd).is_dir():
        return find_project_dir(start=Path(cwd))
    return find_project_dir()


def _state_dir(project_dir: Path) -> str:
    try:
        manifest = read_manifest(str(paths.manifest_path(project_dir)))
    except ManifestError:
        return str(paths.project_state_dir(project_dir))
    return manifest.state_dir or str(paths.project_state_dir(project_dir))


def _statuses(state_dir: str, session_id: str | None) -> dict[str, str]:
    """That session's statuses; without a session, those of the most recently updated one."""
    if session_id:
        return SessionState(state_dir, session_id).read_statuses()
    sessions = Path(state_dir) / "sessions"
    candidates = [path for path in sessions.glob("*/status.json") if path.is_file()]
    if not candidates:
        return {}
    latest = max(candidates, key=lambda path: path.stat().st_mtime)
    return read_status_file(str(latest))
