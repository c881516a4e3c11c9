"""Answers questions about the event catalog (hookman/catalog/*.json); all facts are data.

Two namespaces of event names: Claude Code events (`PreToolUse`, ...) and runtime (pi)
events (`tool_call`, ...). A hook may subscribe to either; each subscription is served by
zero or more Claude Code events. Standard library only.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from hookman.bridge.protocol import PRE_TOOL_USE as PRE_TOOL_USE  # one home; read here by doctor
from hookman.catalog.client_version import ClientVersion, parse_version

CATALOG_DIR = Path(__file__).parent
TOOL_MATCHER_FIELD = "tool_name"
CONTEXT_CHANNEL_FIELD = "additionalContext"
POST_TOOL_USE = "PostToolUse"
UPDATED_TOOL_OUTPUT_FIELD = "updatedToolOutput"
ALL_TOOLS = "*"


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


def claude_events_for(subscription: str, tools: Sequence[str] | None) -> list[str]:
    """The Claude Code events that deliver `subscription` to a hook asking for `tools`
    (None: every tool). An event whose payload can only name some tools (`tool_names`:
    PreSkillShellCommand names Bash or PowerShell) serves the hook only when `tools`
    includes one of them."""
    return [
        event for event in claude_events_serving(subscription) if event_tools(event, tools) != ()
    ]


def event_tools(event: str, tools: Sequence[str] | None) -> tuple[str, ...] | None:
    """The tools of `tools` that `event` can name, for its matcher: None means every tool
    it can name; () means none, so the hook needs no entry there."""
    if tools is None or ALL_TOOLS in tools:
        return None
    possible = _event(event).get("tool_names")
    if possible is None:
        return tuple(tools)
    return tuple(name for name in tools if name in possible)


def known_tool_names() -> list[str]:
    """The built-in tool names the catalog knows (an `mcp__...` pattern is no name)."""
    names = [*claude_code_catalog()["tool_names"]]
    for event in claude_events():
        names.extend(_event(event).get("tool_names", ()))
    return [name for name in dict.fromkeys(names) if "<" not in name]


def miscased_tool(name: str) -> str | None:
    """The known tool `name` differs from only in case ("bash" -> "Bash"), else None:
    matchers are exact and case-sensitive, so such a name matches no tool."""
    if name in known_tool_names():
        return None
    folded = name.casefold()
    return next((known for known in known_tool_names() if known.casefold() == folded), None)


def guards(event: str) -> str:
    """What a guarded event guards ("the agent's tool calls", ...)."""
    return str(_event(event).get("guards", f"what {event} gates"))


def held_back_effect(event: str) -> str | None:
    """What a user loses when `event` is held back, where that is not obvious."""
    return _event(event).get("held_back_effect")


def is_tool_subscription(subscription: str) -> bool:
    """True when `tools=[...]` on this subscription narrows a Claude Code tool matcher."""
    if is_runtime_event(subscription):
        return bool(runtime_catalog()["events"][subscription].get("tool_event", False))
    return is_claude_event(subscription) and matcher_field(subscription) == TOOL_MATCHER_FIELD


def since(event: str) -> ClientVersion:
    """The first Claude Code version that knows `event` (a Claude Code event name)."""
    return parse_version(claude_code_catalog()["events"][event]["since"])


def newest_checked_client() -> ClientVersion:
    """The newest Claude Code version whose facts hookman has checked; a newer target is
    assumed to behave like it."""
    return parse_version(claude_code_catalog()["newest_checked_version"])


def guarded_events() -> list[str]:
    """Events on which hookman fails closed (a deny unless every guard ran and allowed)."""
    return [event for event in claude_events() if _event(event).get("guarded", False)]


def updated_input_blocks_events() -> list[str]:
    """Events where the client refuses a command whose input a hook changed (updatedInput)."""
    return [e for e in claude_events() if _event(e).get("updated_input_blocks", False)]


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
    return CONTEXT_CHANNEL_FIELD in _event(event)["hook_specific_output"]


def context_starts_turn(event: str) -> bool:
    """Whether `additionalContext` on `event` gives the model another turn (Stop-like)."""
    return bool(_event(event).get("additional_context_starts_turn", False))


def is_message_channel(event: str) -> bool:
    """Whether a `send_message` text may be delivered on `event`: it has additionalContext
    and that does not start a turn (docs/hook-api.md, "Under Claude Code")."""
    return has_context_channel(event) and not context_starts_turn(event)


def message_channel_events() -> list[str]:
    return [event for event in claude_events() if is_message_channel(event)]


def turn_channel_events() -> list[str]:
    """Events whose additionalContext reaches the model by starting another turn."""
    return [e for e in claude_events() if has_context_channel(e) and context_starts_turn(e)]


def tool_events() -> list[str]:
    """Events whose payload names a tool (their model-facing texts say `Event:Tool`)."""
    return [event for event in claude_events() if matcher_field(event) == TOOL_MATCHER_FIELD]


def plain_stdout_events() -> list[str]:
    """Events where plain stdout (exit 0, not JSON) reaches the model."""
    return [e for e in claude_events() if _event(e)["plain_stdout_reaches_model"]]


def exit2_blocking_events() -> list[str]:
    """Events that exit 2 is established to block (null in the catalog counts as no)."""
    return [e for e in claude_events() if _event(e)["exit2_blocks"] is True]


def output_field_since(event: str, field: str) -> ClientVersion | None:
    """The first client known to honour `field` of the event's hookSpecificOutput, or None
    when the catalog records no later start than the event's own."""
    since_version = _event(event).get("hook_specific_output_since", {}).get(field)
    return None if since_version is None else parse_version(since_version)


def supports_output_field(event: str, field: str, version: ClientVersion | None) -> bool | None:
    """Whether client `version` honours `field` on `event`; None when the version is
    unknown and the answer depends on it."""
    if field not in _event(event)["hook_specific_output"]:
        return False
    first = output_field_since(event, field)
    if first is None:
        return True
    return None if version is None else version >= first


def can_update_tool_output(version: ClientVersion | None) -> bool | None:
    """Whether PostToolUse `updatedToolOutput` replaces any tool's output on `version`."""
    return supports_output_field(POST_TOOL_USE, UPDATED_TOOL_OUTPUT_FIELD, version)


def model_text(event: str, field: str, version: ClientVersion | None) -> str | None:
    """The template of what the model reads for `field` of an answer on `event`, for client
    `version` (catalog `model_text`; {label}, {reason} and {text} are filled in later)."""
    forms = _event(event).get("model_text", {}).get(field)
    return default_model_text(field, version) if forms is None else _form_for(forms, version)


def default_model_text(field: str, version: ClientVersion | None) -> str | None:
    """The template for `field` on events whose own catalog entry does not override it."""
    forms = claude_code_catalog().get("model_text", {}).get(field)
    return None if forms is None else _form_for(forms, version)


def _form_for(forms: dict[str, str], version: ClientVersion | None) -> str:
    """The form of the newest measured version at or below `version`; the oldest form when
    `version` predates them all, the newest when it is unknown."""
    by_version = sorted((parse_version(key), text) for key, text in forms.items())
    if version is None:
        return by_version[-1][1]
    chosen = by_version[0][1]
    for measured, text in by_version:
        if measured <= version:
            chosen = text
    return chosen


def _event(event: str) -> dict[str, Any]:
    return claude_code_catalog()["events"][event]


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
