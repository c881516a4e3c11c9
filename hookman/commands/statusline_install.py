"""`hookman statusline --install`: write Claude Code's `statusLine` for `hookman statusline`
into the project's .claude/settings.local.json, naming this interpreter by its absolute path
(project/status_line_entry.py), so the line shows whatever PATH Claude Code runs it with.

A statusLine of someone else's in that file is never replaced; hookman's own (an older
interpreter, a bare `hookman statusline`) is. The file is kept out of git as install keeps it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookman.commands.git_wording import exclusion_sentence
from hookman.errors import HookmanError
from hookman.install.sync import LOCAL_SETTINGS_RELATIVE
from hookman.output import console, escape
from hookman.project.git_exclude import Excluded, ensure_git_ignored
from hookman.project.location import find_project_dir, local_settings_path
from hookman.project.lock import project_lock
from hookman.project.settings_file import read_settings, update_settings
from hookman.project.status_line_entry import (
    STATUS_LINE_KEY,
    hookman_status_line,
    status_line_value,
)


def install_status_line(project: Path | None) -> int:
    """Write the statusLine; say what was done. Returns the exit code."""
    project_dir = find_project_dir(project)
    path = local_settings_path(project_dir)
    wanted = status_line_value()
    with project_lock(project_dir):
        _check_not_foreign(read_settings(path).get(STATUS_LINE_KEY), path)

        def edit(settings: dict[str, Any]) -> None:
            settings[STATUS_LINE_KEY] = wanted

        change = update_settings(path, edit)
    out = console()
    state = "wrote" if change.changed else "already has"
    out.print(
        f"{state} the statusLine in {escape(LOCAL_SETTINGS_RELATIVE)}: {escape(wanted['command'])}",
        highlight=False,
    )
    kept = ensure_git_ignored(project_dir, LOCAL_SETTINGS_RELATIVE)
    if kept.outcome is not Excluded.NOT_A_WORK_TREE:
        out.print(f"{escape(LOCAL_SETTINGS_RELATIVE)}: {escape(exclusion_sentence(kept))}")
    out.print(
        "Claude Code shows it under the prompt from its next status update; "
        "`hookman doctor --probe` runs it once to check.",
        highlight=False,
    )
    return 0


def _check_not_foreign(current: Any, path: Path) -> None:
    if current is None or hookman_status_line(current) is not None:
        return
    command = current.get("command") if isinstance(current, dict) else None
    shown = f" (it runs {command!r})" if isinstance(command, str) else ""
    raise HookmanError(
        f"{path} already has a statusLine of its own{shown}, which hookman will not replace; "
        "nothing was written.",
        f"remove the statusLine from {path} (or have your command print `hookman statusline`'s "
        "line), then run `hookman statusline --install` again.",
    )
