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
from hookman.catalog.client_version import ClientVersion, TargetVersion, resolve_target
from hookman.errors import HookmanError
from hookman.hooks.module_check import load_effect, module_problem
from hookman.hooks.sources import module_path
from hookman.project.config import (
    HookSpec,
    ProjectConfig,
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
    remembered_flag,
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
            "missing": [
                {"name": name, "problem": problem, "fix": fix}
                for name, (problem, fix) in self.missing.items()
            ],
            "broken": [
                {"name": name, "problem": problem, "fix": fix}
                for name, (problem, fix) in self.broken.items()
            ],
            **({} if self.codex_change is None else {"codex": self._codex_json()}),
        }

    def _codex_json(self) -> dict[str, Any]:
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


def hook_json(hook: HookSpec, plan: InstallPlan) -> dict[str, Any]:
    source: dict[str, Any] = {"kind": hook.source.kind, "value": hook.source.value}
    if hook.source.kind == "repo":  # the name the repository gives it, when it differs
        source.update(rev=hook.source.rev, hook=hook.source.offered_name(hook.name))
    return {
        "name": hook.name,
        "source": source,
        "enabled": hook.enabled,
        "events": list(hook.events),
        "tools": {event: list(names) for event, names in hook.tools.items()},
        "timeout": hook.timeout,
        "async": hook.is_async,
        "claude_events": list(plan.claude_events.get(hook.name, ())),
    }


class Trial:
    """Hooks `hookman try-repo` installs for a trial: run after hookman.toml's hooks, kept
    out of hookman.toml and its pins (the next install or remove drops them)."""

    def __init__(self, hooks: Sequence[HookSpec], pins: dict[tuple[str, str], Pin]) -> None:
        self.hooks = list(hooks)
        self.pins = pins


def installed_trial_hooks(project_dir: Path) -> list[HookSpec]:
    """The hooks of a `hookman try-repo` trial, as the installed manifest runs them."""
    import json

    from hookman.project.config import HookSource

    try:
        data = json.loads(paths.manifest_path(project_dir).read_text(encoding="utf-8"))
        records = [r for r in data.get("hooks") or [] if isinstance(r, dict) and r.get("trial")]
        return [
            HookSpec(
                name=str(r["name"]),
                source=HookSource("repo", str(r["repo"]), str(r["rev"])),
                events=tuple(r.get("events") or ()),
                tools={str(k): tuple(v) for k, v in (r.get("tools") or {}).items()},
                is_async=r.get("async") is True,
            )
            for r in records
        ]
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return []


def sync_project(
    project_dir: Path,
    config: ProjectConfig,
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
    resolution = _existing_modules(enabled, project_dir, {**pins, **given}, fetch=not dry_run)
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
    new_pins = _used_pins(config.hooks, pins, resolution.pins)
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
    config: ProjectConfig,
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
    project_dir: Path, config: ProjectConfig, target: TargetVersion
) -> dict[str, Any]:
    """The manifest `sync_project` would write for `config`, built in memory (for `hookman
    fire` before the first install); hooks whose module is missing fail to load in it."""
    enabled = [hook for hook in config.hooks if hook.enabled]
    resolution = _existing_modules(enabled, project_dir, read_pins(project_dir), fetch=False)
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
    config: ProjectConfig,
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
    resolution = _existing_modules(enabled, project_dir, pins, fetch=False)
    if resolution.missing and any(hook.source.kind == "repo" for hook in enabled):
        # A store entry to fetch, or a rev to pin: that needs the locked sync. (The manifest
        # would differ too: a missing entry's module path is a placeholder.)
        return None
    if _used_pins(config.hooks, pins, resolution.pins) != pins:
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


def project_target(project_dir: Path, flag: str | None, config: ProjectConfig) -> TargetVersion:
    """The client version a command writes (or, for `list`, reports) the project's settings
    for: --claude-version, hookman.toml, the --claude-version of the last write, or
    `claude --version` (client_version.resolve_target)."""
    remembered = remembered_flag(project_dir) if flag is None else None
    return resolve_target(flag, config.claude_version, remembered=remembered)


def target_warnings(plan: InstallPlan, target: TargetVersion) -> list[str]:
    """Plain sentences about what the target client means for the hooks: a held-back event
    whose absence weakens a guard, and a target newer than any version hookman checked."""
    warnings: list[str] = [] if target.note is None else [target.note]
    for event, since in plan.held_back.items():
        effect = event_catalog.held_back_effect(event)
        if effect is not None:
            warnings.append(
                f"{event} is held back (it needs Claude Code >= {since}), so {effect}; "
                f"upgrade Claude Code and run `hookman install` again to guard them."
            )
    newest = event_catalog.newest_checked_client()
    if target.version is not None and target.version > newest:
        warnings.append(
            f"Claude Code {target.version} is newer than {newest}, the newest version hookman "
            f"has facts for, so hookman assumes it behaves like {newest}: the same events, "
            "answers and texts the model reads."
        )
    return warnings


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


def tool_name_warnings(hooks: Sequence[HookSpec]) -> list[str]:
    """A sentence for each tool name an enabled hook asks for that differs from a known
    tool's name only in case: Claude Code's matchers are exact, so it matches no tool."""
    warnings: list[str] = []
    for hook in hooks:
        if not hook.enabled:
            continue
        asked = dict.fromkeys(name for names in hook.tools.values() for name in names)
        for name in asked:
            known = event_catalog.miscased_tool(name)
            if known is not None:
                warnings.append(
                    f"the hook {hook.name!r} asks for the tool {name!r}, but tool names are "
                    f"case-sensitive and no tool is named so, so it never runs for it: did "
                    f"you mean {known!r}? Fix the name in the hook (or in hookman.toml) and "
                    f"run `hookman install`."
                )
    return warnings


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
    for name, kept in plan.kept_blocking.items():
        events = " and ".join(kept)
        warnings.append(
            f"the hook {name!r} is async, but Claude Code never waits for an async hook, so a "
            f"guard there could not deny: its {events} part stays in the blocking entry "
            f"(its other events run async)."
        )
    for name, missed in plan.partial_guards.items():
        for event in missed:
            warnings.append(
                f"the hook {name!r} guards through raw handlers, which Claude Code does not call "
                f"for {event_catalog.guards(event)} (it sends those to {event}): listen to "
                f"`tool_call` to guard them too, or to {event!r} as well."
            )
    for name, events in plan.inert_events.items():
        listed = ", ".join(repr(event) for event in events)
        warnings.append(
            f"the hook {name!r} keeps {listed}, which no known Claude Code version sends "
            "(inert: kept with --allow-unknown-event)."
        )
    return warnings


class _Resolution:
    __slots__ = ("missing", "origins", "paths", "pins", "warnings")

    def __init__(self) -> None:
        self.paths: dict[str, Path] = {}
        self.missing: dict[str, tuple[str, str]] = {}
        # repository hooks: name -> their manifest keys (repo, rev, commit, package_root, trial)
        self.origins: dict[str, dict[str, Any]] = {}
        self.pins: dict[tuple[str, str], Pin] = {}
        self.warnings: list[str] = []


def _used_pins(
    hooks: Sequence[HookSpec], old: dict[tuple[str, str], Pin], new: dict[tuple[str, str], Pin]
) -> dict[tuple[str, str], Pin]:
    """The pins hookman.toml's repo hooks use: the new ones, and the old ones of hooks not
    resolved now (disabled ones); pins no hook uses are dropped."""
    wanted = {(hook.source.value, hook.source.rev) for hook in hooks if hook.source.kind == "repo"}
    merged = {key: pin for key, pin in old.items() if key in wanted}
    merged.update({key: pin for key, pin in new.items() if key in wanted})
    return merged


def broken_modules(
    hooks: list[HookSpec], module_paths: dict[str, Path], missing: dict[str, tuple[str, str]]
) -> dict[str, tuple[str, str]]:
    """The enabled hooks whose module is there but cannot load (a syntax error): written
    anyway, like a missing one, so the runner's load error makes a guard deny."""
    broken: dict[str, tuple[str, str]] = {}
    for hook in hooks:
        if hook.name in missing or hook.name not in module_paths:
            continue
        problem = module_problem(module_paths[hook.name])
        if problem is not None:
            broken[hook.name] = (
                f"the hook {hook.name!r} {problem}: {load_effect(hook.events)}.",
                f"fix the module (`hookman fire EVENT` shows the error), or take it out with "
                f"`hookman remove {hook.name}`.",
            )
    return broken


def hook_problems(config: ProjectConfig, project_dir: Path) -> dict[str, tuple[str, str]]:
    """Every enabled hook that will not load on this machine (missing or broken module),
    with what is wrong and how to fix it: what `list` reports and install exits 1 for."""
    enabled = [hook for hook in config.hooks if hook.enabled]
    resolution = _existing_modules(enabled, project_dir, read_pins(project_dir), fetch=False)
    missing = resolution.missing
    return {**missing, **broken_modules(enabled, resolution.paths, missing)}


def _existing_modules(
    hooks: list[HookSpec],
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
    *,
    fetch: bool,
) -> _Resolution:
    """Each hook's module, and the hooks whose module is not on this machine (a deleted
    file, a teammate's registry hook, a repository not in the store) with what is wrong and
    how to get it. With `fetch`, repository hooks are pinned and fetched first.

    A missing hook does not stop the others from being written: it stays in the manifest
    and the settings, and the runner reports it as a load error, so a missing guard still
    denies its tool calls (fail closed) instead of silently letting them through.
    """
    result = _Resolution()
    repo_hooks = [hook for hook in hooks if hook.source.kind == "repo"]
    resolved = None
    if repo_hooks:  # imported only then: a project of path hooks never loads the store
        from hookman.hooks.resolved import resolve_hook_set

        resolved = resolve_hook_set(repo_hooks, project_dir, pins, fetch=fetch)
        result.pins, result.warnings = resolved.pins, resolved.warnings
    for hook in hooks:
        if hook.source.kind == "repo":
            _add_repo_hook(hook, project_dir, pins, resolved, result)
            continue
        try:
            result.paths[hook.name] = _existing_module(hook, project_dir)
        except _MissingModule as gone:
            result.paths[hook.name] = gone.path
            result.missing[hook.name] = (gone.error.message, gone.error.hint or "")
        except HookmanError as error:
            result.paths[hook.name] = _unresolved_path(hook, project_dir)
            result.missing[hook.name] = (error.message, error.hint or "")
    return result


def _add_repo_hook(
    hook: HookSpec,
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
    resolved: Any,
    result: _Resolution,
) -> None:
    from hookman.hooks import store

    source = hook.source
    url = store.fetch_url(source.value, project_dir)
    found = resolved.hooks.get(hook.name)
    pin = found.pin if found is not None else pins.get((source.value, source.rev))
    if found is not None:
        tree, path = found.package_root, found.module_path
        if not path.is_file():
            result.missing[hook.name] = (
                f"the module of the hook {hook.name!r} ({path}) is gone from the store.",
                f"delete {tree.parent} and run `hookman install` to fetch it again.",
            )
    else:
        commit = pin.commit if pin is not None else "unpinned"
        tree = store.tree_dir(url, commit)
        path = tree / f"{source.offered_name(hook.name)}.missing.py"
        result.missing[hook.name] = resolved.missing[hook.name]
    result.paths[hook.name] = path
    result.origins[hook.name] = {
        "repo": source.value,
        "rev": source.rev,
        "commit": None if pin is None else pin.commit,
        "package_root": str(tree),
    }


class _MissingModule(Exception):
    def __init__(self, path: Path, error: HookmanError) -> None:
        super().__init__(error.message)
        self.path = path
        self.error = error


def _existing_module(hook: HookSpec, project_dir: Path) -> Path:
    path = module_path(hook, project_dir)
    try:
        exists = path.is_file()
    except (OSError, ValueError) as error:  # e.g. a name too long for the filesystem
        reason = getattr(error, "strerror", None) or str(error)
        raise HookmanError(
            f"the module path of the hook {hook.name!r} cannot be used: {reason}.",
            f"fix its path in .claude/hookman.toml, or take the hook out with "
            f"`hookman remove {hook.name}`.",
        ) from None
    if not exists:
        fix = f"restore the file, or take the hook out with `hookman remove {hook.name}`."
        if hook.source.kind == "registry":
            fix = (
                f"restore the file, or register the hook's new place with `hookman registry add "
                f"PATH --name {hook.source.value}`."
            )
        raise _MissingModule(
            path,
            HookmanError(f"the module of the hook {hook.name!r} ({path}) does not exist.", fix),
        )
    return path


def _unresolved_path(hook: HookSpec, project_dir: Path) -> Path:
    """Where the runner will look for a hook this machine cannot resolve: a path that
    does not exist, so loading it fails and names the hook."""
    return project_dir / CLAUDE_DIR / "missing-hooks" / f"{hook.source.kind}-{hook.source.value}.py"


def _config_diff(config: ProjectConfig) -> str:
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


def claude_events_of(hook: HookSpec) -> list[str]:
    """Every Claude Code event serving the hook's subscriptions, enabled or not."""
    served = (
        event
        for name in hook.events
        for event in event_catalog.claude_events_for(name, hook.tools.get(name))
    )
    return list(dict.fromkeys(served))
