"""Answers questions about the event catalog (hookman/catalog/*.json); all facts are data.

Two namespaces of event names: Claude Code events (`PreToolUse`, ...) and runtime (pi)
events (`tool_call`, ...). A hook may subscribe to either; each subscription is served by
zero or more Claude Code events. Standard library only.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from pathlib import Path
from typing import Any

from hookman.client_version import ClientVersion, parse_version

CATALOG_DIR = Path(__file__).parent / "catalog"
TOOL_MATCHER_FIELD = "tool_name"
CONTEXT_CHANNEL_FIELD = "additionalContext"


@cache
def claude_code_catalog() -> dict[str, Any]:
    return _read_json("claude_code_events.json")


@cache
def runtime_catalog() -> dict[str, Any]:
    return _read_json("runtime_events.json")


def _read_json(name: str) -> dict[str, Any]:
    with (CATALOG_DIR / name).open(encoding="utf-8") as handle:
        return json.load(handle)


def claude_events() -> list[str]:
    """Every Claude Code event, in catalog order."""
    return list(claude_code_catalog()["events"])


def runtime_events() -> list[str]:
    """Every runtime (pi) event, in catalog order."""
    return list(runtime_catalog()["events"])


def is_claude_event(name: str) -> bool:
    return name in claude_code_catalog()["events"]


def is_runtime_event(name: str) -> bool:
    return name in runtime_catalog()["events"]


def is_known_event(name: str) -> bool:
    return is_claude_event(name) or is_runtime_event(name)


def claude_events_serving(subscription: str) -> list[str]:
    """The Claude Code events that deliver `subscription`: a runtime name maps through
    runtime_events.json, a Claude Code name serves itself, anything else gets none."""
    if is_claude_event(subscription):
        return [subscription]
    if is_runtime_event(subscription):
        return list(runtime_catalog()["events"][subscription]["claude_events"])
    return []


def runtime_events_never_sent() -> list[str]:
    """Runtime events no Claude Code event delivers (Python API and `hookman fire` only)."""
    events = runtime_catalog()["events"]
    return [name for name, facts in events.items() if not facts["claude_events"]]


def is_tool_subscription(subscription: str) -> bool:
    """True when `tools=[...]` on this subscription narrows a Claude Code tool matcher."""
    if is_runtime_event(subscription):
        return bool(runtime_catalog()["events"][subscription].get("tool_event", False))
    return is_claude_event(subscription) and matcher_field(subscription) == TOOL_MATCHER_FIELD


def since(event: str) -> ClientVersion:
    """The first Claude Code version that knows `event` (a Claude Code event name)."""
    return parse_version(claude_code_catalog()["events"][event]["since"])


def oldest_supported_client() -> ClientVersion:
    return parse_version(claude_code_catalog()["oldest_supported_client"])


def unknown_event_tolerated_since() -> ClientVersion:
    return parse_version(claude_code_catalog()["unknown_event_tolerated_since"])


def may_write(event: str, version: ClientVersion | None) -> bool:
    """May a settings file for client `version` name `event`?

    Only when that client knows it: older clients skip the whole file for an unknown name,
    newer ones drop the entry (so it would never run anyway). An unknown version (None)
    gets only the events every supported client knows.
    """
    if not is_claude_event(event):
        return False
    floor = version if version is not None else oldest_supported_client()
    return since(event) <= floor


def matcher_field(event: str) -> str | None:
    """The payload field a matcher is tested against, or None when the event ignores it."""
    return claude_code_catalog()["events"][event]["matcher_field"]


def has_context_channel(event: str) -> bool:
    """Whether the event's output can carry `additionalContext` to the model."""
    fields = claude_code_catalog()["events"][event]["hook_specific_output"]
    return CONTEXT_CHANNEL_FIELD in fields


def session_end_budget_cap_s() -> float:
    return claude_code_catalog()["session_end_budget"]["raised_by_largest_timeout_up_to_ms"] / 1000


def did_you_mean(name: str) -> str | None:
    """The closest event name in either namespace, case-insensitively, or None."""
    candidates = [*claude_events(), *runtime_events()]
    by_folded = {_fold(candidate): candidate for candidate in candidates}
    folded = _fold(name)
    if folded in by_folded:
        return by_folded[folded]
    close = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=0.6)
    return by_folded[close[0]] if close else None


def _fold(name: str) -> str:
    return name.casefold()
