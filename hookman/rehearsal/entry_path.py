"""Which path the installed entry for an event takes (`hookman fire`): Claude Code posts to the
warm hook server (an http entry, `hookman serve`) or runs the command (the launcher starts the
runner). The answer `fire` shows is the runner's either way: the server's child runs the same
runner code (hookman/bridge/run_command.py) on the same manifest."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman.errors import HookmanError

if TYPE_CHECKING:
    from hookman.json_shapes import FireEntryJson

SERVER = "server"
COMMAND = "command"
NONE = "none"  # no blocking entry of hookman's for the event in settings.local.json


def installed_entry(project_dir: Path, event: str) -> FireEntryJson:
    """The blocking entry of hookman's for `event` in settings.local.json, as fire says it."""
    from hookman.project.settings_entries import (
        BLOCKING,
        ON_FAILURE_KEY,
        find_hookman_entries,
        hookman_handler_kind,
        hookman_http_port,
    )

    for entry_event, handler in find_hookman_entries(_settings(project_dir)):
        if entry_event != event or hookman_handler_kind(handler) != BLOCKING:
            continue
        port = hookman_http_port(handler)
        if port is not None:
            on_failure = handler.get(ON_FAILURE_KEY)
            return {
                "path": SERVER,
                "port": port,
                "on_failure": on_failure if isinstance(on_failure, str) else None,
            }
        return {"path": COMMAND, "port": None, "on_failure": None}
    return {"path": NONE, "port": None, "on_failure": None}


def _settings(project_dir: Path) -> dict[str, Any]:
    from hookman.project.location import local_settings_path
    from hookman.project.settings_file import read_settings

    try:
        return read_settings(local_settings_path(project_dir))
    except (HookmanError, OSError, ValueError):
        return {}
