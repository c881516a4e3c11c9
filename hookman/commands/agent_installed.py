"""What an agent's own hooks file holds against what install plans for it (Codex CLI, Qwen
Code, droid): per hook, the planned events the file lacks here and those whose installed
matcher leaves out tools the hook asks for, and the sentences `list` says about them, as
it says them for Claude Code's settings.local.json (a pull not installed since, the file
deleted or edited by hand: the agent runs no hook there yet)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hookman.agents import agent_facts
from hookman.bridge.installed_entries import InstalledEntry
from hookman.install.report import tools_at
from hookman.project.install_plan import covers, matcher_names

if TYPE_CHECKING:
    from hookman.json_shapes import CodexHookJson, CodexInstalledJson
    from hookman.project.config import HookSpec
    from hookman.project.settings_entries import HookmanEntry

Written = dict[tuple[str, bool], InstalledEntry]


def installed_state(
    hook: HookSpec, served: Sequence[str], written: Written, agent: str | None = None
) -> CodexInstalledJson:
    """Of the events planned for the hook (`served`), those the file lacks, and, per event,
    the tools a narrower installed entry runs it for. `agent`: one whose matchers name its
    own tools (Qwen Code's `run_shell_command` for Bash: agents/agent_sync.agent_matcher);
    None: Claude Code's names (Codex's file, Copilot's settings.local.json)."""
    missing: list[str] = []
    narrower: dict[str, list[str]] = {}
    for event in served:
        found = written.get((event, hook.is_async))
        if found is None:
            missing.append(event)
        elif not covers(found.matcher, _asked(hook, event, agent)):
            narrower[event] = matcher_names(found.matcher or "")
    return {"not_installed": missing, "installed_for": narrower}


def _asked(hook: HookSpec, event: str, agent: str | None) -> tuple[str, ...] | None:
    """The tools the hook asks for on `event` (None: every tool), in `agent`'s names."""
    asked = tools_at(hook.events, hook.tools, event)
    if asked is None or agent is None:
        return asked
    return tuple(
        dict.fromkeys(own for name in asked for own in agent_facts.own_tool_names(agent, name))
    )


def event_cell(event: str, facts: CodexHookJson) -> str:
    """One event of a hook's line, with what this machine's file runs for it."""
    if event in facts["not_installed"]:
        return f"{event} (not installed here yet)"
    tools = facts["installed_for"].get(event)
    return event if tools is None else f"{event} (installed here for {'|'.join(tools)} only)"


def unwritten_sentences(
    agent: str, entries: Sequence[HookmanEntry], written: Written, path: str
) -> list[str]:
    """The entries hookman.toml asks `agent` (its display name) for that its hooks file
    lacks, or has with a matcher that leaves tools out, in words naming `hookman install`."""
    missing: list[str] = []
    narrower: list[str] = []
    for entry in entries:
        found = written.get((entry.event, entry.is_async))
        asked = tuple(matcher_names(entry.matcher)) if entry.matcher else None
        if found is None:
            if entry.event not in missing:
                missing.append(entry.event)
        elif not covers(found.matcher, asked):
            wanted = "|".join(asked) if asked else "every tool"
            runs = "|".join(matcher_names(found.matcher or ""))
            narrower.append(f"{entry.event} entry runs hooks for {runs}, not {wanted}")
    said = []
    if missing:
        said.append(
            f"{path} has no hookman entry for {', '.join(missing)}: {agent} runs no hook on "
            f"{'that event' if len(missing) == 1 else 'those events'} until `hookman install` "
            "writes the entries."
        )
    if narrower:
        said.append(f"{path}: hookman's {'; '.join(narrower)}: `hookman install` rewrites it.")
    return said
