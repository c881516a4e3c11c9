"""Answers questions about the other agents hookman serves beside Claude Code and Codex CLI:
GitHub Copilot CLI, Qwen Code and Factory droid (hookman/catalog/<agent>_events.json).

The facts are read by hookman/bridge/agent_facts.py (the runner needs them, and the bridge
is standard library only); this module adds what install, list and doctor ask: the events
per version, whether the agent is installed, its version.
"""

from __future__ import annotations

from hookman.bridge.agent_facts import (
    CATALOG_DIR,
    OTHER_AGENTS,
    SHAPE_CLAUDE_SETTINGS,
    SHAPE_HOOKS_KEY,
    SHAPE_TOP_LEVEL,
    UnknownAgent,
    agent_catalog,
    agent_from_environment,
    answer_fields,
    binary_name,
    carries_agent_flag,
    claude_tool_name,
    config_file,
    config_shape,
    deny_channels,
    disable_key,
    display_name,
    env_markers,
    hookman_first_events,
    input_renames,
    matcher_alias,
    matcher_reads_claude_names,
    measured_events,
    native_tool_names,
    stops_on,
    timeout_unit,
    tool_map,
    writes_own_file,
)
from hookman.bridge.protocol import COPILOT_AGENT, DROID_AGENT, QWEN_AGENT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookman.catalog.client_version import ClientVersion

VERSION_CACHE_NAME = "{agent}-version.json"

__all__ = [
    "CATALOG_DIR",
    "COPILOT_AGENT",
    "DROID_AGENT",
    "OTHER_AGENTS",
    "QWEN_AGENT",
    "SHAPE_CLAUDE_SETTINGS",
    "SHAPE_HOOKS_KEY",
    "SHAPE_TOP_LEVEL",
    "UnknownAgent",
    "agent_catalog",
    "agent_events",
    "agent_from_environment",
    "agent_installed",
    "answer_fields",
    "binary_name",
    "carries_agent_flag",
    "checked_versions",
    "claude_tool_name",
    "config_file",
    "config_shape",
    "deny_channels",
    "detect_agent_version",
    "disable_key",
    "display_name",
    "env_markers",
    "hookman_agent_events",
    "hookman_first_events",
    "input_renames",
    "matcher_alias",
    "matcher_reads_claude_names",
    "measured_events",
    "native_tool_names",
    "stops_on",
    "timeout_unit",
    "tool_map",
    "unguarded_tools",
    "writes_own_file",
]


def checked_versions(agent: str) -> list[ClientVersion]:
    from hookman.catalog.client_version import parse_version

    return [parse_version(text) for text in agent_catalog(agent)["versions_checked"]]


def agent_events(agent: str, version: ClientVersion | None = None) -> list[str]:
    """The events `agent` runs hooks for at `version` (None, or older than any version
    hookman checked: the oldest checked version's)."""
    from hookman.catalog.client_version import parse_version

    oldest = min(checked_versions(agent))
    target = version if version is not None and version >= oldest else oldest
    return [
        event
        for event, facts in agent_catalog(agent)["events"].items()
        if parse_version(facts["since"]) <= target
    ]


def hookman_agent_events(agent: str, version: ClientVersion | None = None) -> list[str]:
    """The events hookman may write for `agent`: those that are Claude Code events too
    (hookman's runtime serves every agent through Claude Code's event names)."""
    facts = agent_catalog(agent)["events"]
    events = agent_events(agent, version)
    return [event for event in events if facts[event].get("claude_code", True)]


def unguarded_tools(agent: str) -> dict[str, dict[str, Any]]:
    """The agent's tools that run commands or write files where no rename hands hooks
    Claude Code's shape (catalog "unguarded_tools"): native name -> {asked: the Claude Code
    tools whose hooks miss it, seen_as: the name hooks get, effect: what follows, in words}."""
    tools = agent_catalog(agent).get("unguarded_tools") or {}
    return {str(name): dict(facts) for name, facts in tools.items()}


def agent_installed(agent: str) -> bool:
    """Whether the agent's program is on PATH (docs/agents.md, "Agents per machine")."""
    import shutil

    return shutil.which(binary_name(agent)) is not None


def detect_agent_version(agent: str) -> ClientVersion | None:
    """`AGENT --version`, cached per binary like Claude Code's and Codex's."""
    from hookman.catalog.client_version import detect_version

    return detect_version(binary_name(agent), VERSION_CACHE_NAME.format(agent=agent))
