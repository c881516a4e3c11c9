"""`hookman list`'s part for GitHub Copilot CLI, Qwen Code and Factory droid: per hook, the
events each agent runs it for (what install writes for it, marked where this machine's file
lacks it: commands/agent_installed.py), and what it cannot write, in words. An agent the
project's agents leave out, or that is not installed here, gets none (install writes
nothing for it then; the latter is said in one line of information)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.agents import agent_facts
from hookman.bridge.installed_entries import agent_installed_entries
from hookman.commands.agent_installed import event_cell, installed_state, unwritten_sentences
from hookman.install.report import claude_events_of
from hookman.output import console, escape
from hookman.project.config import HookSpec
from hookman.project.install_plan import InstallPlan

if TYPE_CHECKING:
    from hookman.json_shapes import CodexHookJson, ListAgentJson


def agent_views(
    project_dir: Path, agents: Sequence[str], hooks: Sequence[HookSpec], plan: InstallPlan
) -> dict[str, tuple[ListAgentJson, list[str]]]:
    """Per agent named in `agents` and installed here: its view and the sentences about what
    it will not run."""
    views: dict[str, tuple[ListAgentJson, list[str]]] = {}
    for agent in agent_facts.OTHER_AGENTS:
        if agent not in agents or not agent_facts.agent_installed(agent):
            continue
        views[agent] = (
            _copilot_view(project_dir, hooks, plan)
            if agent_facts.hooks_file(agent) is None
            else _file_view(project_dir, agent, hooks, plan)
        )
    return views


def _copilot_view(
    project_dir: Path, hooks: Sequence[HookSpec], plan: InstallPlan
) -> tuple[ListAgentJson, list[str]]:
    """Copilot CLI runs settings.local.json's entries for the events it knows (what that
    file lacks here is said once, for Claude Code: its hook lines say it too)."""
    agent = agent_facts.COPILOT_AGENT
    version = agent_facts.detect_agent_version(agent)
    known = agent_facts.agent_events(agent, version)
    events = [event for event in [*plan.entries, *plan.async_entries] if event in known]
    written = agent_installed_entries(str(project_dir), agent)
    per_hook: dict[str, CodexHookJson] = {}
    for hook in hooks:
        if hook.enabled:
            served = [event for event in claude_events_of(hook) if event in known]
            lacking = [event for event in claude_events_of(hook) if event not in known]
            per_hook[hook.name] = {
                "events": served,
                "no_counterpart": lacking,
                **installed_state(hook, served, written),
            }
    view: ListAgentJson = {
        "version": None if version is None else str(version),
        "path": None,
        "events": list(dict.fromkeys(events)),
        "hooks": per_hook,
    }
    from hookman.commands.agent_wording import unguarded_sentences

    return view, unguarded_sentences(agent, hooks)


def _file_view(
    project_dir: Path, agent: str, hooks: Sequence[HookSpec], plan: InstallPlan
) -> tuple[ListAgentJson, list[str]]:
    from hookman.agents.agent_sync import plan_agent
    from hookman.commands.agent_wording import (
        foreign_sentences,
        plan_sentences,
        switched_off_sentences,
        unguarded_sentences,
    )
    from hookman.project.launcher import launcher_path

    version = agent_facts.detect_agent_version(agent)
    planned = plan_agent(agent, hooks, plan, launcher_path(project_dir), version)
    where = agent_facts.hooks_file(agent)
    assert where is not None
    written = agent_installed_entries(str(project_dir), agent)
    per_hook: dict[str, CodexHookJson] = {}
    for hook in hooks:
        if hook.enabled:
            served = [event for event in claude_events_of(hook) if event in planned.events]
            lacking = planned.without_counterpart.get(hook.name, [])
            per_hook[hook.name] = {
                "events": served,
                "no_counterpart": lacking,
                **installed_state(hook, served, written, agent),
            }
    path = str(project_dir / where.relative)
    view: ListAgentJson = {
        "version": None if version is None else str(version),
        "path": path,
        "events": planned.events,
        "hooks": per_hook,
    }
    name = agent_facts.display_name(agent)
    unwritten = unwritten_sentences(name, planned.entries, written, path, agent)
    switched_off = switched_off_sentences(agent, project_dir) if planned.events else []
    foreign = foreign_sentences(agent, project_dir)
    unguarded = unguarded_sentences(agent, hooks)
    return view, plan_sentences(planned) + unguarded + unwritten + switched_off + foreign


def print_agents(
    project_dir: Path, agents: Sequence[str], views: Mapping[str, ListAgentJson]
) -> None:
    """Each agent's view, as `list` prints Codex's; a line for one not installed here."""
    out = console()
    for agent in agent_facts.OTHER_AGENTS:
        if agent not in agents:
            continue
        view = views.get(agent)
        if view is None:
            from hookman.commands.agent_wording import absent_sentences

            for sentence in absent_sentences(agent, project_dir):
                out.print(escape(sentence), highlight=False)
            continue
        name = agent_facts.display_name(agent)
        where = view["path"] or ".claude/settings.local.json's entries"
        target = view["version"] or "unknown"
        out.print(f"{escape(name)} target {escape(target)} ({escape(where)}):", highlight=False)
        for hook, facts in view["hooks"].items():
            events = ", ".join(event_cell(event, facts) for event in facts["events"]) or "-"
            missing = facts["no_counterpart"]
            lack = f"  (no {name} counterpart: {', '.join(missing)})" if missing else ""
            out.print(f"  {escape(hook)}: {escape(events)}{escape(lack)}", highlight=False)
