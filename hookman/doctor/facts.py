"""The facts doctor applies, from hookman/catalog/doctor_facts.json (data, not literals)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from hookman.catalog.client_version import ClientVersion, parse_version
from hookman.catalog.event_catalog import CATALOG_DIR, claude_code_catalog, newest_checked_client

ANY_EVENT = "*"


@cache
def doctor_facts() -> dict[str, Any]:
    with (CATALOG_DIR / "doctor_facts.json").open(encoding="utf-8") as handle:
        return json.load(handle)


def for_version(forms: dict[str, Any], version: ClientVersion | None) -> Any:
    """The form of the newest measured version at or below `version` (the oldest form below
    them all; an unknown version is taken as the newest client hookman has facts for)."""
    target = version if version is not None else newest_checked_client()
    by_version = sorted((parse_version(key), value) for key, value in forms.items())
    chosen = by_version[0][1]
    for measured, value in by_version:
        if measured <= target:
            chosen = value
    return chosen


def exact_list_syntax(version: ClientVersion | None) -> dict[str, Any]:
    return for_version(doctor_facts()["matcher"]["exact_list_syntax"], version)


def match_all_matchers() -> list[str]:
    return list(doctor_facts()["matcher"]["match_all"])


def invalid_entry_silences_file(event: str, version: ClientVersion | None) -> bool:
    events = for_version(doctor_facts()["invalid_entry_silences_file"], version)
    return events == ANY_EVENT or event in events


def matcher_values(event: str, version: ClientVersion | None) -> list[str] | None:
    """The values the client's schema enumerates for `event`'s matcher field, as target
    `version` has them (None: not enumerated)."""
    forms = doctor_facts()["matcher"]["values_by_event"].get(event)
    return None if forms is None else list(for_version(forms, version))


@cache
def group_keys() -> tuple[str, ...]:
    return tuple(doctor_facts()["settings_keys"]["group"])


def entry_keys(kind: str, version: ClientVersion | None) -> frozenset[str] | None:
    """The keys the target client reads in a hook entry of type `kind` (None: unknown type)."""
    return _entry_keys(version).get(kind)


def newest_entry_keys(kind: str) -> frozenset[str]:
    return _entry_keys(None).get(kind, frozenset())


@cache
def _entry_keys(version: ClientVersion | None) -> dict[str, frozenset[str]]:
    table = for_version(doctor_facts()["settings_keys"]["entry"], version)
    keys = {kind: frozenset(names) for kind, names in table.items()}
    if version is not None and "command" in keys:
        # Below the oldest binary read, the event catalog's `since` of each command field.
        fields = claude_code_catalog()["command_hook_fields"]
        keys["command"] = frozenset(
            key
            for key in keys["command"]
            if (fields.get(key) or {}).get("since") is None
            or parse_version(fields[key]["since"]) <= version
        )
    return keys


@cache
def key_hints(level: str) -> dict[str, str]:
    """Misplaced or misspelled keys and the key they most likely meant (`group` | `entry`)."""
    return dict(doctor_facts()["settings_keys"][f"{level}_hints"])


@cache
def harmless_keys() -> frozenset[str]:
    return frozenset(doctor_facts()["settings_keys"]["harmless"])


def variables_never_set() -> dict[str, str]:
    """Variable name -> the payload field that holds what it was meant to."""
    return dict(doctor_facts()["variables_never_set"]["names"])


def script_text_facts() -> dict[str, Any]:
    return doctor_facts()["script_text"]
