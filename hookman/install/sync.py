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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman import paths
from hookman.agents import codex_files
from hookman.atomic_file import atomic_write_text, write_text_if_changed
from hookman.bridge.protocol import CODEX_AGENT
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, TargetVersion
from hookman.errors import HookmanError
from hookman.install.report import hook_json, plan_warnings, target_warnings, tool_name_warnings
from hookman.install.resolution import broken_modules, resolve_modules, used_pins
from hookman.project.config import (
    HookSpec,
    ProjectConfigView,
    remember_parsed_config,
    save_project_config,
)
from hookman.project.git_exclude import NOT_A_WORK_TREE, ensure_git_ignored
from hookman.project.install_plan import InstallPlan, plan_install
from hookman.project.launcher import launcher_path, launcher_text
from hookman.project.location import CLAUDE_DIR, LOCAL_SETTINGS_NAME, local_settings_path
from hookman.project.manifest import (
    FLAG_SOURCE,
    build_manifest,
    manifest_text,
    write_manifest,
)
from hookman.project.pins import Pin, pins_path, read_pins, write_pins
from hookman.project.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    build_command,
)
from hookman.project.settings_file import SettingsChange, lines_with_ends, update_settings

if TYPE_CHECKING:  # Codex's modules load only for a project whose agents include it
    from hookman.agents.codex_sync import CodexPlan, CodexTrust
    from hookman.json_shapes import CodexSyncJson, SyncJson

LOCAL_SETTINGS_RELATIVE = f"{CLAUDE_DIR}/{LOCAL_SETTINGS_NAME}"


@dataclass(frozen=True)
class SyncResult:
    """What an install or remove wrote (or, for a dry run, would write)."""

    project_dir: Path
    target: TargetVersion
    hooks: list[HookSpec]
    plan: InstallPlan
    settings_change: SettingsChange
    config_diff: str
    dry_run: bool
    git: str | None = None  # what ensure_git_ignored did; None outside a git work tree
    warnings: list[str] = field(default_factory=list)
    # Hooks whose module this machine lacks: name -> (what is wrong, how to get it).
    missing: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Hooks whose module is there but does not compile: name -> (what is wrong, how to fix).
    broken: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Codex CLI (docs/agents.md): its plan (None when the project's agents leave it out and
    # .codex/hooks.json holds no hookman entry), the change to that file, git, and trust.
    codex: CodexPlan | None = None
    codex_change: SettingsChange | None = None
    codex_git: str | None = None
    codex_trust: CodexTrust | None = None

    def codex_sentences(self) -> list[str]:
        """What install says about Codex: what it wrote, what it could not, the trust."""
        if self.codex_change is None:
            return []
        path = self.codex_change.path
        if self.codex is None:
            return (
                [f"removed hookman's Codex entries from {path}"]
                if self.codex_change.changed
                else []
            )
        events = ", ".join(self.codex.events) or "no events"
        verb = "would write" if self.dry_run else ("wrote" if self.codex_change.changed else "kept")
        lines = [f"Codex: {verb} {events} in {path}"]
        if self.codex_git:
            lines.append(f"{codex_files.HOOKS_RELATIVE}: {self.codex_git}")
        from hookman.agents.codex_sync import plan_sentences

        lines += plan_sentences(self.codex)
        if self.codex_trust is not None:
            lines += self.codex_trust.sentences()
        return lines

    def held_back_sentences(self) -> list[str]:
        target = "unknown" if self.target.version is None else str(self.target.version)
        return [
            f"held back {event}: needs Claude Code >= {since}, target is {target}"
            for event, since in self.plan.held_back.items()
        ]

    def to_json(self) -> SyncJson:
        """What `install --json`, `remove --json`, ... print (hookman/json_shapes.py)."""
        shown: SyncJson = {
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
            "missing": [
                {"name": name, "problem": problem, "fix": fix}
                for name, (problem, fix) in self.missing.items()
            ],
            "broken": [
                {"name": name, "problem": problem, "fix": fix}
                for name, (problem, fix) in self.broken.items()
            ],
        }
        if self.codex_change is not None:
            shown["codex"] = self._codex_json()
        return shown

    def _codex_json(self) -> CodexSyncJson:
        assert self.codex_change is not None
        codex = self.codex
        return {
            "path": str(self.codex_change.path),
            "version": None if codex is None or codex.version is None else str(codex.version),
            "written": [] if codex is None else codex.events,
            "not_in_codex": [] if codex is None else codex.not_in_codex,
            "without_counterpart": {} if codex is None else codex.without_counterpart,
            "changed": self.codex_change.changed,
            "diff": self.codex_change.diff(),
            "git": self.codex_git,
            "trust": None if self.codex_trust is None else self.codex_trust.to_json(),
        }


class Trial:
    """Hooks `hookman try-repo` installs for a trial: run after hookman.toml's hooks, kept
    out of hookman.toml and its pins (the next install or remove drops them)."""

    def __init__(self, hooks: Sequence[HookSpec], pins: dict[tuple[str, str], Pin]) -> None:
        self.hooks = list(hooks)
        self.pins = pins


def sync_project(
    project_dir: Path,
    config: ProjectConfigView,
    target: TargetVersion,
    *,
    dry_run: bool,
    trial: Trial | None = None,
    known_pins: dict[tuple[str, str], Pin] | None = None,
    codex_version: str | None = None,
    trust_codex: bool = True,
) -> SyncResult:
    """Write what `config` asks for (see the module docstring). Caller holds project_lock.
    Repository hooks are fetched into the store and their revs pinned (not in a dry run);
    `known_pins` are pins just resolved (by autoupdate), used before asking git again.
    When the project's agents include Codex CLI, its .codex/hooks.json too (`codex_version`
    the target, else `codex --version`), and with `trust_codex` its trust in hookman's
    entries is recorded (agents/codex_sync.py)."""
    check_paths_are_utf8(project_dir)
    hooks = config.hooks + ([] if trial is None else trial.hooks)
    enabled = [hook for hook in hooks if hook.enabled]
    pins = read_pins(project_dir)
    given = {**(known_pins or {}), **({} if trial is None else trial.pins)}
    resolution = resolve_modules(enabled, project_dir, {**pins, **given}, fetch=not dry_run)
    module_paths, missing = resolution.paths, resolution.missing
    for hook in [] if trial is None else trial.hooks:
        resolution.origins.setdefault(hook.name, {})["trial"] = True
    for name, path in module_paths.items():
        _check_utf8(f"the module of the hook {name!r},", path)
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
    codex = _codex_plan(project_dir, config, hooks, plan, launcher, codex_version)
    codex_entries = [] if codex is None else codex.entries
    codex_wanted = codex is not None or codex_files.has_hookman_entries(project_dir)
    codex_preview = (
        codex_files.update_codex_hooks(project_dir, codex_entries, dry_run=True)
        if codex_wanted
        else None
    )
    config_diff = _config_diff(config)
    warnings = target_warnings(plan, target) + plan_warnings(plan) + tool_name_warnings(hooks)
    warnings += resolution.warnings
    broken = broken_modules(enabled, module_paths, missing)
    if dry_run:
        return SyncResult(
            project_dir,
            target,
            hooks,
            plan,
            preview,
            config_diff,
            True,
            None,
            warnings,
            missing,
            broken,
            codex,
            codex_preview,
        )

    manifest = _manifest_for(
        project_dir, hooks, module_paths, plan, target, resolution.origins, codex
    )
    new_pins = used_pins(config.hooks, pins, resolution.pins)
    codex_path = codex_files.codex_hooks_path(project_dir)
    with _restored_on_failure(
        manifest_file, launcher, config.path, pins_path(project_dir), codex_path
    ):
        write_manifest(project_dir, manifest)
        _write_launcher(project_dir)
        save_project_config(config)
        if new_pins != pins:
            write_pins(project_dir, new_pins)
        change = update_settings(settings_path, edit, dry_run=False)
        codex_change = (
            codex_files.update_codex_hooks(project_dir, codex_entries, dry_run=False)
            if codex_wanted
            else None
        )
    remember_parsed_config(project_dir)
    git = None
    if change.after is not None:
        outcome = ensure_git_ignored(project_dir, LOCAL_SETTINGS_RELATIVE)
        git = None if outcome == NOT_A_WORK_TREE else outcome
    codex_git = None
    if codex_change is not None and codex_change.after is not None:
        codex_git = codex_files.keep_out_of_git(project_dir)
    codex_trust = None
    if codex is not None and codex.entries:
        from hookman.agents.codex_sync import trust_hookman_hooks

        codex_trust = trust_hookman_hooks(project_dir, record=trust_codex)
    return SyncResult(
        project_dir,
        target,
        hooks,
        plan,
        change,
        config_diff,
        False,
        git,
        warnings,
        missing,
        broken,
        codex,
        codex_change,
        codex_git,
        codex_trust,
    )


def _codex_plan(
    project_dir: Path,
    config: ProjectConfigView,
    hooks: Sequence[HookSpec],
    plan: InstallPlan,
    launcher: Path,
    version_flag: str | None,
) -> CodexPlan | None:
    """What to write for Codex CLI, when the project's agents include it."""
    if CODEX_AGENT not in config.agents:
        return None
    from hookman.agents.codex_sync import plan_codex
    from hookman.catalog import codex_catalog

    version: ClientVersion | None
    if version_flag is not None:
        try:
            version = codex_catalog.parse_codex_version(version_flag)
        except ValueError:
            raise HookmanError(
                f"--codex-version {version_flag!r} is not a version such as 0.171.0.",
                "pass MAJOR.MINOR.PATCH, as `codex --version` prints it.",
                exit_code=2,
            ) from None
    else:
        version = codex_catalog.detect_codex_version()
    return plan_codex(hooks, plan, launcher, version)


def preview_manifest(
    project_dir: Path, config: ProjectConfigView, target: TargetVersion
) -> dict[str, Any]:
    """The manifest `sync_project` would write for `config`, built in memory (for `hookman
    fire` before the first install); hooks whose module is missing fail to load in it."""
    enabled = [hook for hook in config.hooks if hook.enabled]
    resolution = resolve_modules(enabled, project_dir, read_pins(project_dir), fetch=False)
    plan = plan_install(config.hooks, target.version)
    manifest = build_manifest(
        project_dir,
        config.hooks,
        resolution.paths,
        plan,
        target.version,
        origins=resolution.origins,
    )
    codex = _codex_plan(project_dir, config, config.hooks, plan, launcher_path(project_dir), None)
    if codex is not None:
        from hookman.agents.codex_sync import manifest_section

        manifest["codex"] = manifest_section(codex)
    return manifest


def check_paths_are_utf8(project_dir: Path) -> None:
    """Refuse before any write when a path hookman must write into the settings or the
    manifest cannot be written as UTF-8 text (JSON is UTF-8): a directory name of other
    bytes, which Python carries as surrogate escapes."""
    places = (
        ("the project directory", project_dir),
        ("hookman's state directory", paths.project_state_dir(project_dir)),
        ("the Python interpreter", Path(sys.executable)),
    )
    for what, path in places:
        _check_utf8(what, path)


def _check_utf8(what: str, path: Path) -> None:
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        shown = str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise HookmanError(
            f"{what} {shown} has a name that is not valid UTF-8, so hookman cannot write it "
            "into Claude Code's settings (JSON text is UTF-8); nothing was changed.",
            "rename the directory to a UTF-8 name (e.g. with `mv`), then run the command again.",
        ) from None


def sync_if_nothing_changes(
    project_dir: Path,
    config: ProjectConfigView,
    target: TargetVersion,
    *,
    codex_version: str | None = None,
    trust_codex: bool = True,
) -> SyncResult | None:
    """The result of `sync_project` when it would write nothing, found without the project
    lock (filelock costs more than the rest of a repeated install); None when something
    must be written, and the caller then locks and syncs. Sound without the lock: every
    writer replaces files atomically, so each file read here is whole, and a result that
    changes nothing is right as of the moment it was read."""
    preview = sync_project(project_dir, config, target, dry_run=True, codex_version=codex_version)
    if preview.settings_change.changed or preview.config_diff:
        return None
    if preview.codex_change is not None and preview.codex_change.changed:
        return None
    enabled = [hook for hook in config.hooks if hook.enabled]
    pins = read_pins(project_dir)
    resolution = resolve_modules(enabled, project_dir, pins, fetch=False)
    if resolution.missing and any(hook.source.kind == "repo" for hook in enabled):
        # A store entry to fetch, or a rev to pin: that needs the locked sync. (The manifest
        # would differ too: a missing entry's module path is a placeholder.)
        return None
    if used_pins(config.hooks, pins, resolution.pins) != pins:
        return None
    manifest = _manifest_for(
        project_dir,
        config.hooks,
        resolution.paths,
        preview.plan,
        target,
        resolution.origins,
        preview.codex,
    )
    try:
        written = paths.manifest_path(project_dir).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if written != manifest_text(manifest) or not _launcher_is_current(project_dir):
        return None
    git = None
    if preview.settings_change.after is not None:
        outcome = ensure_git_ignored(project_dir, LOCAL_SETTINGS_RELATIVE)
        git = None if outcome == NOT_A_WORK_TREE else outcome
    codex_git, codex_trust = None, None
    if preview.codex_change is not None and preview.codex_change.after is not None:
        codex_git = codex_files.keep_out_of_git(project_dir)
    if preview.codex is not None and preview.codex.entries:
        from hookman.agents.codex_sync import trust_hookman_hooks

        # Also when nothing changed: the user may have trusted the project since.
        codex_trust = trust_hookman_hooks(project_dir, record=trust_codex)
    return replace(preview, dry_run=False, git=git, codex_git=codex_git, codex_trust=codex_trust)


def _manifest_for(
    project_dir: Path,
    hooks: Sequence[HookSpec],
    module_paths: dict[str, Path],
    plan: InstallPlan,
    target: TargetVersion,
    origins: dict[str, dict[str, Any]],
    codex: CodexPlan | None = None,
) -> dict[str, Any]:
    source = FLAG_SOURCE if target.is_explicit_flag else target.source
    manifest = build_manifest(
        project_dir,
        hooks,
        module_paths,
        plan,
        target.version,
        version_source=source,
        origins=origins,
    )
    if codex is not None:  # only then: a Claude Code project's manifest is as it was
        from hookman.agents.codex_sync import manifest_section

        manifest["codex"] = manifest_section(codex)
    return manifest


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


def _launcher_for(project_dir: Path) -> str:
    """The launcher a sync writes now: this interpreter, the project's manifest, the guarded
    events of the catalog."""
    python = sys.executable
    return launcher_text(python, paths.manifest_path(project_dir), event_catalog.guarded_events())


def _launcher_is_current(project_dir: Path) -> bool:
    """Whether the launcher on disk is the one a sync would write now."""
    try:
        return launcher_path(project_dir).read_text(encoding="utf-8") == _launcher_for(project_dir)
    except (OSError, UnicodeDecodeError):
        return False


def _write_launcher(project_dir: Path) -> None:
    try:
        write_text_if_changed(launcher_path(project_dir), _launcher_for(project_dir))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write its launcher {launcher_path(project_dir)}: "
            f"{error.strerror or error}; nothing was changed.",
            "check the permissions of hookman's state directory, or set HOOKMAN_HOME.",
        ) from error


def _config_diff(config: ProjectConfigView) -> str:
    before = config.original_text() or ""
    after = config.text()
    if before == after:
        return ""
    lines = difflib.unified_diff(
        lines_with_ends(before),
        lines_with_ends(after),
        fromfile=str(config.path) if config.exists else "/dev/null",
        tofile=str(config.path),
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
