"""The payload an agent sent, as Claude Code would have sent it: what hooks see.

Qwen Code and Factory droid speak Claude Code's hook protocol but name their tools their
own way (`run_shell_command`, Qwen's `monitor`, `Execute`), and some tool inputs carry other
keys (droid's Edit: `old_str`, `new_str`; Copilot CLI names its file tools as Claude Code
does but sends `path`, `old_str`, `file_text`). hookman's hooks and guards know Claude
Code's names: a guard asking `tool_name == "Bash"` let `rm -rf` run under Qwen and droid, one
reading `file_path` let Copilot edit `.env` (measured). So the runner renames
the tool and its input keys (hookman/catalog/<agent>_events.json "tools" and "inputs")
before any hook sees the payload; a name the agent has no Claude Code tool for stays as the
agent sent it. Standard library only; imported on an agent's path alone.
"""

from __future__ import annotations

from hookman.bridge.agent_facts import OTHER_AGENTS, input_renames, tool_map

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TOOL_NAME = "tool_name"
TOOL_INPUT = "tool_input"
TOOL_CALLS = "tool_calls"  # PostToolBatch: a list of {tool_name, tool_input, ...}


def claude_payload(agent: str | None, payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` with the agent's tool names and input keys renamed to Claude Code's (a new
    dict; `payload` itself is left alone). Agents without facts (Claude Code, Codex CLI,
    which names its shell `Bash` itself) get `payload` back as it is."""
    if agent not in OTHER_AGENTS:
        return payload
    names = tool_map(agent)
    result = _call_as_claude(agent, names, payload)
    calls = payload.get(TOOL_CALLS)
    if isinstance(calls, list):
        result[TOOL_CALLS] = [
            _call_as_claude(agent, names, call) if isinstance(call, dict) else call
            for call in calls
        ]
    return result


def claude_tool_input(agent: str, claude_name: str, tool_input: object) -> object:
    """The agent's input of the tool hooks know as `claude_name`, with Claude Code's keys."""
    shape = input_renames(agent, claude_name)
    if not shape or not isinstance(tool_input, dict):
        return tool_input
    return rename_keys(tool_input, shape.get("rename") or {}, shape.get("each") or {})


def rename_keys(
    values: dict[str, Any], rename: dict[str, str], each: dict[str, dict[str, str]]
) -> dict[str, Any]:
    """`values` with its keys renamed by `rename` (in their order), then each object of the
    list under a key of `each` renamed by that key's map. The agent's own key wins: its tool
    acts on it, so a key the agent also passed under the Claude name is dropped (measured on
    Copilot 1.0.102: `edit {path: ".env", file_path: "notes.txt"}` edited .env; a guard shown
    notes.txt let it)."""
    renamed = {key: rename[key] for key in values if rename.get(key, key) != key}
    shadowed = set(renamed.values())
    result: dict[str, Any] = {}
    for key, value in values.items():
        if key in renamed:
            result[renamed[key]] = value
        elif key not in shadowed:
            result[key] = value
    for key, inner in each.items():
        items = result.get(key)
        if isinstance(items, list):
            result[key] = [
                rename_keys(item, inner, {}) if isinstance(item, dict) else item for item in items
            ]
    return result


def _call_as_claude(agent: str, names: dict[str, str], call: dict[str, Any]) -> dict[str, Any]:
    result = dict(call)
    native = call.get(TOOL_NAME)
    if not isinstance(native, str):
        return result
    claude_name = names.get(native, native)
    result[TOOL_NAME] = claude_name
    if TOOL_INPUT in call:
        result[TOOL_INPUT] = claude_tool_input(agent, claude_name, call[TOOL_INPUT])
    return result
