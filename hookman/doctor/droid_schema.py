"""Where droid's schema refuses a hooks file (droid then skips the whole file without a
word): doctor's droid-file-ignored (findings_droid) and the foreign-hook check
(foreign_hooks) ask the same question."""

from __future__ import annotations

from typing import Any

from hookman.catalog.agent_catalog import agent_events
from hookman.doctor.agent_files import doctor_facts_of

AGENT = "droid"


def schema_problem(hooks: dict[str, Any], hooks_key: str | None) -> tuple[str, str] | None:
    events = set(agent_events(AGENT))
    types = list(doctor_facts_of(AGENT)["entry_types"])
    for event, groups in hooks.items():
        if event not in events:
            continue  # droid drops unknown keys (reported as droid-unknown-event)
        at = f"{hooks_key}.{event}" if hooks_key else event
        if not isinstance(groups, list):
            return at, "an event that is not a list of matcher groups"
        for index, group in enumerate(groups):
            problem = _group_problem(group, f"{at}[{index}]", types)
            if problem is not None:
                return problem
    return None


def _group_problem(group: Any, at: str, types: list[str]) -> tuple[str, str] | None:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return at, "a matcher group without a `hooks` list"
    for key in ("matcher", "commandRegex"):
        if key in group and not isinstance(group[key], str):
            return f"{at}.{key}", f"a `{key}` that is not a string"
    for position, entry in enumerate(group["hooks"]):
        where = f"{at}.hooks[{position}]"
        if not isinstance(entry, dict):
            return where, "an entry that is not an object"
        if entry.get("type") not in types:
            return where, f"an entry of type {entry.get('type')!r}"
        if not isinstance(entry.get("command"), str):
            return where, "an entry without a `command` string"
        timeout = entry.get("timeout")
        numeric = isinstance(timeout, int | float) and not isinstance(timeout, bool)
        if "timeout" in entry and not numeric:
            return where, "a `timeout` that is not a number"
    return None
