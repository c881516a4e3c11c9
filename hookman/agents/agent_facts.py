"""What install needs to know of the agents besides Claude Code and Codex CLI (GitHub Copilot
CLI, Qwen Code, Factory droid), read from hookman/catalog/agents.json: the program, the
project file hookman writes its entries into and where the events sit in it, the events each
version runs hooks for, and the agent's tool names for the Claude Code names hooks know.

Standard library only (config.py reads the agent names).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from hookman.catalog.agent_names import COPILOT_AGENT, DROID_AGENT, OTHER_AGENTS, QWEN_AGENT
from hookman.catalog.client_version import ClientVersion, detect_version, parse_version

__all__ = ["COPILOT_AGENT", "DROID_AGENT", "OTHER_AGENTS", "QWEN_AGENT"]

CATALOG_FILE = Path(__file__).parent.parent / "catalog" / "agents.json"


class HooksFile(NamedTuple):
    """The project file an agent reads hooks from: its path relative to the project, and the
    key its events sit under (None: at the top level of the file)."""

    relative: str
    events_key: str | None


@cache
def _catalog() -> dict[str, Any]:
    with CATALOG_FILE.open(encoding="utf-8") as handle:
        return json.load(handle)


def facts(agent: str) -> dict[str, Any]:
    return dict(_catalog()["agents"][agent])


def display_name(agent: str) -> str:
    return str(facts(agent)["display"])


def program(agent: str) -> str:
    return str(facts(agent)["program"])


def hooks_file(agent: str) -> HooksFile | None:
    """Where hookman writes the agent's entries (None: nowhere of its own: Copilot CLI runs
    the entries of .claude/settings.local.json)."""
    known = facts(agent)
    relative = known.get("hooks_file")
    return None if relative is None else HooksFile(str(relative), known.get("events_key"))


def file_agents() -> tuple[str, ...]:
    """The agents hookman writes a file of their own for, in OTHER_AGENTS order."""
    return tuple(agent for agent in OTHER_AGENTS if hooks_file(agent) is not None)


def checked_versions(agent: str) -> list[ClientVersion]:
    return [parse_version(text) for text in facts(agent)["versions_checked"]]


def oldest_checked(agent: str) -> ClientVersion:
    return min(checked_versions(agent))


def newest_checked(agent: str) -> ClientVersion:
    return max(checked_versions(agent))


def agent_events(agent: str, version: ClientVersion | None) -> list[str]:
    """The Claude Code events the agent's `version` runs hooks for (None, or older than any
    version checked: the oldest checked version's), in the catalog's order; events of the
    agent's own that Claude Code lacks are left out (hookman serves Claude Code's)."""
    oldest = oldest_checked(agent)
    target = version if version is not None and version >= oldest else oldest
    return [
        event
        for event, known in facts(agent)["events"].items()
        if known.get("claude_code", True) and parse_version(known["since"]) <= target
    ]


def claude_tool_names(agent: str) -> dict[str, str]:
    """The agent's own tool name -> the Claude Code name hooks see (the runner's mapping)."""
    return {str(own): str(claude) for own, claude in facts(agent).get("tools", {}).items()}


def own_tool_names(agent: str, claude_name: str) -> list[str]:
    """The agent's names for the tool hooks know as `claude_name` (itself when the agent
    has no other name for it: MCP tools, or a name both share)."""
    names = [own for own, claude in claude_tool_names(agent).items() if claude == claude_name]
    return names or [claude_name]


def detect_agent_version(agent: str) -> ClientVersion | None:
    """`PROGRAM --version`, cached per binary like Codex's and Claude Code's."""
    name = program(agent)
    return detect_version(name, f"{name}-version.json")


def agent_installed(agent: str) -> bool:
    """Whether the agent's program is on PATH here: a committed `agents` list wires an agent
    only where it is (docs/agents.md, "Agents per machine")."""
    import shutil

    return shutil.which(program(agent)) is not None
