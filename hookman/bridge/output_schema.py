"""What Claude Code accepts as a command hook's JSON answer, kept as data in the catalog
(`output_field_types`, `hook_specific_output_types`, each event's `hook_specific_output`).

One wrongly typed known field makes the client refuse the whole answer ("Hook JSON output
validation failed") and read it as plain text: a deny in it is lost and the tool runs. So
every field a raw handler returns is checked here before it is merged; what does not fit is
left out and reported, and on a guarded event a misfit in a decision field
(`guard_decision_fields`) counts as a failing guard.

Read lazily, on the first raw result of a run (the runner never reads the catalog
otherwise). Hot path: standard library only, no typing or dataclasses imports.
"""

from __future__ import annotations

import os

from hookman.bridge import lean_json

SPECIFIC = "hookSpecificOutput"
EVENT_NAME = "hookEventName"
# hookman routes these texts itself, on every event: into the answer where the event takes
# them, else into the session's queue for the next event that does (dispatch.py).
ROUTED = "additionalContext"
_CATALOG = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    "catalog",
    "claude_code_events.json",
)
_TYPE_WORDS = {
    "string": "a string",
    "boolean": "true or false",
    "object": "an object",
    "string_list": "a list of strings",
}


class Misfit:
    """One field left out of the answer: where, why, and whether it carried a decision."""

    __slots__ = ("decides", "field", "why")

    def __init__(self, field: str, why: str, decides: bool) -> None:
        self.field = field
        self.why = why
        self.decides = decides

    def __str__(self) -> str:
        return f"{self.field}: {self.why}"


class OutputSchema:
    __slots__ = ("decision_fields", "events", "specific_types", "top_level")

    def __init__(self, catalog: dict) -> None:
        self.top_level: dict[str, object] = catalog["output_field_types"]
        self.specific_types: dict[str, object] = catalog["hook_specific_output_types"]
        self.decision_fields = frozenset(catalog["guard_decision_fields"])
        self.events: dict[str, dict] = catalog["events"]

    def specific_fields(self, event: str) -> dict[str, object]:
        """The hookSpecificOutput fields `event` takes, with their types (an event this
        catalog does not know: every field it knows of, with its usual type)."""
        facts = self.events.get(event)
        if facts is None:
            return self.specific_types
        overrides = facts.get("hook_specific_output_types") or {}
        return {
            name: overrides.get(name, self.specific_types.get(name, "any"))
            for name in facts.get("hook_specific_output", ())
        }

    def fit(self, result: dict[str, object], event: str) -> tuple[dict[str, object], list[Misfit]]:
        """`result` with only the fields Claude Code accepts for `event`, and what was left out."""
        kept: dict[str, object] = {}
        misfits: list[Misfit] = []
        for name, value in result.items():
            if name == SPECIFIC and isinstance(value, dict):
                kept[name] = self._fit_specific(value, event, misfits)
                continue
            wanted = self.top_level.get(name)
            problem = _unknown_field(event) if wanted is None else _misfit(value, wanted)
            if problem is None:
                kept[name] = value
            else:
                misfits.append(Misfit(name, problem, name in self.decision_fields))
        return kept, misfits

    def _fit_specific(
        self, specific: dict[str, object], event: str, misfits: list[Misfit]
    ) -> dict[str, object]:
        fields = self.specific_fields(event)
        kept: dict[str, object] = {}
        for name, value in specific.items():
            if name == EVENT_NAME:  # hookman writes the event's own name
                continue
            wanted = fields.get(name, self.specific_types[ROUTED] if name == ROUTED else None)
            problem = _unknown_field(event) if wanted is None else _misfit(value, wanted)
            path = f"{SPECIFIC}.{name}"
            if problem is None:
                kept[name] = value
            else:
                misfits.append(Misfit(path, problem, path in self.decision_fields))
        return kept


def _unknown_field(event: str) -> str:
    return f"not a field Claude Code reads on {event}"


def _misfit(value: object, wanted: object) -> str | None:
    """Why `value` is not of the catalog type `wanted` (None when it is)."""
    if isinstance(wanted, list):
        if isinstance(value, str) and value in wanted:
            return None
        return f"{lean_json.dumps(value)[:40]} is not one of {', '.join(map(repr, wanted))}"
    if wanted == "any":
        return None
    fits = {
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "object": isinstance(value, dict),
        "string_list": isinstance(value, list) and all(isinstance(item, str) for item in value),
    }.get(str(wanted), False)
    if fits:
        return None
    return f"{_json_kind(value)}, not {_TYPE_WORDS.get(str(wanted), str(wanted))}"


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


_schema: OutputSchema | None = None


def output_schema() -> OutputSchema:
    global _schema
    if _schema is None:
        with open(_CATALOG, encoding="utf-8") as handle:
            _schema = OutputSchema(lean_json.loads(handle.read()))
    return _schema
