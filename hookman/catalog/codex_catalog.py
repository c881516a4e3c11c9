"""Answers questions about Codex CLI's hook facts (hookman/catalog/codex_events.json).

Codex's events carry Claude Code's names (PreToolUse, Stop, ...) in its hooks.json, so a
Claude Code event hookman plans is written for Codex when the installed Codex version knows
it. Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from hookman.catalog.client_version import ClientVersion, detect_version, parse_version

CATALOG_DIR = Path(__file__).parent
VERSION_CACHE_NAME = "codex-version.json"


@cache
def codex_catalog() -> dict[str, Any]:
    with (CATALOG_DIR / "codex_events.json").open(encoding="utf-8") as handle:
        return json.load(handle)


def checked_versions() -> list[ClientVersion]:
    return [parse_version(text) for text in codex_catalog()["versions_checked"]]


def oldest_checked() -> ClientVersion:
    return min(checked_versions())


def newest_checked() -> ClientVersion:
    return max(checked_versions())


def codex_events(version: ClientVersion | None) -> list[str]:
    """The events Codex `version` runs hooks for (None, or older than any version hookman
    checked: the oldest checked version's events)."""
    target = version if version is not None and version >= oldest_checked() else oldest_checked()
    return [
        event
        for event, facts in codex_catalog()["events"].items()
        if parse_version(facts["since"]) <= target
    ]


def hookman_codex_events(version: ClientVersion | None) -> list[str]:
    """The events hookman may write for Codex `version`: those that are Claude Code events
    too (hookman's runtime serves Codex through Claude Code's event names)."""
    facts = codex_catalog()["events"]
    return [event for event in codex_events(version) if facts[event].get("claude_code", True)]


def timeout_cap(event: str) -> float | None:
    """The most seconds Codex gives a hook of `event` (it clamps longer timeouts)."""
    cap = codex_catalog()["timeout_caps"].get(event)
    return None if cap is None else float(cap)


def snake_name(event: str) -> str:
    """The event's name in Codex's hook keys (`pre_tool_use`)."""
    return str(codex_catalog()["events"][event]["snake"])


def answer_fields() -> dict[str, dict[str, list[str]]]:
    """Per event, the answer fields Codex honours: `top` keys and `specific` keys of
    hookSpecificOutput (the manifest carries them to the runner)."""
    return {event: dict(fields) for event, fields in codex_catalog()["answers"].items()}


def detect_codex_version() -> ClientVersion | None:
    """`codex --version` ("codex-cli 0.171.0"), cached per binary like Claude Code's."""
    return detect_version("codex", VERSION_CACHE_NAME)


def codex_installed() -> bool:
    """Whether Codex CLI is installed on this machine: a `codex` program on PATH (what
    `codex --version`, the trust step and doctor run). A project's committed `agents` list
    wires Codex only where this holds (docs/agents.md, "Agents per machine")."""
    import shutil

    return shutil.which("codex") is not None


def hook_tool_names() -> list[str]:
    """The tool names Codex's hooks were measured to receive in their payloads (`Bash` for
    its shell tool, exec_command; its other tools under their own names)."""
    return list(dict.fromkeys(codex_catalog()["hook_tools"]["sent"].values()))


def never_sent_tools(tools: Iterable[str]) -> list[str]:
    """Of `tools` (names a hook asks for), Claude Code's built-in tools that Codex names in
    no hook payload: it offers no tool by that name (catalog "hook_tools"), so a hook that
    asks only for them never runs under Codex. Names hookman has no facts for (MCP tools,
    a misspelling) are never counted."""
    from hookman.catalog.event_catalog import known_tool_names

    claude = set(known_tool_names())
    sent = set(hook_tool_names())
    return [name for name in dict.fromkeys(tools) if name in claude and name not in sent]
