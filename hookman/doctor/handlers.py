"""Walk a settings-shaped `hooks` object into handlers, and the entries the client rejects.

An invalid entry is one the client's settings schema rejects: an object where an array
belongs (or the reverse), a handler `type` the target client does not know, a command
handler without a command string.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, parse_version
from hookman.doctor.facts import key_hints
from hookman.doctor.model import Handler, Source
from hookman.doctor.names import slip_of
from hookman.project.settings_entries import is_hookman_handler
from hookman.project.settings_file import json_kind

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class InvalidEntry(NamedTuple):  # not a dataclass: those compile methods at every start
    event: str
    path: str
    reason: str


def key_path(parent: str, key: str) -> str:
    if _PLAIN_KEY.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{json.dumps(key, ensure_ascii=False)}]"


def walk_hooks(
    source: Source, version: ClientVersion | None
) -> tuple[list[Handler], list[InvalidEntry]]:
    handlers: list[Handler] = []
    invalid: list[InvalidEntry] = []
    hooks = source.data.get("hooks") if isinstance(source.data, dict) else None
    if hooks is None:
        return handlers, invalid
    if not isinstance(hooks, dict):
        invalid.append(InvalidEntry("", "hooks", f"`hooks` is {json_kind(hooks)}, not an object"))
        return handlers, invalid
    for event, groups in hooks.items():
        event_path = key_path("hooks", str(event))
        if not isinstance(groups, list):
            reason = f"{json_kind(groups)} where an array of matcher groups belongs"
            invalid.append(InvalidEntry(event, event_path, reason))
            continue
        for group_index, group in enumerate(groups):
            group_path = f"{event_path}[{group_index}]"
            _walk_group(source, event, group, group_path, version, handlers, invalid)
    return handlers, invalid


def _walk_group(
    source: Source,
    event: str,
    group: Any,
    group_path: str,
    version: ClientVersion | None,
    handlers: list[Handler],
    invalid: list[InvalidEntry],
) -> None:
    if not isinstance(group, dict):
        invalid.append(
            InvalidEntry(
                event, group_path, f"{json_kind(group)} where a matcher group (object) belongs"
            )
        )
        return
    matcher = group.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        invalid.append(
            InvalidEntry(
                event, f"{group_path}.matcher", f"the matcher is {json_kind(matcher)}, not a string"
            )
        )
        return
    entries = group.get("hooks")
    if not isinstance(entries, list):
        found = "missing" if entries is None else json_kind(entries)
        invalid.append(
            InvalidEntry(
                event,
                f"{group_path}.hooks",
                f"`hooks` is {found} where an array of handlers belongs",
            )
        )
        return
    for index, raw in enumerate(entries):
        path = f"{group_path}.hooks[{index}]"
        problem = handler_problem(raw, version)
        if problem is not None:
            invalid.append(InvalidEntry(event, path, problem))
            continue
        command = raw.get("command") if isinstance(raw.get("command"), str) else None
        handlers.append(
            Handler(
                source=source,
                path=path,
                event=event,
                matcher=matcher,
                type=raw.get("type"),
                command=command,
                timeout=_seconds(raw.get("timeout")),
                raw=raw,
                is_async=raw.get("async") is True,
                hookman=is_hookman_handler(raw),
            )
        )


def _seconds(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:
        return float("inf")


def handler_problem(raw: Any, version: ClientVersion | None) -> str | None:
    """Why the client's schema rejects this handler, or None."""
    if not isinstance(raw, dict):
        return f"{json_kind(raw)} where a handler object belongs"
    kind = raw.get("type")
    types = event_catalog.claude_code_catalog()["hook_types"]
    if not isinstance(kind, str) or kind not in types:
        known = ", ".join(types)
        return f"unknown handler type {kind!r} (Claude Code knows {known})"
    since = types[kind].get("since")
    if version is not None and since is not None and parse_version(since) > version:
        return f"the handler type {kind!r} needs Claude Code {since} or newer"
    if kind == "command" and not isinstance(raw.get("command"), str):
        meant = _key_meant_as_command(raw)
        hint = f" (`{meant}` looks meant as `command`, which Claude Code reads)" if meant else ""
        return f"a command handler without a `command` string{hint}"
    return None


def _key_meant_as_command(raw: dict[str, Any]) -> str | None:
    """A key in a command handler that was most likely meant as `command` (`cmd`, `comand`)."""
    for key in raw:
        name = str(key)
        if name != "command" and (
            key_hints("entry").get(name) == "command" or slip_of(name, ["command"])
        ):
            return name
    return None
