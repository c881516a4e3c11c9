"""What an agent's own hooks file holds against what install plans for it (Codex CLI, Qwen
Code, droid): per hook, the planned events the file lacks here and those whose installed
matcher leaves out tools the hook asks for, and the sentences `list` says about them, as
it says them for Claude Code's settings.local.json (a pull not installed since, the file
deleted or edited by hand: the agent runs no hook there yet)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hookman.agents import agent_facts
from hookman.bridge.installed_entries import InstalledEntry, agent_installed_entries
from hookman.bridge.protocol import CODEX_AGENT
from hookman.bridge.state_file import read_regular
from hookman.install.report import tools_at
from hookman.project.install_plan import covers, matcher_matches, matcher_names

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
        elif not _covered(found.matcher, tools_at(hook.events, hook.tools, event), agent):
            narrower[event] = matcher_names(found.matcher or "")
    return {"not_installed": missing, "installed_for": narrower}


def _covered(matcher: str | None, asked: tuple[str, ...] | None, agent: str | None) -> bool:
    """Whether an entry of `matcher` in `agent`'s file runs the hook for each tool it asks
    for (`asked`, Claude Code's names; None: every tool): for each of the agent's names for
    it, by that name or by the Claude Code name the agent's matchers read it by (Qwen Code's
    `Bash` for run_shell_command, not for monitor)."""
    if asked is None or agent is None:
        return covers(matcher, asked)
    return _covered_own(
        matcher,
        tuple(own for tool in asked for own in agent_facts.own_tool_names(agent, tool)),
        agent,
    )


def event_cell(event: str, facts: CodexHookJson) -> str:
    """One event of a hook's line, with what this machine's file runs for it."""
    if event in facts["not_installed"]:
        return f"{event} (not installed here yet)"
    tools = facts["installed_for"].get(event)
    return event if tools is None else f"{event} (installed here for {'|'.join(tools)} only)"


def unwritten_sentences(
    name: str,
    entries: Sequence[HookmanEntry],
    written: Written,
    path: str,
    agent: str | None = None,
) -> list[str]:
    """The entries hookman.toml asks the agent (`name`: its display name; `agent` its key,
    for one whose matchers name its own tools) for that its hooks file lacks, or has with a
    matcher that leaves tools out, in words naming `hookman install`."""
    missing: list[str] = []
    narrower: list[str] = []
    for entry in entries:
        found = written.get((entry.event, entry.is_async))
        asked = tuple(matcher_names(entry.matcher)) if entry.matcher else None
        if found is None:
            if entry.event not in missing:
                missing.append(entry.event)
        elif not _covered_own(found.matcher, asked, agent):
            wanted = "|".join(asked) if asked else "every tool"
            runs = "|".join(matcher_names(found.matcher or ""))
            narrower.append(f"{entry.event} entry runs hooks for {runs}, not {wanted}")
    said = []
    if missing:
        events = "that event" if len(missing) == 1 else "those events"
        said.append(
            f"{path} {_lacks(path, written)} {', '.join(missing)}: {name} runs no hook on "
            f"{events} until `hookman install` writes the entries."
        )
    if narrower:
        said.append(f"{path}: hookman's {'; '.join(narrower)}: `hookman install` rewrites it.")
    return said


def _lacks(path: str, written: Written) -> str:
    """Why the file holds no entry: it is not there, not JSON hookman reads, or lacks it."""
    if not written:
        if not os.path.lexists(path):
            return "does not exist here, so it has no hookman entry for"
        try:  # never blocking: a named pipe at the name is refused, not waited on
            json.loads(read_regular(path, follow=True))
        except (OSError, ValueError, RecursionError):
            unreadable = "cannot be read as JSON (`hookman doctor` says why)"
            return f"{unreadable}, so it has no hookman entry for"
    return "has no hookman entry for"


def _covered_own(matcher: str | None, own: tuple[str, ...] | None, agent: str | None) -> bool:
    """`_covered` for tools given in the agent's own names (a planned entry's matcher)."""
    if own is None or agent is None or agent == CODEX_AGENT:
        return covers(matcher, own)
    return all(
        covers(matcher, (tool,)) or agent_facts.alias_reaches(agent, matcher, tool) for tool in own
    )


def unreached_sentence(
    project_dir: str,
    agent: str,
    event: str,
    own_tool: object,
    claude_tool: object,
    *,
    guarded: bool,
) -> str | None:
    """Why `agent` does not call hookman for `event` on this machine (its file lacks the
    entry, or the entry's matcher leaves the tool out: it runs the call without hookman), in
    words naming `hookman install`; None when its entry reaches the call. `own_tool` and
    `claude_tool`: the payload's tool as the agent names it and as hooks see it."""
    from hookman.bridge.entry_timeout import agent_entries_file

    written = agent_installed_entries(project_dir, agent)
    found = written.get((event, False))
    path = os.path.join(project_dir, agent_entries_file(agent)[0])
    own = _own_names(agent, own_tool, claude_tool)
    if found is not None:
        if not own or any(matcher_matches(found.matcher, tool) for tool in own):
            return None
        if agent != CODEX_AGENT and any(
            agent_facts.alias_reaches(agent, found.matcher, t) for t in own
        ):
            return None
        why = f"has its hookman {event} entry for {found.matcher} only"
    else:
        why = f"{_lacks(path, written)} {event}"
    name = "Codex CLI" if agent == CODEX_AGENT else agent_facts.display_name(agent)
    on = f" on {own[0]}" if own else ""
    runs = "runs it without hookman (nothing denies it)" if guarded else "runs no hook on it"
    return (
        f"{path} {why}: {name} does not call hookman for this {event}{on} and {runs} until "
        "`hookman install` writes the entries; below is what it gets once they are there."
    )


def _own_names(agent: str, own_tool: object, claude_tool: object) -> list[str]:
    """The agent's names for the payload's tool: the one it sent when that is one of its
    own (Qwen's monitor, not its run_shell_command, though hooks see both as Bash); else
    each of its names for the tool hooks see (a payload written in Claude Code's form,
    `Bash`, is droid's `Execute`)."""
    if agent == CODEX_AGENT:
        names = [name for name in (own_tool, claude_tool) if isinstance(name, str)]
        return list(dict.fromkeys(names))
    if isinstance(own_tool, str) and own_tool in agent_facts.claude_tool_names(agent):
        return [own_tool]
    if isinstance(claude_tool, str):
        return agent_facts.own_tool_names(agent, claude_tool)
    return []
