"""What install, remove, enable, disable and list say about GitHub Copilot CLI, Qwen Code and
Factory droid (install/agent_step.py decides; this module words it), as codex_wording.py
does for Codex CLI."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.agents import agent_facts, agent_files
from hookman.agents.agent_sync import AgentPlan, VersionFacts
from hookman.bridge.protocol import COPILOT_AGENT
from hookman.commands.git_wording import exclusion_sentence

if TYPE_CHECKING:
    from hookman.install.agent_step import AgentSync
    from hookman.install.sync import SyncResult
    from hookman.json_shapes import AgentSyncJson
    from hookman.project.config import HookSpec

COPILOT_TRUST = (
    "GitHub Copilot CLI runs hookman's entries of .claude/settings.local.json (nothing of "
    "its own is written), but runs no hook at all in a folder it does not trust: trust this "
    "folder when Copilot asks (it saves it in its trustedFolders), or start it with "
    "`copilot -p PROMPT --trust-folder`."
)


def agent_sentences(result: SyncResult) -> list[str]:
    """Copilot's trust step, then each agent's file: what was written, what could not be;
    for each, the tools its hooks do not guard."""
    lines = []
    if result.copilot:  # nothing of its own is written: where it is absent, say only that
        if agent_facts.agent_installed(COPILOT_AGENT):
            lines += [COPILOT_TRUST, *unguarded_sentences(COPILOT_AGENT, result.hooks)]
        else:
            lines += absent_sentences(COPILOT_AGENT, result.project_dir)
    for sync in result.agents.values():
        lines += sync_sentences(sync, result.project_dir, dry_run=result.dry_run)
        if not sync.absent and sync.plan is not None:
            lines += unguarded_sentences(sync.agent, result.hooks)
    return lines


def unguarded_sentences(agent: str, hooks: Sequence[HookSpec]) -> list[str]:
    """Per hook, each of the agent's tools it asks to guard but does not see in Claude Code's
    shape (agents/agent_sync.unguarded_by; install, list, and doctor's
    `AGENT-tool-unguarded`)."""
    from hookman.agents.agent_sync import unguarded_by, unguarded_sentence

    return [
        unguarded_sentence(agent, hook, tool)
        for hook, tools in unguarded_by(agent, hooks).items()
        for tool in tools
    ]


def sync_sentences(sync: AgentSync, project_dir: Path, *, dry_run: bool) -> list[str]:
    agent = sync.agent
    name = agent_facts.display_name(agent)
    if sync.absent:
        return absent_sentences(agent, project_dir)
    if sync.change is None:
        return []
    path = sync.change.path
    if sync.plan is None:
        if not sync.change.changed:
            return []
        verb = "would remove" if dry_run else "removed"
        return [f"{verb} hookman's {name} entries from {path}"]
    lines = [entries_sentence(name, sync.plan.events, sync.change.changed, path, dry_run=dry_run)]
    if sync.git:
        lines.append(f"{agent_files.relative_path(agent)}: {exclusion_sentence(sync.git)}")
    return lines + plan_sentences(sync.plan)


def entries_sentence(
    name: str, events: list[str], changed: bool, path: Path, *, dry_run: bool
) -> str:
    """What install did to an agent's hooks file: the events written or kept, or that no
    enabled hook needs one (then there is nothing of hookman's to keep, and the file may
    not exist)."""
    if events:
        verb = "would write" if dry_run else "wrote" if changed else "kept"
        return f"{name}: {verb} {', '.join(events)} in {path}"
    because = f"no enabled hook needs a {name} event"
    if changed:
        verb = "would remove" if dry_run else "removed"
        return f"{name}: {verb} hookman's entries from {path} ({because})"
    return f"{name}: no hookman entries ({because})"


def absent_sentences(agent: str, project_dir: Path) -> list[str]:
    """The agents name `agent` but this machine lacks it: information, not a warning."""
    name, program = agent_facts.display_name(agent), agent_facts.program(agent)
    if agent_facts.hooks_file(agent) is None:
        return [
            f"{name}: not installed here (no `{program}` on PATH); once it is, it runs "
            "hookman's entries of .claude/settings.local.json in a folder it trusts."
        ]
    lines = [
        f"{name}: not installed here (no `{program}` on PATH), so its entries were not "
        f"written; once {name} is installed, run `hookman install` to wire it."
    ]
    if agent_files.has_hookman_entries(project_dir, agent):
        lines.append(
            f"  {agent_files.hooks_path(project_dir, agent)} keeps the hookman entries an "
            f"earlier install wrote, untouched (nothing runs them without {name}); "
            f"`hookman install` brings them up to date once {name} is installed."
        )
    return lines


def switched_off_sentences(agent: str, project_dir: Path) -> list[str]:
    """The agent's own off switch, set in its user or project settings (the file doctor's
    <agent>-hooks-disabled names): a warning for install and list, since every entry
    hookman writes there then runs for nothing."""
    from hookman.catalog.agent_catalog import disable_key
    from hookman.doctor.agent_files import read_agent_files
    from hookman.doctor.findings_agents import switch_owner

    if agent_facts.hooks_file(agent) is None:
        return []  # Copilot: its switch is not one of its own files'
    owner = switch_owner(agent, read_agent_files(agent, project_dir))
    if owner is None:
        return []
    name, key = agent_facts.display_name(agent), disable_key(agent)
    return [
        f'`"{key}": true` in {owner.path}: {name} runs none of its hooks, hookman\'s '
        f"included; remove `{key}` from {owner.path} (or set it to false)."
    ]


def foreign_sentences(agent: str, project_dir: Path) -> list[str]:
    """Each PreToolUse hook that is not hookman's and runs for a tool hookman's entries cover,
    under an agent that lets its malformed answer undo hookman's deny (the hook doctor's
    AGENT-foreign-pre-tool-use names): a warning for install and list, in doctor's words."""
    from hookman.doctor.foreign_hooks import foreign_warning, loaded_foreign_hooks

    return [foreign_warning(agent, hook) for hook in loaded_foreign_hooks(agent, project_dir)]


def plan_sentences(plan: AgentPlan) -> list[str]:
    """Plain sentences about what the agent will not run (install, list)."""
    agent = plan.agent
    name = agent_facts.display_name(agent)
    target = "unknown" if plan.version is None else str(plan.version)
    sentences: list[str] = []
    if plan.facts is VersionFacts.OLDEST:
        sentences.append(
            f"`{agent_facts.program(agent)} --version` gave no answer, so hookman wrote the "
            f"events of {name} {agent_facts.oldest_checked(agent)}, the oldest version it has "
            "facts for."
        )
    elif plan.facts is VersionFacts.NEWEST:
        sentences.append(
            f"{name} {plan.version} is newer than {agent_facts.newest_checked(agent)}, the "
            "newest version hookman has facts for, so hookman assumes it has the same events."
        )
    for event in plan.not_in_agent:
        sentences.append(f"{name} {target} has no {event} event: not written for {name}.")
    for hook, subscriptions in plan.without_counterpart.items():
        listed = ", ".join(repr(item) for item in subscriptions)
        sentences.append(
            f"the hook {hook!r} listens to {listed}, which has no {name} counterpart: it "
            f"never runs under {name} for it."
        )
    return sentences


def agents_json(agents: Mapping[str, AgentSync], project_dir: Path) -> dict[str, AgentSyncJson]:
    """`install --json`'s per-agent objects ("qwen", "droid"), as its "codex"."""
    shown: dict[str, AgentSyncJson] = {}
    for agent, sync in agents.items():
        plan = sync.plan
        change = sync.change
        shown[agent] = {
            "path": str(agent_files.hooks_path(project_dir, agent)),
            "installed_here": not sync.absent,
            "version": None if plan is None or plan.version is None else str(plan.version),
            "written": [] if plan is None else plan.events,
            "not_in_agent": [] if plan is None else plan.not_in_agent,
            "without_counterpart": {} if plan is None else plan.without_counterpart,
            "changed": False if change is None else change.changed,
            "diff": "" if change is None else change.diff(),
            "git": None if sync.git is None else exclusion_sentence(sync.git),
        }
    return shown
