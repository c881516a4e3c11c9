"""The sync's part for Qwen Code and Factory droid (docs/agents.md): per agent, what its
hooks file would become (preview), the write, and the file kept out of git afterwards;
install/sync.py runs these steps beside its own, as it does Codex CLI's.

An agent's file is hookman's concern when the project's agents name the agent, or when the
file still holds hookman entries (they are then taken out). Where the agents name it but
this machine lacks its program (and no `--AGENT-version` names one), nothing of the agent's
is written and its file is left as it is: a teammate without that agent is not burdened
with entries nothing runs ("Agents per machine").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from hookman.agents import agent_facts, agent_files
from hookman.agents.agent_sync import AgentPlan, detect_version, plan_agent
from hookman.project.config import HookSpec
from hookman.project.git_exclude import GitExclusion
from hookman.project.install_plan import InstallPlan
from hookman.project.settings_file import SettingsChange


@dataclass(frozen=True)
class AgentSync:
    """One agent's part of a sync: its plan (None when the agents leave it out: hookman's
    entries go), the change to its hooks file (None: not hookman's concern), git, and
    whether the agents name it but this machine lacks it (nothing written then)."""

    agent: str
    plan: AgentPlan | None
    change: SettingsChange | None
    git: GitExclusion | None = None
    absent: bool = False


def preview_agents(
    project_dir: Path,
    agents: Sequence[str],
    hooks: Sequence[HookSpec],
    plan: InstallPlan,
    launcher: Path,
    versions: Mapping[str, str | None],
) -> dict[str, AgentSync]:
    """What each agent's hooks file would become (nothing written); a file hookman cannot
    edit, or one git tracks, stops the sync here (HookmanError)."""
    previews: dict[str, AgentSync] = {}
    for agent in agent_facts.file_agents():
        flag = versions.get(agent)
        if agent in agents and flag is None and not agent_facts.agent_installed(agent):
            previews[agent] = AgentSync(agent, None, None, absent=True)
            continue
        agent_plan = None
        if agent in agents:
            version = detect_version(agent, flag)
            agent_plan = plan_agent(agent, hooks, plan, launcher, version)
        elif not agent_files.has_hookman_entries(project_dir, agent):
            continue
        entries = [] if agent_plan is None else agent_plan.entries
        change = agent_files.update_agent_hooks(project_dir, agent, entries, dry_run=True)
        previews[agent] = AgentSync(agent, agent_plan, change)
    return previews


def written_paths(project_dir: Path) -> list[Path]:
    """The agents' hooks files (a failed sync puts them back as they were)."""
    return [agent_files.hooks_path(project_dir, agent) for agent in agent_facts.file_agents()]


def write_agents(project_dir: Path, previews: Mapping[str, AgentSync]) -> dict[str, AgentSync]:
    """Write each agent's hooks file as previewed; the caller holds the project lock."""
    written: dict[str, AgentSync] = {}
    for agent, preview in previews.items():
        if preview.change is None:
            written[agent] = preview
            continue
        entries = [] if preview.plan is None else preview.plan.entries
        change = agent_files.update_agent_hooks(project_dir, agent, entries, dry_run=False)
        written[agent] = replace(preview, change=change)
    return written


def keep_agents_out_of_git(
    project_dir: Path, written: Mapping[str, AgentSync]
) -> dict[str, AgentSync]:
    """Each written file kept out of git (.git/info/exclude)."""
    done: dict[str, AgentSync] = {}
    for agent, sync in written.items():
        if sync.change is not None and sync.change.after is not None:
            sync = replace(sync, git=agent_files.keep_out_of_git(project_dir, agent))
        done[agent] = sync
    return done


def nothing_to_write(previews: Mapping[str, AgentSync]) -> bool:
    return not any(sync.change is not None and sync.change.changed for sync in previews.values())
