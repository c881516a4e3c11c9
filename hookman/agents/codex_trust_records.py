"""The trust records of hookman's Codex CLI hooks, found and taken out (`hookman uninstall`).

`hookman install` asks Codex's app server to record its trust in hookman's own entries of
the project's .codex/hooks.json (agents/codex_sync.py); Codex keeps each record in
CODEX_HOME/config.toml as `[hooks.state."<key>"]`, the key being
`<path of hooks.json>:<event in snake case>:<group index>:<handler index>`. A record is
hookman's when its key names the project's .codex/hooks.json at the place of one of
hookman's handlers there. Only those are taken out, with tomlkit, so everything else in the
file (the user's settings, the trust in their own hooks, comments and layout) stays.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from hookman.agents.codex_files import codex_hooks_path
from hookman.atomic_file import atomic_write_text
from hookman.errors import HookmanError
from hookman.paths import codex_home
from hookman.project.settings_entries import is_hookman_command
from hookman.toml_data import read_toml_file

HOOKS_TABLE = "hooks"
STATE_TABLE = "state"
_CAPITAL = re.compile(r"(?<!^)(?=[A-Z])")


class TrustRecords(NamedTuple):
    """hookman's trust records in Codex's config: the file and the keys to take out."""

    config_path: Path
    keys: list[str]


def codex_config_path() -> Path:
    return codex_home() / "config.toml"


def hookman_trust_records(project_dir: Path, hooks_file: dict[str, Any]) -> TrustRecords | None:
    """The records in Codex's config.toml of hookman's handlers in `hooks_file` (the
    project's .codex/hooks.json as parsed now); None when there are none (or no config)."""
    places = _hookman_places(hooks_file)
    if not places:
        return None
    config_path = codex_config_path()
    hooks = (read_toml_file(config_path) or {}).get(HOOKS_TABLE)
    state = hooks.get(STATE_TABLE) if isinstance(hooks, dict) else None
    if not isinstance(state, dict):
        return None
    source = os.path.realpath(codex_hooks_path(project_dir))
    keys = [key for key in state if _names_place(key, source, places)]
    return TrustRecords(config_path, keys) if keys else None


def remove_trust_records(records: TrustRecords) -> None:
    """Take `records.keys` out of Codex's config.toml (comments and layout kept); a
    `[hooks.state]` (and `[hooks]`) left empty goes too."""
    import tomlkit

    path = records.config_path
    try:
        document = tomlkit.parse(path.read_text(encoding="utf-8"))
        hooks = document[HOOKS_TABLE]
        state = hooks[STATE_TABLE]  # type: ignore[index]
        for key in records.keys:
            if key in state:  # type: ignore[operator]
                del state[key]  # type: ignore[union-attr]
        if not state:
            del hooks[STATE_TABLE]  # type: ignore[union-attr]
        if not hooks:
            del document[HOOKS_TABLE]
        text = tomlkit.dumps(document)
        # Codex puts a blank line above each table it adds (measured on 0.150.0 and
        # 0.171.0); tomlkit keeps it as the end of the table before, so it goes here.
        atomic_write_text(path, text.rstrip("\n") + "\n" if text.strip() else "")
    except (OSError, ValueError, KeyError, tomlkit.exceptions.TOMLKitError) as error:
        raise HookmanError(
            f"hookman cannot take its trust records out of {path}: {error}.",
            f"remove the [hooks.state] keys naming {codex_hooks_path(Path('.')).as_posix()} "
            "by hand (`codex` records them again when you trust hooks).",
        ) from None


def _hookman_places(hooks_file: dict[str, Any]) -> set[tuple[str, int, int]]:
    """(event in snake case, group index, handler index) of each hookman handler."""
    places: set[tuple[str, int, int]] = set()
    hooks = hooks_file.get("hooks")
    if not isinstance(hooks, dict):
        return places
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for group_index, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler_index, handler in enumerate(handlers or []):
                command = handler.get("command") if isinstance(handler, dict) else None
                if isinstance(command, str) and is_hookman_command(command):
                    places.add((_snake(event), group_index, handler_index))
    return places


def _names_place(key: str, source: str, places: set[tuple[str, int, int]]) -> bool:
    parts = key.rsplit(":", 3)
    if len(parts) != 4 or not parts[2].isdigit() or not parts[3].isdigit():
        return False
    path, event, group, handler = parts
    if os.path.realpath(path) != source:
        return False
    return (event, int(group), int(handler)) in places


def _snake(event: str) -> str:
    return _CAPITAL.sub("_", event).lower()
