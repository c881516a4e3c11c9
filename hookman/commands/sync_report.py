"""What an install, remove, enable, disable, autoupdate or try-repo says about the sync it ran
(install/sync.py's SyncResult): the sentences about held-back events and Codex CLI, and the
`--json` object they share (see `hookman install`'s docstring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookman.agents import codex_files
from hookman.commands.agent_wording import foreign_sentences, switched_off_sentences
from hookman.commands.git_wording import exclusion_sentence
from hookman.commands.plan_wording import plan_warnings, target_warnings, tool_name_warnings
from hookman.commands.subscription_wording import change_sentences, changes_json
from hookman.install.report import hook_json
from hookman.install.sync import SyncResult
from hookman.project.location import CLAUDE_DIR
from hookman.project.pins import PINS_NAME

PINS_RELATIVE = f"{CLAUDE_DIR}/{PINS_NAME}"

if TYPE_CHECKING:
    from hookman.json_shapes import CodexSyncJson, CodexTrustJson, SyncJson


def sync_warnings(result: SyncResult) -> list[str]:
    """What the target, the plan and the store mean for hooks that will not run as written."""
    warnings = target_warnings(result.plan, result.target) + plan_warnings(result.plan)
    warnings += tool_name_warnings(result.hooks) + result.repo_warnings
    for agent, sync in result.agents.items():
        if sync.plan is not None and sync.plan.events and not sync.absent:
            warnings += switched_off_sentences(agent, result.project_dir)
            warnings += foreign_sentences(agent, result.project_dir)
    return warnings + repaired_sentences(result)


def repaired_sentences(result: SyncResult) -> list[str]:
    """One sentence per store entry fetched again because its files had changed."""
    sentences = []
    for pin, files in result.repaired.items():
        shown = ", ".join(files[:5]) + (" ..." if len(files) > 5 else "")
        sentences.append(
            f"the store copy of {pin.repo} at {pin.rev} had changed since it was fetched "
            f"({shown}): hookman fetched the pinned commit {pin.commit[:12]} again in its place."
        )
    return sentences


def subscription_sentences(result: SyncResult) -> list[str]:
    """What the sync learned from the hooks' code that hookman.toml did not record."""
    if not result.subscription_changes:
        return []
    verb = "would record" if result.dry_run else "now records"
    lines = [f"{CLAUDE_DIR}/hookman.toml {verb} what the hooks' code subscribes to:"]
    for change in result.subscription_changes:
        lines += [f"  {sentence}" for sentence in change_sentences(change)]
    return lines


def store_sentences(result: SyncResult) -> list[str]:
    """What the sync fetched into the store and how it changed the committed pins file."""
    lines = [
        f"fetched {fetched.repo} at {fetched.rev} ({fetched.commit[:12]}) into the store"
        for fetched in result.fetched
    ]
    if result.pin_changes:
        verb = "would rewrite" if result.dry_run else "rewrote"
        lines.append(f"{verb} {PINS_RELATIVE} (commit it, so teammates run the same code):")
        for change in result.pin_changes:
            lines.append(f"  {change.repo} {change.rev}: {_pin_move(change.old, change.new)}")
    return lines


def _pin_move(old: str | None, new: str | None) -> str:
    if old is None:
        return f"pinned to {new[:12] if new else '?'}"
    if new is None:
        return f"pin dropped (was {old[:12]}; no hook uses it now)"
    return f"{old[:12]} -> {new[:12]}"


def codex_sentences(result: SyncResult) -> list[str]:
    """What install says about Codex: what it wrote, what it could not, the trust."""
    if result.codex_absent:
        from hookman.commands.codex_wording import absent_sentences

        return absent_sentences(result.project_dir)
    if result.codex_change is None:
        return []
    path = result.codex_change.path
    if result.codex is None:
        changed = result.codex_change.changed
        return [f"removed hookman's Codex entries from {path}"] if changed else []
    from hookman.commands.agent_wording import entries_sentence

    changed = result.codex_change.changed
    lines = [entries_sentence("Codex", result.codex.events, changed, path, dry_run=result.dry_run)]
    if result.codex_git:
        lines.append(f"{codex_files.HOOKS_RELATIVE}: {exclusion_sentence(result.codex_git)}")
    from hookman.commands.codex_wording import plan_sentences, trust_sentences

    lines += plan_sentences(result.codex)
    if result.codex_trust is not None:
        lines += trust_sentences(result.codex_trust, result.project_dir)
    return lines


def sync_json(result: SyncResult) -> SyncJson:
    """What `install --json`, `remove --json`, ... print (hookman/json_shapes.py)."""
    plan = result.plan
    shown: SyncJson = {
        "project": str(result.project_dir),
        "claude_version": None if result.target.version is None else str(result.target.version),
        "claude_version_source": result.target.source,
        "hooks": [hook_json(hook, plan) for hook in result.hooks],
        "written": {
            event: {"matcher": entry.matcher, "timeout": entry.timeout}
            for event, entry in plan.entries.items()
        },
        "written_async": {
            event: {"matcher": entry.matcher, "timeout": entry.timeout}
            for event, entry in plan.async_entries.items()
        },
        "written_sentinel": {
            event: {"matcher": entry.matcher, "timeout": entry.timeout}
            for event, entry in plan.sentinels.items()
        },
        "held_back": {event: {"since": since} for event, since in plan.held_back.items()},
        "settings_changed": result.settings_change.changed,
        "dry_run": result.dry_run,
        "diff": result.settings_change.diff(),
        "config_diff": result.config_diff,
        "git": None if result.git is None else exclusion_sentence(result.git),
        "warnings": sync_warnings(result),
        "missing": [
            {"name": name, "problem": problem, "fix": fix}
            for name, (problem, fix) in result.missing.items()
        ],
        "broken": [
            {"name": name, "problem": problem, "fix": fix}
            for name, (problem, fix) in result.broken.items()
        ],
    }
    if result.codex_change is not None:
        shown["codex"] = _codex_json(result)
    if result.agents or result.copilot:
        _add_agents_json(shown, result)
    if result.fetched:
        shown["fetched"] = [
            {"repo": f.repo, "rev": f.rev, "commit": f.commit} for f in result.fetched
        ]
    if result.subscription_changes:
        shown["subscriptions_changed"] = changes_json(result.subscription_changes)
    if result.pin_changes:
        shown["pins_changed"] = [
            {"repo": c.repo, "rev": c.rev, "old": c.old, "new": c.new} for c in result.pin_changes
        ]
    return shown


def _add_agents_json(shown: SyncJson, result: SyncResult) -> None:
    """The "qwen", "droid" and "copilot" objects (json_shapes.SyncJson)."""
    from hookman.catalog.agent_catalog import DROID_AGENT, QWEN_AGENT
    from hookman.commands.agent_wording import COPILOT_TRUST, agents_json

    agents = agents_json(result.agents, result.project_dir)
    if QWEN_AGENT in agents:
        shown["qwen"] = agents[QWEN_AGENT]
    if DROID_AGENT in agents:
        shown["droid"] = agents[DROID_AGENT]
    if result.copilot:
        shown["copilot"] = {"trust": COPILOT_TRUST}


def _codex_json(result: SyncResult) -> CodexSyncJson:
    assert result.codex_change is not None
    codex = result.codex
    return {
        "path": str(result.codex_change.path),
        "version": None if codex is None or codex.version is None else str(codex.version),
        "written": [] if codex is None else codex.events,
        "not_in_codex": [] if codex is None else codex.not_in_codex,
        "without_counterpart": {} if codex is None else codex.without_counterpart,
        "changed": result.codex_change.changed,
        "diff": result.codex_change.diff(),
        "git": None if result.codex_git is None else exclusion_sentence(result.codex_git),
        "trust": _trust_json(result),
    }


def _trust_json(result: SyncResult) -> CodexTrustJson | None:
    trust = result.codex_trust
    if trust is None:
        return None
    from hookman.commands.codex_wording import trust_todo_sentence

    return {
        "trusted": trust.trusted,
        "already_trusted": trust.already,
        "todo": trust_todo_sentence(trust, result.project_dir),
    }
