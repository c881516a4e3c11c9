"""`hookman uninstall`: everything hookman wrote for one project on this machine, planned,
then taken out (docs/uninstall.md).

- plan (`plan_uninstall`): hookman's entries (and its statusLine) in
  .claude/settings.local.json, .codex/hooks.json and the other agents' hooks files (Qwen
  Code's .qwen/settings.json, droid's .factory/hooks.json: install/agent_step.py), what
  each file becomes (a file left holding nothing, `{}`, goes),
  Codex's trust records of hookman's entries, the lines hookman added to .git/info/exclude
  (all of them: the work tree is ignored as it was before hookman), and the project's state
  directory. A file hookman cannot parse, or
  an agent's hooks file git tracks, stops everything here, before any write.
- write (`write_uninstall`): in that order; the caller holds the project lock. The lock file
  itself lives in the state directory: `remove_lock_file` takes it (and the directory) out
  once the lock is released.

Committed files are never touched: hookman.toml, hookman-pins.json and the hooks' own files
(.claude/hooks/) stay, as do what every project shares (the store, the firing log).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from hookman import paths
from hookman.agents import agent_facts, agent_files, codex_files
from hookman.agents.codex_trust_records import (
    TrustRecords,
    hookman_trust_records,
    remove_trust_records,
)
from hookman.errors import HookmanError
from hookman.project.git_exclude import HookmanExclusions, hookman_exclusions, remove_exclusions
from hookman.project.location import local_settings_path
from hookman.project.lock import LOCK_FILE_NAME
from hookman.project.settings_entries import apply_hookman_entries, find_hookman_entries
from hookman.project.settings_file import SettingsChange, read_settings, update_settings
from hookman.project.status_line_entry import STATUS_LINE_KEY, hookman_status_line


class FileEdit(NamedTuple):
    """hookman's part of one settings-shaped file: how many entries it holds, whether the
    statusLine is hookman's, the change, and whether the file goes (nothing else in it)."""

    path: Path
    entries: int
    status_line: bool
    change: SettingsChange
    remove_file: bool


class UninstallPlan(NamedTuple):
    """What `hookman uninstall` takes out (None / empty: nothing of that kind)."""

    project_dir: Path
    settings: FileEdit | None
    codex_hooks: FileEdit | None
    codex_trust: TrustRecords | None
    exclusions: HookmanExclusions | None
    excluded_patterns: list[str]  # every exclusion hookman added
    state_dir: Path | None  # the project's state directory, when there is one
    # Qwen Code's and droid's hooks files holding hookman entries: agent -> its edit
    agent_hooks: Mapping[str, FileEdit] = MappingProxyType({})

    @property
    def nothing(self) -> bool:
        return not (
            self.agent_hooks
            or self.settings
            or self.codex_hooks
            or self.codex_trust
            or self.excluded_patterns
            or self.state_dir
        )


def plan_uninstall(project_dir: Path) -> UninstallPlan:
    """Step 1: what would go, nothing written."""
    settings = _file_edit(local_settings_path(project_dir), status_line=True)
    codex_path = codex_files.codex_hooks_path(project_dir)
    codex_hooks = _file_edit(codex_path, status_line=False)
    trust = None
    if codex_hooks is not None:
        codex_files.update_codex_hooks(project_dir, [], dry_run=True)  # refuses a tracked one
        trust = hookman_trust_records(project_dir, read_settings(codex_path))
    exclusions = hookman_exclusions(project_dir)
    patterns = list(exclusions.patterns) if exclusions else []
    state_dir = paths.project_state_dir(project_dir)
    return UninstallPlan(
        project_dir,
        settings,
        codex_hooks,
        trust,
        exclusions,
        patterns,
        state_dir if _holds_more_than_the_lock(state_dir) else None,
        _agent_edits(project_dir),
    )


def write_uninstall(plan: UninstallPlan) -> None:
    """Step 2: take out what the plan found; the caller holds the project lock."""
    for edit in (plan.settings, plan.codex_hooks):
        if edit is not None:
            _write_file_edit(edit)
    if plan.codex_hooks is not None and plan.codex_hooks.remove_file:
        with suppress(OSError):  # .codex/ left empty: hookman made it for its file
            plan.codex_hooks.path.parent.rmdir()
    for agent, edit in plan.agent_hooks.items():
        _write_agent_edit(plan.project_dir, agent, edit)
    if plan.codex_trust is not None:
        remove_trust_records(plan.codex_trust)
    if plan.exclusions is not None and plan.excluded_patterns:
        try:
            remove_exclusions(plan.exclusions, plan.excluded_patterns)
        except (OSError, UnicodeDecodeError) as error:
            raise HookmanError(
                f"hookman cannot take its lines out of {plan.exclusions.shown}: {error}.",
                "remove the lines under '# added by hookman' by hand.",
            ) from None
    if plan.state_dir is not None:
        _empty_state_dir(plan.state_dir)


def _agent_edits(project_dir: Path) -> dict[str, FileEdit]:
    """hookman's part of each agent's hooks file (a tracked or unreadable one refuses)."""
    edits: dict[str, FileEdit] = {}
    for agent in agent_facts.file_agents():
        path = agent_files.hooks_path(project_dir, agent)
        if not path.exists() and not path.is_symlink():
            continue
        change = agent_files.update_agent_hooks(project_dir, agent, [], dry_run=True)
        if not change.changed:
            continue
        found = len(agent_files.hookman_entries(project_dir, agent))
        emptied = change.after is not None and json.loads(change.after.lstrip("\ufeff")) == {}
        edits[agent] = FileEdit(path, found, False, change, emptied and not path.is_symlink())
    return edits


def _write_agent_edit(project_dir: Path, agent: str, edit: FileEdit) -> None:
    if not edit.remove_file:
        agent_files.update_agent_hooks(project_dir, agent, [], dry_run=False)
        return
    _write_file_edit(edit)
    with suppress(OSError):  # its directory left empty: hookman made it for its file
        edit.path.parent.rmdir()


def _holds_more_than_the_lock(state_dir: Path) -> bool:
    try:
        return any(child.name != LOCK_FILE_NAME for child in state_dir.iterdir())
    except OSError:
        return False


def remove_lock_file(project_dir: Path) -> None:
    """After the lock is released: its file, and the state directory when that is empty,
    and the directories above it up to hookman's state root when they are left empty (no
    other project's state, no firing log there)."""
    state_dir = paths.project_state_dir(project_dir)
    with suppress(OSError):
        (state_dir / LOCK_FILE_NAME).unlink(missing_ok=True)
    root = paths.state_dir()
    for directory in (state_dir, state_dir.parent, root):
        if directory != state_dir and not state_dir.is_relative_to(directory):
            break
        try:
            directory.rmdir()
        except OSError:
            break


def _file_edit(path: Path, *, status_line: bool) -> FileEdit | None:
    """hookman's part of `path` (with `status_line`: also a statusLine of hookman's)."""
    if not path.exists() and not path.is_symlink():
        return None
    settings = read_settings(path)
    found = len(find_hookman_entries(settings))
    ours = status_line and hookman_status_line(settings.get(STATUS_LINE_KEY)) is not None
    change = update_settings(path, _strip(status_line=ours), dry_run=True)
    if not change.changed:
        return None
    # A file left holding nothing goes; a symlink stays (its target, a dotfiles copy, is the
    # user's file: it is written through, as install writes it).
    emptied = change.after is not None and json.loads(change.after.lstrip("\ufeff")) == {}
    remove_file = emptied and not path.is_symlink()
    return FileEdit(path, found, ours, change, remove_file)


def _strip(*, status_line: bool) -> Callable[[dict[str, Any]], None]:
    def edit(settings: dict[str, Any]) -> None:
        apply_hookman_entries(settings, [])
        if status_line:
            settings.pop(STATUS_LINE_KEY, None)

    return edit


def _write_file_edit(edit: FileEdit) -> None:
    if not edit.remove_file:
        update_settings(edit.path, _strip(status_line=edit.status_line), dry_run=False)
        return
    try:
        edit.path.unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        raise HookmanError(
            f"hookman cannot remove {edit.path}: {error.strerror or error}.",
            "check that its directory is writable, then run `hookman uninstall` again.",
        ) from None


def _empty_state_dir(state_dir: Path) -> None:
    """Everything in the state directory but the lock file (held now)."""
    for child in state_dir.iterdir():
        if child.name == LOCK_FILE_NAME:
            continue
        try:
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        except OSError as error:
            raise HookmanError(
                f"hookman cannot remove {child}: {error.strerror or error}.",
                f"remove it by hand (`rm -rf {child}`), then run `hookman uninstall` again.",
            ) from None
