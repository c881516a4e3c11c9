"""`hookman uninstall [--dry-run] [--json]`: take out everything hookman wrote for the project
on this machine (install/uninstall.py plans and writes it; this module says it).

What stays, by design: the project's committed files (hookman.toml, hookman-pins.json, the
hooks in .claude/hooks/), which are the team's and would come back with the next pull, and
what every project of the user shares (the store of fetched repositories, the firing log,
the client version caches). The output names each with the command that clears it.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from hookman import paths
from hookman.commands.options import DRY_RUN, JSON, PROJECT, cli_command
from hookman.install.uninstall import (
    FileEdit,
    UninstallPlan,
    plan_uninstall,
    remove_lock_file,
    write_uninstall,
)
from hookman.output import console, escape, print_json
from hookman.project.git_exclude import is_tracked
from hookman.project.location import CLAUDE_DIR, CONFIG_NAME, find_project_dir
from hookman.project.lock import edit_lock

if TYPE_CHECKING:
    from hookman.json_shapes import UninstalledFileJson, UninstallJson

# The project's committed files, which uninstall leaves (relative to the project).
KEPT = (f"{CLAUDE_DIR}/{CONFIG_NAME}", f"{CLAUDE_DIR}/hookman-pins.json", f"{CLAUDE_DIR}/hooks")


@cli_command(
    "uninstall",
    PROJECT,
    DRY_RUN,
    JSON,
    help="""Take out everything hookman wrote for this project on this machine.

    Its entries in .claude/settings.local.json, .codex/hooks.json, .qwen/settings.json and
    .factory/hooks.json (yours stay), Codex's
    trust in them, its .git/info/exclude lines and its state directory. The committed
    hookman.toml, hookman-pins.json and .claude/hooks/ stay, as do the store and the firing
    log every project shares: the output says how to clear those.""",
    examples=("hookman uninstall --dry-run", "hookman uninstall"),
)
def uninstall(
    *, project: Path | None = None, dry_run: bool = False, json_output: bool = False
) -> int:
    """Plan, then (unless `dry_run`) take out; say what went and what stays. `--json` prints
    an `UninstallJson` (hookman/json_shapes.py). Returns the exit code."""
    project_dir = find_project_dir(project)
    with edit_lock(project_dir, dry_run=dry_run):
        plan = plan_uninstall(project_dir)
        if not dry_run:
            write_uninstall(plan)
    if not dry_run:
        remove_lock_file(project_dir)
    kept = [relative for relative in KEPT if (project_dir / relative).exists()]
    if json_output:
        print_json(_json(plan, kept, dry_run=dry_run))
    else:
        _print(plan, kept, dry_run=dry_run)
    return 0


def _json(plan: UninstallPlan, kept: list[str], *, dry_run: bool) -> UninstallJson:
    trust = plan.codex_trust
    exclusions = plan.exclusions
    return {
        "project": str(plan.project_dir),
        "dry_run": dry_run,
        "settings": _file_json(plan.settings),
        "codex_hooks": _file_json(plan.codex_hooks),
        "agent_hooks": {agent: _file_json(edit) for agent, edit in plan.agent_hooks.items()},
        "codex_trust": None
        if trust is None
        else {"config": str(trust.config_path), "keys": trust.keys},
        "git_exclude": None
        if exclusions is None or not plan.excluded_patterns
        else {"file": exclusions.shown, "patterns": plan.excluded_patterns},
        "state_dir": None if plan.state_dir is None else str(plan.state_dir),
        "kept": kept,
        "shared": _shared(),
    }


def _file_json(edit: FileEdit | None) -> UninstalledFileJson | None:
    if edit is None:
        return None
    return {
        "path": str(edit.path),
        "entries": edit.entries,
        "status_line": edit.status_line,
        "file_removed": edit.remove_file,
        "diff": "" if edit.remove_file else edit.change.diff(),
    }


def _shared() -> dict[str, str]:
    return {
        "store": str(paths.cache_dir() / "repos"),
        "log": str(paths.firing_log_path()),
        "cache": str(paths.cache_dir()),
    }


def _print(plan: UninstallPlan, kept: list[str], *, dry_run: bool) -> None:
    out = console()
    project = escape(str(plan.project_dir))
    if dry_run:
        out.print("[bold]dry run:[/] nothing was written.")
    if plan.nothing:
        out.print(f"hookman has nothing of its own to remove in {project}.", highlight=False)
    else:
        verb = "would remove" if dry_run else "removed"
        out.print(f"{verb} what hookman wrote for {project}:", highlight=False)
        for line in _removed_lines(plan):
            out.print(f"  {escape(line)}", highlight=False)
    _print_kept(plan.project_dir, kept)
    shared = _shared()
    out.print("kept, shared by every project on this machine:", highlight=False)
    out.print(
        f"  the store of fetched hook repositories, {escape(shared['store'])} "
        f"(clear it, for every project, with: rm -rf {escape(shlex.quote(shared['store']))})",
        highlight=False,
    )
    out.print(
        f"  the firing log, {escape(shared['log'])} (`hookman log` reads it; clear it with: "
        f"rm -f {escape(shlex.quote(shared['log']))}*)",
        highlight=False,
    )


def _removed_lines(plan: UninstallPlan) -> list[str]:
    edits = (plan.settings, plan.codex_hooks, *plan.agent_hooks.values())
    lines = [_file_line(edit) for edit in edits if edit is not None]
    if plan.codex_trust is not None:
        keys = len(plan.codex_trust.keys)
        lines.append(
            f"{plan.codex_trust.config_path}: Codex's trust in hookman's entries "
            f"({keys} record{'s' if keys != 1 else ''})"
        )
    if plan.exclusions is not None and plan.excluded_patterns:
        patterns = ", ".join(plan.excluded_patterns)
        lines.append(f"{plan.exclusions.shown}: the lines hookman added ({patterns})")
    if plan.state_dir is not None:
        lines.append(
            f"{plan.state_dir}: hookman's state for this project (launcher, manifest, caches, "
            "session files)"
        )
    return lines


def _file_line(edit: FileEdit) -> str:
    parts = []
    if edit.entries:
        parts.append(f"{edit.entries} hookman entr{'ies' if edit.entries != 1 else 'y'}")
    if edit.status_line:
        parts.append("hookman's statusLine")
    what = " and ".join(parts) or "hookman's entries"
    rest = "the file goes: nothing else is in it" if edit.remove_file else "the rest kept"
    return f"{edit.path}: {what} ({rest})"


def _print_kept(project_dir: Path, kept: list[str]) -> None:
    if not kept:
        return
    out = console()
    out.print(
        f"kept, the project's own files: {escape(', '.join(kept))} (`hookman install` puts "
        "hookman back from them)",
        highlight=False,
    )
    tracked = [relative for relative in kept if is_tracked(project_dir, relative)]
    untracked = [str(project_dir / relative) for relative in kept if relative not in tracked]
    if tracked:
        words = " ".join(shlex.quote(word) for word in ["-C", str(project_dir), "rm", "-r"])
        words += " " + " ".join(shlex.quote(relative) for relative in tracked)
        out.print(f"  to drop them from the repository too: git {escape(words)}", highlight=False)
    if untracked:
        words = " ".join(shlex.quote(path) for path in untracked)
        out.print(f"  to delete them too: rm -r {escape(words)}", highlight=False)
