"""Which events a project's settings.local.json has hookman's entries for, the path each
takes (the warm server's http entry, or the launcher's command) and the matcher it runs
for, read as leanly as the runner reads its timeouts (bridge/entry_timeout.py: no urllib,
no shlex): `hookman list` shows an event no entry serves, or a tool its matcher leaves out
(project/install_plan.py `covers`), as not installed here, on every run."""

from __future__ import annotations

import os
from typing import Literal, NamedTuple

from hookman.bridge import lean_json
from hookman.bridge.entry_timeout import (
    SETTINGS_FILE,
    agent_entries_file,
    matched_handlers_in,
    runs_launcher_for,
    serves_event,
)
from hookman.bridge.protocol import SENTINEL_STAMP_NAME
from hookman.bridge.serve_proof import ASYNC_QUERY
from hookman.bridge.state_file import read_regular

EntryPath = Literal["server", "command"]


class InstalledEntry(NamedTuple):
    path: EntryPath
    matcher: str | None  # its matcher group's (None: the group has none: every tool)


def installed_entries(
    project_dir: str, relative: str = SETTINGS_FILE, events_key: str | None = "hooks"
) -> dict[tuple[str, bool], InstalledEntry]:
    """(event, async) -> the path and matcher of the first hookman entry for it (the client
    runs them in order) in settings.local.json, or in another agent's hooks file
    (`relative`: Codex's .codex/hooks.json, Qwen Code's, droid's with its events at the
    top level: `events_key` None); sentinels left out (always commands, beside a blocking
    entry). Empty when the file is missing, unreadable or not JSON."""
    try:
        loaded = lean_json.loads(read_regular(os.path.join(project_dir, relative), follow=True))
        hooks = loaded if events_key is None else loaded[events_key]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return {}
    found: dict[tuple[str, bool], InstalledEntry] = {}
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for matcher, handler in matched_handlers_in(groups):
            kind = _entry(handler, event)
            if kind is not None:
                found.setdefault(kind[0], InstalledEntry(kind[1], matcher))
    return found


def agent_installed_entries(
    project_dir: str, agent: str | None
) -> dict[tuple[str, bool], InstalledEntry]:
    """`installed_entries` of the file `agent` runs its entries from (None: Claude Code's
    settings.local.json; Copilot CLI runs those too; Codex, Qwen Code, droid their own)."""
    relative, top_level = agent_entries_file(agent)
    return installed_entries(project_dir, relative, None if top_level else "hooks")


def _entry(handler: dict[str, object], event: str) -> tuple[tuple[str, bool], EntryPath] | None:
    url, command = handler.get("url"), handler.get("command")
    if handler.get("type") == "http" and isinstance(url, str):
        base, _, query = url.partition("?")
        if serves_event(base, event):
            return (event, ASYNC_QUERY in query.split("&")), "server"
        return None
    if not isinstance(command, str) or SENTINEL_STAMP_NAME in command:
        return None
    if runs_launcher_for(command, event):
        return (event, " --async" in command), "command"
    return None
