"""Makes settings.local.json and the manifest match an (edited) hookman.toml.

One transaction, run by `install` and `remove` while they hold `project_lock`: plan the
entries, check the settings file can be edited (a malformed one stops everything before any
write), then write the manifest and the launcher (the runner needs them before an entry
points at them), hookman.toml, and settings.local.json; when one of these writes fails
(e.g. a read-only .claude/), the ones already done are put back. Every write is skipped
when the bytes would not change, so a repeated install touches nothing. With `dry_run`
nothing is written.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookman import event_catalog, paths
from hookman.atomic_file import atomic_write_text
from hookman.client_version import TargetVersion
from hookman.errors import HookmanError
from hookman.git_exclude import NOT_A_WORK_TREE, ensure_git_ignored
from hookman.hook_sources import module_path
from hookman.install_plan import InstallPlan, plan_install
from hookman.launcher import launcher_path, write_launcher
from hookman.manifest import build_manifest, write_manifest
from hookman.project import CLAUDE_DIR, LOCAL_SETTINGS_NAME, local_settings_path
from hookman.project_config import HookSpec, ProjectConfig, save_project_config
from hookman.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    build_command,
    supports_safe_path_flag,
)
from hookman.settings_file import SettingsChange, update_settings

LOCAL_SETTINGS_RELATIVE = f"{CLAUDE_DIR}/{LOCAL_SETTINGS_NAME}"


@dataclass(frozen=True)
class SyncResult:
    project_dir: Path
    target: TargetVersion
    hooks: list[HookSpec]
    plan: InstallPlan
    settings_change: SettingsChange
    config_diff: str
    dry_run: bool
    git: str | None = None  # what ensure_git_ignored did; None outside a git work tree
    warnings: list[str] = field(default_factory=list)

    def held_back_sentences(self) -> list[str]:
        target = "unknown" if self.target.version is None else str(self.target.version)
        return [
            f"held back {event}: needs Claude Code >= {since}, target is {target}"
            for event, since in self.plan.held_back.items()
        ]

    def to_json(self) -> dict[str, Any]:
        """Shape shared by `install --json` and `remove --json` (see their docstrings)."""
        return {
            "project": str(self.project_dir),
            "claude_version": None if self.target.version is None else str(self.target.version),
            "claude_version_source": self.target.source,
            "hooks": [hook_json(hook, self.plan) for hook in self.hooks],
            "written": {
                event: {"matcher": entry.matcher, "timeout": entry.timeout}
                for event, entry in self.plan.entries.items()
            },
            "written_async": {
                event: {"matcher": entry.matcher, "timeout": entry.timeout}
                for event, entry in self.plan.async_entries.items()
            },
            "held_back": {event: {"since": since} for event, since in self.plan.held_back.items()},
            "settings_changed": self.settings_change.changed,
            "dry_run": self.dry_run,
            "diff": self.settings_change.diff(),
            "config_diff": self.config_diff,
            "git": self.git,
            "warnings": list(self.warnings),
        }


def hook_json(hook: HookSpec, plan: InstallPlan) -> dict[str, Any]:
    return {
        "name": hook.name,
        "source": {"kind": hook.source.kind, "value": hook.source.value},
        "enabled": hook.enabled,
        "events": list(hook.events),
        "tools": {event: list(names) for event, names in hook.tools.items()},
        "timeout": hook.timeout,
        "async": hook.is_async,
        "claude_events": list(plan.claude_events.get(hook.name, ())),
    }


def sync_project(
    project_dir: Path, config: ProjectConfig, target: TargetVersion, *, dry_run: bool
) -> SyncResult:
    """Write what `config` asks for (see the module docstring). Caller holds project_lock."""
    hooks = config.hooks
    enabled = [hook for hook in hooks if hook.enabled]
    module_paths = _existing_modules(enabled, project_dir)
    plan = plan_install(hooks, target.version)
    manifest_file = paths.manifest_path(project_dir)
    launcher = launcher_path(project_dir)
    guarded = event_catalog.guarded_events()
    entries = [
        HookmanEntry(
            event,
            entry.matcher,
            build_command(event, launcher, guarded=event in guarded),
            entry.timeout,
        )
        for event, entry in plan.entries.items()
    ] + [
        HookmanEntry(
            event,
            entry.matcher,
            build_command(event, launcher, run_async=True),
            entry.timeout,
            is_async=True,
        )
        for event, entry in plan.async_entries.items()
    ]

    def edit(settings: dict[str, Any]) -> None:
        apply_hookman_entries(settings, entries)

    settings_path = local_settings_path(project_dir)
    preview = update_settings(settings_path, edit, dry_run=True)
    config_diff = _config_diff(config)
    warnings = plan_warnings(plan)
    if dry_run:
        return SyncResult(
            project_dir, target, hooks, plan, preview, config_diff, True, None, warnings
        )

    manifest = build_manifest(project_dir, hooks, module_paths, plan, target.version)
    with _restored_on_failure(manifest_file, launcher, config.path):
        write_manifest(project_dir, manifest)
        _write_launcher(project_dir, manifest_file, guarded)
        save_project_config(config)
        change = update_settings(settings_path, edit, dry_run=False)
    git = None
    if change.after is not None:
        outcome = ensure_git_ignored(project_dir, LOCAL_SETTINGS_RELATIVE)
        git = None if outcome == NOT_A_WORK_TREE else outcome
    return SyncResult(project_dir, target, hooks, plan, change, config_diff, False, git, warnings)


@contextmanager
def _restored_on_failure(*files: Path) -> Iterator[None]:
    """Put `files` back as they were when the block fails (e.g. a read-only .claude/), so
    the manifest never describes hooks that hookman.toml and the settings do not hold."""
    saved: dict[Path, bytes | None] = {}
    for path in files:
        with suppress(OSError):  # unreadable: its writer fails too, and nothing is undone
            saved[path] = path.read_bytes() if path.exists() else None
    try:
        yield
    except BaseException:
        for path, data in saved.items():
            with suppress(OSError, UnicodeDecodeError):
                if data is None:
                    path.unlink(missing_ok=True)
                elif path.read_bytes() != data:
                    atomic_write_text(path, data.decode("utf-8"))
        raise


def _write_launcher(project_dir: Path, manifest_file: Path, guarded: list[str]) -> None:
    python = sys.executable
    try:
        write_launcher(project_dir, python, supports_safe_path_flag(python), manifest_file, guarded)
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write its launcher {launcher_path(project_dir)}: "
            f"{error.strerror or error}; nothing was changed.",
            "check the permissions of hookman's state directory, or set HOOKMAN_HOME.",
        ) from error


def plan_warnings(plan: InstallPlan) -> list[str]:
    """Plain sentences about hooks that will not run under Claude Code as they are."""
    warnings: list[str] = []
    for name in plan.never_sent:
        warnings.append(
            f"the hook {name!r} listens only to runtime events Claude Code never sends; it runs "
            "in `hookman fire` and the Python API, never under Claude Code."
        )
    for name, asked in plan.session_end_capped.items():
        cap = (plan.entries.get("SessionEnd") or plan.async_entries["SessionEnd"]).timeout
        warnings.append(
            f"the hook {name!r} asks for {asked:g} s, but Claude Code gives SessionEnd hooks "
            f"at most {cap:g} s, so its SessionEnd entry gets {cap:g} s."
        )
    for name, events in plan.inert_events.items():
        listed = ", ".join(repr(event) for event in events)
        warnings.append(
            f"the hook {name!r} keeps {listed}, which no known Claude Code version sends "
            "(inert: kept with --allow-unknown-event)."
        )
    return warnings


def _existing_modules(hooks: list[HookSpec], project_dir: Path) -> dict[str, Path]:
    """Each hook's module; one error naming every hook whose module is gone, so the hint
    can name them all (removing one at a time would trip over the others)."""
    found: dict[str, Path] = {}
    problems: list[tuple[str, HookmanError]] = []
    for hook in hooks:
        try:
            found[hook.name] = _existing_module(hook, project_dir)
        except HookmanError as error:
            problems.append((hook.name, error))
    if len(problems) == 1:
        raise problems[0][1]
    if problems:
        names = [name for name, _ in problems]
        raise HookmanError(
            f"{len(names)} hooks cannot be loaded because their modules are gone: "
            f"{', '.join(repr(name) for name in names)}.",
            f"restore them, or take them out with `hookman remove {' '.join(names)}`.",
        )
    return found


def _existing_module(hook: HookSpec, project_dir: Path) -> Path:
    path = module_path(hook, project_dir)
    if not path.is_file():
        raise HookmanError(
            f"the module of the hook {hook.name!r} ({path}) does not exist.",
            f"restore the file, or take the hook out with `hookman remove {hook.name}`.",
        )
    return path


def _config_diff(config: ProjectConfig) -> str:
    before = config.original_text() or ""
    after = config.text()
    if before == after:
        return ""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=str(config.path) if config.exists else "/dev/null",
        tofile=str(config.path),
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def claude_events_of(hook: HookSpec) -> list[str]:
    """Every Claude Code event serving the hook's subscriptions, enabled or not."""
    served = (event for name in hook.events for event in event_catalog.claude_events_serving(name))
    return list(dict.fromkeys(served))
