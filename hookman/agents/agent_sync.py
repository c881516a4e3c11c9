"""What install writes for Qwen Code and Factory droid (agent_files.py writes it), and what
it cannot write for them: the same pattern as Codex CLI's (codex_sync.py).

The entries: one matcher group per event, as for Claude Code (one ordered runner per event
keeps hookman's dispatch order), for the events hookman planned that the installed version
of the agent runs hooks for (catalog/<agent>_events.json), each running the project's launcher with
`--agent AGENT`, so the runner answers in that agent's protocol and hands hooks the Claude
Code tool names they know. A tool event's matcher names the agent's own tools (droid's
`Execute` for `Bash`, Qwen's `run_shell_command`): a name the agent does not recognise
matches nothing, so the guard would never run. Both agents compare a matcher with the tool's
name, then test it as an unanchored regex (a plain `edit` would also match Qwen's
`notebook_edit`, `Edit` droid's `MultiEdit`), so the names are written as an anchored regex,
`^(?:Execute)$`, `^(?:run_shell_command|edit)$`. Async hooks keep the runner's `--async`
(it answers at once and runs them in a child), without Claude Code's `"async": true` key,
which neither agent documents.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hookman.agents import agent_facts
from hookman.agents.codex_sync import VersionFacts
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion
from hookman.project.config import HookSpec
from hookman.project.install_plan import InstallPlan
from hookman.project.settings_entries import HookmanEntry, build_command

_REGEX_SYNTAX = re.compile(r"[\\^$.*+?()\[\]{}|/]")


@dataclass(frozen=True)
class AgentPlan:
    """The entries for one agent and what could not be written for it."""

    agent: str
    version: ClientVersion | None
    entries: list[HookmanEntry]
    # Claude Code events hookman planned that this version of the agent runs no hook for
    not_in_agent: list[str] = field(default_factory=list)
    # hook name -> its subscriptions no event of the agent serves
    without_counterpart: dict[str, list[str]] = field(default_factory=dict)

    @property
    def events(self) -> list[str]:
        return list(dict.fromkeys(entry.event for entry in self.entries))

    @property
    def facts(self) -> VersionFacts:
        return VersionFacts.of(self.version, agent_facts.newest_checked(self.agent))


def plan_agent(
    agent: str,
    hooks: Sequence[HookSpec],
    plan: InstallPlan,
    launcher: Path,
    version: ClientVersion | None,
) -> AgentPlan:
    """The entries hookman writes into `agent`'s hooks file for `plan` (Claude Code's)."""
    known = agent_facts.agent_events(agent, version)
    guarded = event_catalog.guarded_events()
    entries: list[HookmanEntry] = []
    # No prompt gate: it stops a prompt only in Claude Code (bridge/run_command.gates_prompt).
    served = plan.hook_entries()
    for event, entry in served.items():
        if event in known:
            command = build_command(event, launcher, guarded=event in guarded, agent=agent)
            matcher = agent_matcher(agent, entry.tools, entry.matcher)
            entries.append(HookmanEntry(event, matcher, command, entry.timeout))
    for event, entry in plan.async_entries.items():
        if event in known:
            command = build_command(event, launcher, run_async=True, agent=agent)
            matcher = agent_matcher(agent, entry.tools, entry.matcher)
            entries.append(
                HookmanEntry(event, matcher, command, entry.timeout, is_async=True, async_key=False)
            )
    planned = [*served, *plan.async_entries]
    not_in_agent = list(dict.fromkeys(event for event in planned if event not in known))
    without: dict[str, list[str]] = {}
    for hook in hooks:
        if not hook.enabled:
            continue
        for subscription in hook.events:
            served = event_catalog.claude_events_for(subscription, hook.tools.get(subscription))
            if served and not any(event in known for event in served):
                without.setdefault(hook.name, []).append(subscription)
    return AgentPlan(agent, version, entries, not_in_agent, without)


def agent_matcher(
    agent: str, tools: Sequence[str] | None, claude_matcher: str | None
) -> str | None:
    """The matcher of an entry for `agent`: every name the agent has for the Claude Code
    tools the entry covers (`tools`; None: every tool, no matcher, or a non-tool matcher such
    as SessionStart's, written as Claude Code's)."""
    if tools is None:
        return claude_matcher
    names = list(
        dict.fromkeys(own for name in tools for own in agent_facts.own_tool_names(agent, name))
    )
    return "^(?:" + "|".join(_REGEX_SYNTAX.sub(r"\\\g<0>", name) for name in names) + ")$"


def unguarded_by(
    agent: str, hooks: Sequence[HookSpec]
) -> dict[str, list[agent_facts.UnguardedTool]]:
    """Per enabled hook, the agent's tools that run commands or write files which a hook
    asking for the tools it names does not guard (catalog "unguarded_tools": Copilot's
    write_bash, droid's ApplyPatch...), each with `asked` narrowed to the tools the hook
    names; a hook that also asks for the name hooks get for one (droid's `ApplyPatch`) is
    not said to miss it."""
    tools = agent_facts.unguarded_tools(agent)
    found: dict[str, list[agent_facts.UnguardedTool]] = {}
    for hook in hooks:
        if not hook.enabled:
            continue
        asked = {name for names in hook.tools.values() if names for name in names}
        if event_catalog.ALL_TOOLS in asked:
            continue
        for tool in tools:
            opted_in = tool.seen_as in asked and tool.seen_as not in tool.asked
            named = tuple(name for name in tool.asked if name in asked)
            if named and not opted_in:
                found.setdefault(hook.name, []).append(tool._replace(asked=named))
    return found


def unguarded_sentence(agent: str, hook: str, tool: agent_facts.UnguardedTool) -> str:
    """What install, list and doctor say of one (unguarded_by)."""
    asked = ", ".join(repr(name) for name in tool.asked)
    name = agent_facts.display_name(agent)
    return f"the hook {hook!r} asks for {asked}: {name}'s {tool.tool} tool {tool.effect}."


def detect_version(agent: str, version_flag: str | None) -> ClientVersion | None:
    """The version to plan for: `--AGENT-version V`, else `PROGRAM --version` (raises a
    HookmanError, exit 2, for a flag that is not a version)."""
    if version_flag is None:
        return agent_facts.detect_agent_version(agent)
    from hookman.catalog.client_version import parse_version
    from hookman.errors import HookmanError

    try:
        return parse_version(version_flag)
    except ValueError:
        newest = agent_facts.newest_checked(agent)
        raise HookmanError(
            f"--{agent}-version {version_flag!r} is not a version such as {newest}.",
            f"pass MAJOR.MINOR.PATCH, as `{agent_facts.program(agent)} --version` prints it.",
            exit_code=2,
        ) from None
