"""`hookman statusline`: the status line built from the hooks' `set_status` texts.

Usable as Claude Code's `statusLine` command: Claude Code pipes a JSON object with
`session_id` and `workspace` to it on every status update; the texts of that session of that
project are shown, sorted, sanitised and cut to the width (render_status_line).

Like `hookman run`, it runs on the lean path (hookman/__main__.py routes it here before the
CLI layer loads): standard library and hookman's lean modules only, no pathlib.
"""

from __future__ import annotations

import os
import sys

from hookman import user_dirs
from hookman.bridge import lean_json
from hookman.bridge.manifest_reader import ManifestError, read_manifest
from hookman.bridge.session_state import SessionState, read_status_file
from hookman.commands.options import PROJECT, Option, cli_command
from hookman.errors import HookmanError
from hookman.project.location import checked_project_dir, project_root
from hookman.runtime.status_line import render_status_line

TYPE_CHECKING = False  # not `typing`: the client runs the status line every few seconds
if TYPE_CHECKING:
    from typing import Any, TextIO

DEFAULT_WIDTH = 80


@cli_command(
    "statusline",
    Option("--width", metavar="N", type="int", help="Columns (default: terminal width)."),
    Option(
        "--install",
        flag=True,
        help="Write Claude Code's statusLine for it into .claude/settings.local.json, with "
        "this Python's absolute path (the client's PATH may lack hookman).",
    ),
    PROJECT,
    help="""Print the status line built from the hooks' set_status texts.

    Use it as Claude Code's statusLine command: Claude Code pipes its status JSON on stdin.
    `--install` writes that statusLine for this project.""",
    examples=("hookman statusline --install", "hookman statusline --width 60 < status.json"),
)
def statusline(
    *,
    width: int | None = None,
    install: bool = False,
    project: Any = None,
    stdin: TextIO | None = None,
) -> int:
    """Print the line; `project` is the --project directory (str or Path) or None.
    `install`: write the statusLine instead (commands/statusline_install.py)."""
    if install:
        from pathlib import Path

        from hookman.commands.statusline_install import install_status_line

        return install_status_line(None if project is None else Path(project))
    status_input = _read_status_input(stdin if stdin is not None else sys.stdin)
    project_dir = _project_dir(None if project is None else str(project), status_input)
    state_dir = _state_dir(project_dir)
    session = status_input.get("session_id")
    statuses = _statuses(state_dir, session if isinstance(session, str) else None)
    columns = width if width is not None else _terminal_columns()
    color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    line = render_status_line(statuses, max(columns, 0), color=color)
    if line:
        sys.stdout.write(line + "\n")
    return 0


def lean_main(argv: list[str]) -> int | None:
    """`hookman statusline ARGS` without the CLI layer; None when the arguments need it
    (--help, anything unexpected), so typer prints the help or the usage error."""
    options = _parse_lean_argv(argv)
    if options is None:
        return None
    width, project = options
    try:
        return statusline(width=width, project=project)
    except HookmanError as error:
        sys.stderr.write(f"hookman: {error.message}\n")
        if error.hint:
            sys.stderr.write(f"  hint: {error.hint}\n")
        return error.exit_code


def _parse_lean_argv(argv: list[str]) -> tuple[int | None, str | None] | None:
    width: int | None = None
    project: str | None = None
    words = iter(argv)
    for word in words:
        name, equals, value = word.partition("=")
        if name not in ("--width", "--project"):
            return None
        if not equals:
            value = next(words, None)  # type: ignore[assignment]
            if value is None:
                return None
        if name == "--project":
            project = value
            continue
        try:
            width = int(value)
        except ValueError:
            return None
    return width, project


def _terminal_columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or DEFAULT_WIDTH
    except (AttributeError, ValueError, OSError):
        return DEFAULT_WIDTH


def _read_status_input(stream: TextIO) -> dict[str, Any]:
    """Claude Code's statusLine JSON when stdin is piped; {} on a terminal or bad input."""
    try:
        if stream.isatty():
            return {}
        data = lean_json.loads(stream.read() or "null")
    except (OSError, ValueError, AttributeError):
        return {}
    return data if isinstance(data, dict) else {}


def _project_dir(project: str | None, status_input: dict[str, Any]) -> str:
    if project is not None:
        return checked_project_dir(project)
    workspace = status_input.get("workspace")
    if isinstance(workspace, dict):
        for key in ("project_dir", "current_dir"):
            candidate = workspace.get(key)
            if isinstance(candidate, str) and os.path.isdir(candidate):
                return project_root(candidate)
    cwd = status_input.get("cwd")
    if isinstance(cwd, str) and os.path.isdir(cwd):
        return project_root(cwd)
    return project_root(os.getcwd())


def _state_dir(project_dir: str) -> str:
    try:
        manifest = read_manifest(user_dirs.manifest_path(project_dir))
    except ManifestError:
        return user_dirs.project_state_dir(project_dir)
    return manifest.state_dir or user_dirs.project_state_dir(project_dir)


def _statuses(state_dir: str, session_id: str | None) -> dict[str, str]:
    """That session's statuses; without a session, those of the most recently updated one."""
    if session_id:
        return SessionState(state_dir, session_id).read_statuses()
    sessions = os.path.join(state_dir, "sessions")
    try:
        names = os.listdir(sessions)
    except OSError:
        return {}
    latest: tuple[float, str] | None = None
    for name in names:
        path = os.path.join(sessions, name, "status.json")
        try:
            modified = os.stat(path).st_mtime
        except OSError:
            continue
        if latest is None or modified > latest[0]:
            latest = (modified, path)
    return {} if latest is None else read_status_file(latest[1])
