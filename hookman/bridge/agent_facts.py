"""Reads the facts of the other agents hookman serves beside Claude Code and Codex CLI:
GitHub Copilot CLI, Qwen Code and Factory droid (hookman/catalog/<agent>_events.json, data
files; catalog/agent_catalog.py adds what install, list and doctor ask of them).

Each agent's facts are data: the events it runs (per version, measured or read from its
package), where its hook entries live and in which shape, the environment variables that
tell its hooks apart, its tool names and the Claude Code names hooks know them by, and the
answer fields it honours. The runner reads them on an agent's path alone, so this module is
standard library only, with the JSON read by lean_json.py; where the catalog's files are not
there (a built plugin carries runtime/ and bridge/ only) reading them raises OSError.
"""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.protocol import COPILOT_AGENT, DROID_AGENT, QWEN_AGENT

TYPE_CHECKING = False  # not `typing`: the runner imports this module
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


# The agents this catalog knows, in the order hookman names them (`agents = [...]`).
OTHER_AGENTS = (COPILOT_AGENT, QWEN_AGENT, DROID_AGENT)
CATALOG_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "catalog")
# Shapes of an agent's hook file (config.shape).
SHAPE_CLAUDE_SETTINGS = "claude_settings"  # Claude Code's own file: nothing of the agent's own
SHAPE_HOOKS_KEY = "hooks_key"  # {"hooks": {"PreToolUse": [groups]}, ...other keys}
SHAPE_TOP_LEVEL = "top_level"  # {"PreToolUse": [groups]}: no "hooks" wrapper

MERGE_FACTS = "agent_hook_merge"  # how each agent merges several hooks' answers

_loaded: dict[str, dict[str, Any]] = {}


class UnknownAgent(ValueError):
    """An agent name this catalog has no facts for."""


def agent_catalog(agent: str) -> dict[str, Any]:
    """The facts of `agent` (a name of OTHER_AGENTS), read once per process."""
    if agent not in OTHER_AGENTS:
        raise UnknownAgent(f"hookman knows no agent {agent!r}")
    return _catalog_file(f"{agent}_events")


def _catalog_file(name: str) -> dict[str, Any]:
    """The catalog's JSON file `name`, read once per process."""
    facts = _loaded.get(name)
    if facts is None:
        with open(os.path.join(CATALOG_DIR, f"{name}.json"), "rb") as handle:
            loaded = lean_json.loads(handle.read())
        assert isinstance(loaded, dict)
        facts = _loaded[name] = loaded
    return facts


def display_name(agent: str) -> str:
    """How docs and messages name the agent ("Qwen Code")."""
    return str(agent_catalog(agent)["display_name"])


def binary_name(agent: str) -> str:
    """The program the agent is run as (`qwen`, `droid`, `copilot`)."""
    return str(agent_catalog(agent)["binary"])


def measured_events(agent: str) -> list[str]:
    """The events seen firing in the agent's real binary (the rest are read from its package)."""
    return [event for event, facts in agent_catalog(agent)["events"].items() if facts["measured"]]


def config_file(agent: str) -> str:
    """The project file holding the agent's hook entries, relative to the project, with the
    platform's separator (Copilot: Claude Code's settings.local.json, which it runs)."""
    return os.path.join(*str(agent_catalog(agent)["config"]["file"]).split("/"))


def disable_key(agent: str) -> str | None:
    """The key that turns every hook of the agent off in its settings (Qwen's
    `disableAllHooks`, droid's `hooksDisabled`, which stands among the events of its
    top-level hooks file); None for an agent without one."""
    key = agent_catalog(agent)["config"].get("disable_key")
    return key if isinstance(key, str) else None


def config_shape(agent: str) -> str:
    """SHAPE_CLAUDE_SETTINGS, SHAPE_HOOKS_KEY or SHAPE_TOP_LEVEL."""
    return str(agent_catalog(agent)["config"]["shape"])


def writes_own_file(agent: str) -> bool:
    """Whether hookman writes a hook file of the agent's own (False for Copilot, which runs
    the Claude Code entries: a file of its own would run every hook twice)."""
    return bool(agent_catalog(agent)["config"]["writes_own_file"])


def matcher_reads_claude_names(agent: str) -> bool:
    """Whether a matcher in the agent's own file matches a tool by its Claude Code name too
    (Qwen Code 0.24.4: `Bash` matches run_shell_command, measured), not only by its own."""
    return bool(agent_catalog(agent)["config"].get("matcher_reads_claude_names", False))


def matcher_alias(agent: str, native: str) -> str | None:
    """The Claude Code name by which a matcher in the agent's own file also matches the
    agent's tool `native` (Qwen Code 0.24.4: `Bash` matches run_shell_command, measured; its
    monitor, which hooks see as Bash too, only by `Monitor`: config "matcher_aliases");
    None where its matchers read its own names only."""
    config = agent_catalog(agent)["config"]
    if not config.get("matcher_reads_claude_names", False):
        return None
    aliases = config.get("matcher_aliases") or {}
    return str(aliases.get(native) or claude_tool_name(agent, native))


def carries_agent_flag(agent: str) -> bool:
    """Whether the agent's entries carry `--agent AGENT` (Copilot's are Claude Code's own
    entries: the runner knows Copilot from its environment instead)."""
    return bool(agent_catalog(agent)["command_flag"])


def env_markers(agent: str) -> list[str]:
    """Variables the agent sets in its hooks' environment, which tell it apart."""
    return [str(name) for name in agent_catalog(agent)["env_markers"]]


def agent_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The agent running a Claude Code entry (no `--agent` flag), from its hook environment:
    the first agent without a flag of its own whose marker is set; None: Claude Code."""
    environ = os.environ if environ is None else environ
    for agent in OTHER_AGENTS:
        if carries_agent_flag(agent):
            continue
        if any(environ.get(name) for name in env_markers(agent)):
            return agent
    return None


def tool_map(agent: str) -> dict[str, str]:
    """The agent's tool names -> the Claude Code names hooks know them by."""
    return {str(native): str(claude) for native, claude in agent_catalog(agent)["tools"].items()}


def claude_tool_name(agent: str, native: str) -> str:
    """The Claude Code name of the agent's tool `native` (itself when it has none)."""
    return tool_map(agent).get(native, native)


def native_tool_names(agent: str, claude: str) -> list[str]:
    """The agent's names for the Claude Code tool `claude`, for matchers written in the
    agent's own hook file; [claude] when the agent has no tool mapped to it, or its entries
    are Claude Code's own (Copilot names the shell `Bash` to them)."""
    if not writes_own_file(agent):
        return [claude]
    names = [native for native, seen in tool_map(agent).items() if seen == claude]
    return names or [claude]


def input_renames(agent: str, claude: str) -> dict[str, Any]:
    """How the agent's input of the tool hooks know as `claude` differs from Claude Code's:
    {"rename": {native key: Claude key}, "each": {Claude key: {native: Claude}}} (a list of
    objects under a renamed key, each renamed too); {} when it is Claude Code's."""
    shape = agent_catalog(agent)["inputs"].get(claude)
    return dict(shape) if isinstance(shape, dict) else {}


def answer_fields(agent: str) -> dict[str, dict[str, list[str]]]:
    """Per event, the answer fields the agent honours: `top` keys and `specific` keys of
    hookSpecificOutput."""
    return {event: dict(fields) for event, fields in agent_catalog(agent)["answers"].items()}


def deny_channels(agent: str) -> dict[str, bool]:
    """Where a deny must stand for the agent's model to read it: `specific`
    (hookSpecificOutput), `top` (top-level permissionDecision) and `stop` (also
    `continue: false` with the reason as stopReason)."""
    return {str(key): bool(value) for key, value in agent_catalog(agent)["deny"].items()}


def deny_also_stops(agent: str) -> bool:
    """Whether hookman's PreToolUse deny for the agent also says `continue: false` (the
    catalog's deny.stop): Qwen Code lets a later hook's permissionDecision replace a deny but
    keeps any hook's `continue: false`, which blocks the call there (agent_hook_merge.json)."""
    return deny_channels(agent).get("stop", False)


def reads_exit_two_json(agent: str) -> bool:
    """Whether the agent, on exit 2, reads a hook's stderr that is one JSON object as its
    answer (the catalog's deny.exit_2_json): then a deny that must go out by exit 2 (a
    start-up file may print on stdout) still says `continue: false` there (Qwen Code)."""
    return deny_channels(agent).get("exit_2_json", False)


def hookman_first_events(agent: str) -> list[str]:
    """Events whose hookman groups install puts before the others in the agent's file: droid
    takes the first answer holding a permissionDecision, so an allow before hookman's deny
    wins there (catalog/agent_hook_merge.json, measured)."""
    facts = merge_facts().get(agent)
    first = facts.get("hookman_first") if isinstance(facts, dict) else None
    return [str(event) for event in first] if isinstance(first, list) else []


def merge_facts() -> dict[str, Any]:
    """catalog/agent_hook_merge.json: how each agent merges several hooks' answers."""
    return _catalog_file(MERGE_FACTS)


def stops_on(agent: str, wish: str) -> str:
    """What hookman answers the agent when a guard asks to `wish` ("ask" the user or change
    the input: "updated_input"): "deny" unless the agent is known to honour it."""
    return str(agent_catalog(agent).get(wish, "deny"))


def timeout_unit(agent: str) -> str:
    return str(agent_catalog(agent)["timeout_unit"])
