"""What install reads of the agents besides Claude Code and Codex CLI (GitHub Copilot CLI,
Qwen Code, Factory droid): the runner's catalog (catalog/agent_catalog.py and
catalog/<agent>_events.json) seen as install needs it: the program, the project file hookman
writes its entries into and where the events sit in it, the events each version runs hooks
for, and the agent's tool names for the Claude Code names hooks know.
"""

from __future__ import annotations

from typing import NamedTuple

from hookman.catalog import agent_catalog
from hookman.catalog.agent_catalog import COPILOT_AGENT, DROID_AGENT, OTHER_AGENTS, QWEN_AGENT
from hookman.catalog.client_version import ClientVersion

__all__ = ["COPILOT_AGENT", "DROID_AGENT", "OTHER_AGENTS", "QWEN_AGENT"]
HOOKS_KEY = "hooks"


class HooksFile(NamedTuple):
    """The project file an agent reads hooks from: its path relative to the project (with
    `/`), and the key its events sit under (None: at the top level of the file)."""

    relative: str
    events_key: str | None


def display_name(agent: str) -> str:
    return agent_catalog.display_name(agent)


def program(agent: str) -> str:
    return agent_catalog.binary_name(agent)


def hooks_file(agent: str) -> HooksFile | None:
    """Where hookman writes the agent's entries (None: nowhere of its own: Copilot CLI runs
    the entries of .claude/settings.local.json)."""
    if not agent_catalog.writes_own_file(agent):
        return None
    relative = str(agent_catalog.agent_catalog(agent)["config"]["file"])
    shape = agent_catalog.config_shape(agent)
    return HooksFile(relative, HOOKS_KEY if shape == agent_catalog.SHAPE_HOOKS_KEY else None)


def file_agents() -> tuple[str, ...]:
    """The agents hookman writes a file of their own for, in OTHER_AGENTS order."""
    return tuple(agent for agent in OTHER_AGENTS if agent_catalog.writes_own_file(agent))


def checked_versions(agent: str) -> list[ClientVersion]:
    return agent_catalog.checked_versions(agent)


def oldest_checked(agent: str) -> ClientVersion:
    return min(checked_versions(agent))


def newest_checked(agent: str) -> ClientVersion:
    return max(checked_versions(agent))


def agent_events(agent: str, version: ClientVersion | None) -> list[str]:
    """The Claude Code events the agent's `version` runs hooks for (None, or older than any
    version checked: the oldest checked version's); the agent's own events that Claude Code
    lacks are left out (hookman serves Claude Code's)."""
    return agent_catalog.hookman_agent_events(agent, version)


def claude_tool_names(agent: str) -> dict[str, str]:
    """The agent's own tool name -> the Claude Code name hooks see (the runner's mapping)."""
    return agent_catalog.tool_map(agent)


def own_tool_names(agent: str, claude_name: str) -> list[str]:
    """The agent's names for the tool hooks know as `claude_name` (itself when the agent
    has no other name for it: MCP tools, or a name both share)."""
    return agent_catalog.native_tool_names(agent, claude_name)


def matcher_alias(agent: str, native: str) -> str | None:
    """The Claude Code name by which a matcher in the agent's file also matches `native`."""
    return agent_catalog.matcher_alias(agent, native)


def alias_reaches(agent: str, matcher: str | None, native: str) -> bool:
    """Whether `matcher` runs the agent's hook for its tool `native` by the Claude Code name
    its matchers read that tool by (Qwen Code's `Bash` for run_shell_command; none for most
    agents). Only a matcher naming that name itself does: the agent tests a regex against its
    own names (`Bash.*` or `^Bash$` never run a hook for run_shell_command; measured on
    Qwen Code 0.24.4)."""
    from hookman.project.install_plan import exact_names

    alias = matcher_alias(agent, native)
    if alias is None:
        return False
    if matcher is None or matcher in ("", "*"):
        return True
    names = exact_names(matcher)
    return names is not None and alias in names


class UnguardedTool(NamedTuple):
    """One of the agent's tools a hook asking for `asked` does not guard: `seen_as`, the
    name hooks get for it, and `effect`, what follows (catalog "unguarded_tools")."""

    tool: str
    asked: tuple[str, ...]
    seen_as: str
    effect: str


def unguarded_tools(agent: str) -> list[UnguardedTool]:
    return [
        UnguardedTool(tool, tuple(facts["asked"]), str(facts["seen_as"]), str(facts["effect"]))
        for tool, facts in agent_catalog.unguarded_tools(agent).items()
    ]


def detect_agent_version(agent: str) -> ClientVersion | None:
    """`PROGRAM --version`, cached per binary like Codex's and Claude Code's."""
    return agent_catalog.detect_agent_version(agent)


def agent_installed(agent: str) -> bool:
    """Whether the agent's program is on PATH here: a committed `agents` list wires an agent
    only where it is (docs/agents.md, "Agents per machine")."""
    return agent_catalog.agent_installed(agent)
