"""Makes settings.local.json and the manifest match an (edited) hookman.toml.

One transaction, run by `install` and `remove` while they hold `project_lock`, in named
steps, each returning a value:

- plan (`plan_sync`): the hooks, and the entries of Claude Code's settings for them;
- resolve (`resolve_hooks`): each hook's module (repository hooks fetched and pinned), and
  the hooks missing or broken here;
- learn (`learn_step`, install/learning.py): what every enabled hook's code subscribes to
  (one child for all, none while cached); hookman.toml's `events`/`tools` rewritten where
  the code says otherwise and the plan made again; a hook that does not load stops here;
- preview (`preview_sync`): what each file would become; a malformed settings file stops
  everything here, before any write; Codex CLI's plan is made here too;
- write (`write_sync`): the manifest and the launcher (the runner needs them before an entry
  points at them), hookman.toml, the pins, settings.local.json and .codex/hooks.json; when
  one of these writes fails (e.g. a read-only .claude/), the ones already done are put back;
- after the write (`after_write`): the written files kept out of git, and Codex's trust;
  `.claude/hooks/.gitignore` keeping `__pycache__/` out of git, written once.

Every write is skipped when the bytes would not change, so a repeated install touches
nothing. With `dry_run` nothing is written. `sync_if_nothing_changes` runs plan, resolve and
preview without the lock, and finishes (after-write only) when nothing is to be written.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from hookman import paths
from hookman.agents import codex_files
from hookman.atomic_file import atomic_write_text, write_text_if_changed
from hookman.bridge.protocol import CODEX_AGENT
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, TargetVersion, parse_version
from hookman.errors import HookmanError
from hookman.install.fetched import (
    Fetched,
    PinChange,
    StoreSnapshot,
    fetched_since,
    pin_changes,
    repos_of,
    store_snapshot,
)
from hookman.install.learning import (
    SubscriptionChange,
    changes_of,
    learn_enabled,
    record_learned,
)
from hookman.install.resolution import Resolution, broken_modules, resolve_modules, used_pins
from hookman.project.config import (
    HookSpec,
    ProjectConfigView,
    remember_parsed_config,
    save_project_config,
)
from hookman.project.file_diff import file_diff
from hookman.project.git_exclude import Excluded, GitExclusion, ensure_git_ignored
from hookman.project.hooks_gitignore import PycacheIgnore, keep_pycache_out
from hookman.project.install_plan import InstallPlan, plan_install
from hookman.project.launcher import launcher_path, plan_launcher_text
from hookman.project.location import CLAUDE_DIR, LOCAL_SETTINGS_NAME, local_settings_path
from hookman.project.manifest import (
    FLAG_SOURCE,
    INSTALLED_FROM,
    build_manifest,
    installed_from,
    manifest_text,
    write_manifest,
)
from hookman.project.pins import Pin, pins_path, pins_text, read_pins, write_pins
from hookman.project.sentinel import stamp_is_current, stamp_path, touch_stamp, watched_files
from hookman.project.serve_paths import ServePlan, opted_in, plan_paths
from hookman.project.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    build_command,
    sentinel_command,
)
from hookman.project.settings_file import SettingsChange, keep_from_others, update_settings

if TYPE_CHECKING:  # Codex's modules load only for a project whose agents include it
    from hookman.agents.codex_sync import CodexPlan, CodexTrust
    from hookman.hooks.subscriptions import Subscriptions
    from hookman.install.agent_step import AgentSync

LOCAL_SETTINGS_RELATIVE = f"{CLAUDE_DIR}/{LOCAL_SETTINGS_NAME}"
NO_AGENTS: Mapping[str, AgentSync] = MappingProxyType({})


@dataclass(frozen=True)
class SyncResult:
    """What an install or remove wrote (or, for a dry run, would write), as data the commands
    word (commands/sync_report.py); only `repo_warnings`, `missing` and `broken` hold
    sentences already (the store's, and the errors' that name a missing or broken module)."""

    project_dir: Path
    target: TargetVersion
    hooks: list[HookSpec]
    plan: InstallPlan
    settings_change: SettingsChange
    config_diff: str
    dry_run: bool
    git: GitExclusion | None = None  # keeping settings out of git; None outside a work tree
    # What the store said about repository hooks (e.g. a moved tag); the plan's warnings are
    # the commands' (commands/plan_wording.py).
    repo_warnings: list[str] = field(default_factory=list)
    # Store entries fetched again because their files had changed since their fetch: the
    # pin -> those files (commands/sync_report.py says so).
    repaired: dict[Pin, list[str]] = field(default_factory=dict)
    # Hooks whose module this machine lacks: name -> (what is wrong, how to get it).
    missing: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Of `missing`: those whose module is there but no regular file (a named pipe).
    not_files: set[str] = field(default_factory=set)
    # Hooks whose module is there but does not compile: name -> (what is wrong, how to fix).
    broken: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Codex CLI (docs/agents.md): its plan (None when the project's agents leave it out and
    # .codex/hooks.json holds no hookman entry), the change to that file, git, and trust.
    codex: CodexPlan | None = None
    codex_change: SettingsChange | None = None
    codex_git: GitExclusion | None = None
    codex_trust: CodexTrust | None = None
    # .claude/hooks/.gitignore keeping __pycache__/ out of git (project/hooks_gitignore.py);
    # None for a dry run
    pycache: PycacheIgnore | None = None
    # Repository commits this sync fetched into the store, and how it changed (or, dry run,
    # would change) .claude/hookman-pins.json (install/fetched.py)
    fetched: list[Fetched] = field(default_factory=list)
    pin_changes: list[PinChange] = field(default_factory=list)
    # The agents name Codex CLI but it is not installed here (no `codex` on PATH, no
    # --codex-version): nothing of Codex's was written, .codex/hooks.json left as it was.
    codex_absent: bool = False
    # Hooks whose code now subscribes to other events or tools than hookman.toml recorded:
    # their record was rewritten (install/learning.py).
    subscription_changes: list[SubscriptionChange] = field(default_factory=list)
    # Qwen Code and Factory droid (install/agent_step.py): per agent whose hooks file is
    # hookman's concern, its plan, the change to the file, git, or that it is absent here.
    agents: Mapping[str, AgentSync] = field(default_factory=dict)
    # The project's agents name GitHub Copilot CLI (which runs settings.local.json's entries)
    copilot: bool = False


class Trial:
    """Hooks `hookman try-repo` installs for a trial: run after hookman.toml's hooks, kept
    out of hookman.toml and its pins (the next install or remove drops them)."""

    def __init__(self, hooks: Sequence[HookSpec], pins: dict[tuple[str, str], Pin]) -> None:
        self.hooks = list(hooks)
        self.pins = pins


class Planned(NamedTuple):
    """Step 1: the hooks (hookman.toml's, then a trial's) and Claude Code's entries."""

    hooks: list[HookSpec]
    enabled: list[HookSpec]
    plan: InstallPlan
    entries: list[HookmanEntry]


class Resolved(NamedTuple):
    """Step 2: each enabled hook's module, the pins as read, and the hooks that cannot load."""

    resolution: Resolution
    pins: dict[tuple[str, str], Pin]  # .claude/hookman-pins.json before this sync
    broken: dict[str, tuple[str, str]]


class Preview(NamedTuple):
    """Step 3: what each file would become (nothing written yet)."""

    settings: SettingsChange
    config_diff: str
    codex: CodexPlan | None
    codex_file: SettingsChange | None  # None: .codex/hooks.json is not hookman's concern
    codex_absent: bool = False  # the agents name Codex, which this machine lacks
    agents: Mapping[str, AgentSync] = NO_AGENTS  # Qwen Code's and droid's files (agent_step.py)
    copilot: bool = False  # the agents name GitHub Copilot CLI


class Written(NamedTuple):
    """Step 4: what the write did to settings.local.json, .codex/hooks.json and the other
    agents' hooks files."""

    settings: SettingsChange
    codex_file: SettingsChange | None
    agents: Mapping[str, AgentSync] = NO_AGENTS


class AfterWrite(NamedTuple):
    """Step 5: the written files kept out of git, and Codex's trust."""

    git: GitExclusion | None
    codex_git: GitExclusion | None
    codex_trust: CodexTrust | None
    pycache: PycacheIgnore | None = None
    agents: Mapping[str, AgentSync] = NO_AGENTS


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
    agent_versions: Mapping[str, str | None] | None = None,
    stored_before: StoreSnapshot | None = None,
    known: Mapping[str, Subscriptions] | None = None,
    allow_unknown_event: bool = False,
) -> SyncResult:
    """Write what `config` asks for (see the module docstring). Caller holds project_lock.
    `known`: hooks the command just learned (not learned again); `allow_unknown_event`: a
    hook's code may gain event names no client knows (`install --allow-unknown-event`).
    Repository hooks are fetched into the store and their revs pinned (not in a dry run);
    `known_pins` are pins just resolved (by autoupdate), used before asking git again, and
    `stored_before` what the store held before the command fetched anything itself.
    When the project's agents include Codex CLI, its .codex/hooks.json too (`codex_version`
    the target, else `codex --version`), and with `trust_codex` its trust in hookman's
    entries is recorded (agents/codex_sync.py). Likewise Qwen Code's and droid's hooks files
    (`agent_versions`: agent -> `--AGENT-version`, else `PROGRAM --version`)."""
    check_paths_are_utf8(project_dir)
    planned = plan_sync(project_dir, config, target, trial)
    given = {**(known_pins or {}), **({} if trial is None else trial.pins)}
    if stored_before is None:
        stored_before = store_snapshot(repos_of(planned.enabled), project_dir)
    resolved = resolve_hooks(project_dir, planned, trial, given, fetch=not dry_run)
    learned = learn_enabled(
        project_dir,
        config.hooks,
        resolved.resolution,
        keep=not dry_run,
        known=known,
        allow_unknown=allow_unknown_event,
        broken=resolved.broken,
    )
    changes = changes_of(config.hooks, learned)
    config = record_learned(project_dir, config, changes)
    if changes:
        planned = plan_sync(project_dir, config, target, trial)
    preview = preview_sync(project_dir, config, planned, codex_version, agent_versions)
    new_pins = used_pins(config.hooks, resolved.pins, resolved.resolution.pins)
    moved = {
        "fetched": fetched_since(stored_before, resolved.resolution.pins, project_dir),
        "pin_changes": pin_changes(resolved.pins, new_pins),
        "subscription_changes": changes,
    }
    if dry_run:
        unwritten = Written(preview.settings, preview.codex_file, preview.agents)
        result = _result(project_dir, target, planned, resolved, preview, unwritten, None)
        return replace(result, **moved)
    written = write_sync(project_dir, config, target, planned, resolved, preview)
    after = after_write(project_dir, written, preview.codex, trust_codex=trust_codex)
    if planned.plan.sentinels:  # last: after_write may write in a watched directory
        _touch_sentinel_stamp(project_dir, config.hooks)
    return replace(
        _result(project_dir, target, planned, resolved, preview, written, after), **moved
    )


def sync_if_nothing_changes(
    project_dir: Path,
    config: ProjectConfigView,
    target: TargetVersion,
    *,
    codex_version: str | None = None,
    trust_codex: bool = True,
    agent_versions: Mapping[str, str | None] | None = None,
    known: Mapping[str, Subscriptions] | None = None,
    allow_unknown_event: bool = False,
) -> SyncResult | None:
    """The result of `sync_project` when it would write nothing, found without the project
    lock (filelock costs more than the rest of a repeated install); None when something
    must be written, and the caller then locks and syncs. Sound without the lock: every
    writer replaces files atomically, so each file read here is whole, and a result that
    changes nothing is right as of the moment it was read."""
    check_paths_are_utf8(project_dir)
    planned = plan_sync(project_dir, config, target, None)
    resolved = resolve_hooks(project_dir, planned, None, {}, fetch=False)
    learned = learn_enabled(
        project_dir,
        config.hooks,
        resolved.resolution,
        keep=True,
        known=known,
        allow_unknown=allow_unknown_event,
        broken=resolved.broken,
    )
    if changes_of(config.hooks, learned):
        return None  # hookman.toml's record is to be rewritten: under the lock
    preview = preview_sync(project_dir, config, planned, codex_version, agent_versions)
    if not _nothing_to_write(project_dir, config, target, planned, resolved, preview):
        return None
    # Also when nothing changed: the user may have trusted the project in Codex since.
    unchanged = Written(preview.settings, preview.codex_file, preview.agents)
    after = after_write(project_dir, unchanged, preview.codex, trust_codex=trust_codex)
    return _result(project_dir, target, planned, resolved, preview, unchanged, after)


def plan_sync(
    project_dir: Path, config: ProjectConfigView, target: TargetVersion, trial: Trial | None
) -> Planned:
    """Step 1: the hooks and the settings entries hookman writes for Claude Code."""
    hooks = config.hooks + ([] if trial is None else trial.hooks)
    plan = plan_install(hooks, target.version, prompt_gate=True)
    serve = serve_plan(plan, target.version, config.agents, paths.manifest_path(project_dir))
    plan = replace(plan, serve=serve)
    launcher = launcher_path(project_dir)
    guarded = event_catalog.guarded_events()
    headers = served_headers(project_dir, plan.serve)
    entries = [
        served_entry(plan, event, headers)
        or HookmanEntry(
            event,
            entry.matcher,
            build_command(event, launcher, guarded=event in guarded),
            entry.timeout,
        )
        for event, entry in plan.entries.items()
    ] + [
        served_entry(plan, event, headers, run_async=True)
        or HookmanEntry(
            event,
            entry.matcher,
            build_command(event, launcher, run_async=True),
            entry.timeout,
            is_async=True,
        )
        for event, entry in plan.async_entries.items()
    ]
    if plan.sentinels:
        # hookman.toml's hooks: a trial's are in the store (and in no pins file)
        stamp, watched = stamp_path(project_dir), watched_files(project_dir, config.hooks)
        entries += [
            HookmanEntry(
                event,
                entry.matcher,
                sentinel_command(stamp, watched, build_command(event, launcher, guarded=True)),
                entry.timeout,
                sentinel=True,
            )
            for event, entry in plan.sentinels.items()
        ]
    return Planned(hooks, [hook for hook in hooks if hook.enabled], plan, entries)


def serve_plan(
    plan: InstallPlan, version: ClientVersion | None, agents: Sequence[str], manifest: Path
) -> ServePlan | None:
    """Which blocking entries reach the warm hook server, when the user opted in
    (`hookman serve enable`; project/serve_paths.py); None otherwise."""
    if not opted_in():
        return None
    from hookman.serve import wire

    port = wire.read_port() or wire.default_port()
    return plan_paths(
        plan.entries,
        version,
        port,
        agents=agents,
        async_events=plan.async_entries,
        manifest_path=str(manifest),
    )


def served_headers(project_dir: Path, serve: ServePlan | None) -> dict[str, str] | None:
    """The headers of the project's http entries (the installed manifest's path, the
    --manifest PATH of its command entries, and its token from the per-user secret, made
    on first use); None when no entry reaches the server."""
    if serve is None or not serve.reaches_server():
        return None
    from hookman.serve import wire

    try:
        secret = wire.ensure_secret()
    except OSError as error:
        raise HookmanError(
            f"hookman cannot make the warm hook server's secret in {wire.serve_dir()}: "
            f"{error.strerror or error}; nothing was changed.",
            "check the permissions of hookman's state directory, or turn the server off with "
            "`hookman serve disable`.",
        ) from error
    # (No X-Hookman-Project: the client expands header variables from its own environment,
    # where CLAUDE_PROJECT_DIR is not set: catalog http_hooks.request, measured.)
    return wire.entry_headers(secret, str(paths.manifest_path(project_dir)))


def served_entry(
    plan: InstallPlan, event: str, headers: dict[str, str] | None, *, run_async: bool = False
) -> HookmanEntry | None:
    """The http entry of `event` (its async one with `run_async`) where it reaches the
    server, else None."""
    serve = plan.serve
    path = None if serve is None else (serve.async_paths if run_async else serve.paths).get(event)
    if serve is None or path is None or not path.server or headers is None:
        return None
    from hookman.serve import wire

    entry = (plan.async_entries if run_async else plan.entries)[event]
    return HookmanEntry(
        event,
        entry.matcher,
        "",
        entry.timeout,
        is_async=run_async,
        url=wire.hook_url(serve.port, event, run_async=run_async),
        headers=headers,
        on_failure=path.on_failure,
    )


def resolve_hooks(
    project_dir: Path,
    planned: Planned,
    trial: Trial | None,
    given: dict[tuple[str, str], Pin],
    *,
    fetch: bool,
) -> Resolved:
    """Step 2: each enabled hook's module (`given` pins before the pins file's; with `fetch`,
    repository hooks fetched into the store), and which of them are missing or broken."""
    pins = read_pins(project_dir)
    resolution = resolve_modules(planned.enabled, project_dir, {**pins, **given}, fetch=fetch)
    for hook in [] if trial is None else trial.hooks:
        resolution.origins.setdefault(hook.name, {})["trial"] = True
    for name, path in resolution.paths.items():
        _check_utf8(f"the module of the hook {name!r},", path)
    broken = broken_modules(planned.enabled, resolution.paths, resolution.missing)
    return Resolved(resolution, pins, broken)


def preview_sync(
    project_dir: Path,
    config: ProjectConfigView,
    planned: Planned,
    codex_version: str | None,
    agent_versions: Mapping[str, str | None] | None = None,
) -> Preview:
    """Step 3: what settings.local.json, hookman.toml, (for Codex CLI) .codex/hooks.json and
    the other agents' hooks files would become. A file hookman cannot edit stops the sync
    here."""
    settings = update_settings(
        local_settings_path(project_dir), _settings_edit(planned.entries), dry_run=True
    )
    launcher = launcher_path(project_dir)
    from hookman.catalog.agent_catalog import COPILOT_AGENT
    from hookman.install.agent_step import preview_agents

    agents = preview_agents(
        project_dir, config.agents, planned.hooks, planned.plan, launcher, agent_versions or {}
    )
    copilot = COPILOT_AGENT in config.agents
    if _codex_absent(config, codex_version):  # quiet here; the file is left as it is
        return Preview(settings, _config_diff(config), None, None, True, agents, copilot)
    codex = _codex_plan(project_dir, config, planned.hooks, planned.plan, launcher, codex_version)
    codex_file = None
    if codex is not None or codex_files.has_hookman_entries(project_dir):
        codex_entries = [] if codex is None else codex.entries
        codex_file = codex_files.update_codex_hooks(project_dir, codex_entries, dry_run=True)
    return Preview(settings, _config_diff(config), codex, codex_file, False, agents, copilot)


def write_sync(
    project_dir: Path,
    config: ProjectConfigView,
    target: TargetVersion,
    planned: Planned,
    resolved: Resolved,
    preview: Preview,
) -> Written:
    """Step 4: write every file, in order, under one rollback (see the module docstring)."""
    manifest = _planned_manifest(project_dir, config, target, planned, resolved, preview)
    new_pins = used_pins(config.hooks, resolved.pins, resolved.resolution.pins)
    codex_path = codex_files.codex_hooks_path(project_dir)
    manifest_file = paths.manifest_path(project_dir)
    launcher = launcher_path(project_dir)
    from hookman.install.agent_step import write_agents, written_paths

    agent_paths = written_paths(project_dir) if preview.agents else []
    with _restored_on_failure(
        manifest_file, launcher, config.path, pins_path(project_dir), codex_path, *agent_paths
    ):
        write_manifest(project_dir, manifest)
        _write_launcher(project_dir, planned.plan)
        save_project_config(config)
        if new_pins != resolved.pins:
            write_pins(project_dir, new_pins)
        settings = update_settings(
            local_settings_path(project_dir), _settings_edit(planned.entries), dry_run=False
        )
        if planned.plan.serve is not None and planned.plan.serve.reaches_server():
            keep_from_others(local_settings_path(project_dir))  # it holds the tokens
        codex_file = None
        if preview.codex_file is not None:
            codex_entries = [] if preview.codex is None else preview.codex.entries
            codex_file = codex_files.update_codex_hooks(project_dir, codex_entries, dry_run=False)
        agents = write_agents(project_dir, preview.agents)
    remember_parsed_config(project_dir)
    return Written(settings, codex_file, agents)


def _touch_sentinel_stamp(project_dir: Path, hooks: Sequence[HookSpec]) -> None:
    try:
        touch_stamp(project_dir, watched_files(project_dir, hooks))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write {stamp_path(project_dir)}: {error.strerror or error}; "
            "nothing was changed.",
            "check the permissions of hookman's state directory, or set HOOKMAN_HOME.",
        ) from error


def after_write(
    project_dir: Path, written: Written, codex: CodexPlan | None, *, trust_codex: bool
) -> AfterWrite:
    """Step 5: keep the files written out of git; record (with `trust_codex`) or check
    Codex's trust in hookman's entries."""
    git = None
    if written.settings.after is not None:
        done = ensure_git_ignored(project_dir, LOCAL_SETTINGS_RELATIVE)
        git = None if done.outcome is Excluded.NOT_A_WORK_TREE else done
    codex_git = None
    if written.codex_file is not None and written.codex_file.after is not None:
        codex_git = codex_files.keep_out_of_git(project_dir)
    codex_trust = None
    if codex is not None and codex.entries:
        from hookman.agents.codex_sync import trust_hookman_hooks

        codex_trust = trust_hookman_hooks(project_dir, record=trust_codex)
    pycache = keep_pycache_out(project_dir)
    agents = written.agents
    if agents:
        from hookman.install.agent_step import keep_agents_out_of_git

        agents = keep_agents_out_of_git(project_dir, agents)
    return AfterWrite(git, codex_git, codex_trust, pycache, agents)


def _result(
    project_dir: Path,
    target: TargetVersion,
    planned: Planned,
    resolved: Resolved,
    preview: Preview,
    written: Written,
    after: AfterWrite | None,
) -> SyncResult:
    """The steps' values as one result; `after` None for a dry run (nothing was written)."""
    resolution = resolved.resolution
    return SyncResult(
        project_dir=project_dir,
        target=target,
        hooks=planned.hooks,
        plan=planned.plan,
        settings_change=written.settings,
        config_diff=preview.config_diff,
        dry_run=after is None,
        git=None if after is None else after.git,
        repo_warnings=resolution.warnings,
        repaired=resolution.repaired,
        missing=resolution.missing,
        not_files=resolution.not_files,
        broken=resolved.broken,
        codex=preview.codex,
        codex_change=written.codex_file,
        codex_git=None if after is None else after.codex_git,
        codex_trust=None if after is None else after.codex_trust,
        pycache=None if after is None else after.pycache,
        codex_absent=preview.codex_absent,
        agents=written.agents if after is None else after.agents,
        copilot=preview.copilot,
    )


def _store_changed(project_dir: Path, origins: dict[str, dict[str, Any]]) -> bool:
    """Whether a store entry a repository hook runs from has files that changed since its
    fetch (doctor's `hookman-repo-store-changed`)."""
    entries = {(origin["repo"], origin["commit"]) for origin in origins.values()}
    if not entries:
        return False
    from hookman.hooks import store

    return any(
        store.changed_files(store.fetch_url(repo, project_dir), commit)
        for repo, commit in entries
        if commit is not None
    )


def _nothing_to_write(
    project_dir: Path,
    config: ProjectConfigView,
    target: TargetVersion,
    planned: Planned,
    resolved: Resolved,
    preview: Preview,
) -> bool:
    """Whether a locked sync would leave every file as it is: settings, hookman.toml,
    .codex/hooks.json, the pins, the manifest and the launcher."""
    if preview.settings.changed or preview.config_diff:
        return False
    if preview.codex_file is not None and preview.codex_file.changed:
        return False
    if any(sync.change is not None and sync.change.changed for sync in preview.agents.values()):
        return False
    resolution = resolved.resolution
    if resolution.missing and any(hook.source.kind == "repo" for hook in planned.enabled):
        # A store entry to fetch, or a rev to pin: that needs the locked sync. (The manifest
        # would differ too: a missing entry's module path is a placeholder.)
        return False
    if used_pins(config.hooks, resolved.pins, resolution.pins) != resolved.pins:
        return False
    if _store_changed(project_dir, resolution.origins):
        return False  # the locked sync fetches it again from the pinned commit
    manifest = _planned_manifest(project_dir, config, target, planned, resolved, preview)
    try:
        written = paths.manifest_path(project_dir).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if planned.plan.sentinels and not stamp_is_current(
        project_dir, watched_files(project_dir, config.hooks)
    ):
        return False  # a locked sync touches the sentinels' stamp again
    return written == manifest_text(manifest) and _launcher_is_current(project_dir, planned.plan)


def _planned_manifest(
    project_dir: Path,
    config: ProjectConfigView,
    target: TargetVersion,
    planned: Planned,
    resolved: Resolved,
    preview: Preview,
) -> dict[str, Any]:
    """The manifest the plan, the resolved modules and the Codex plan make (what the write
    step writes and what the nothing-to-write check compares), with what hookman.toml and
    the pins hold once written (`installed_from`: the runner notices a project that moved
    on since, bridge/project_moved.py)."""
    resolution = resolved.resolution
    manifest = _manifest_for(
        project_dir,
        planned.hooks,
        resolution.paths,
        planned.plan,
        target,
        resolution.origins,
        preview.codex,
    )
    new_pins = used_pins(config.hooks, resolved.pins, resolution.pins)
    manifest[INSTALLED_FROM] = installed_from(
        _config_bytes(config),
        _pins_bytes(new_pins) if new_pins != resolved.pins else pins_path(project_dir),
    )
    return manifest


def _config_bytes(config: ProjectConfigView) -> bytes | None:
    """hookman.toml's bytes as the sync leaves them: as read, or as edited and written
    (save_project_config); None when there is none and none is written."""
    if not config.exists and not config.changed():
        return None
    return config.layout.apply(config.text()).encode("utf-8")


def _pins_bytes(pins: dict[tuple[str, str], Pin]) -> bytes | None:
    """The pins file's bytes as write_pins writes them (None: it removes the file)."""
    return pins_text(pins).encode("utf-8") if pins else None


def _settings_edit(entries: list[HookmanEntry]) -> Callable[[dict[str, Any]], None]:
    def edit(settings: dict[str, Any]) -> None:
        apply_hookman_entries(settings, entries)

    return edit


def _codex_absent(config: ProjectConfigView, version_flag: str | None) -> bool:
    """The project's agents name Codex CLI, but this machine has no `codex` and no
    --codex-version names one: a teammate without Codex, whom a committed `agents` list must
    not burden with entries nothing runs (docs/agents.md, "Agents per machine")."""
    if CODEX_AGENT not in config.agents or version_flag is not None:
        return False
    from hookman.catalog import codex_catalog

    return not codex_catalog.codex_installed()


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
            version = parse_version(version_flag)
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
    plan = plan_install(config.hooks, target.version, prompt_gate=True)
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


def _launcher_for(project_dir: Path, plan: InstallPlan) -> str:
    """The launcher a sync writes now: this interpreter, the project's manifest, the guarded
    events of the catalog, the timeouts of their entries (the launcher's own clock)."""
    return plan_launcher_text(project_dir, plan, sys.executable)


def _launcher_is_current(project_dir: Path, plan: InstallPlan) -> bool:
    """Whether the launcher on disk is the one a sync would write now."""
    try:
        text = launcher_path(project_dir).read_text(encoding="utf-8")
        return text == _launcher_for(project_dir, plan)
    except (OSError, UnicodeDecodeError):
        return False


def _write_launcher(project_dir: Path, plan: InstallPlan) -> None:
    try:
        write_text_if_changed(launcher_path(project_dir), _launcher_for(project_dir, plan))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write its launcher {launcher_path(project_dir)}: "
            f"{error.strerror or error}; nothing was changed.",
            "check the permissions of hookman's state directory, or set HOOKMAN_HOME.",
        ) from error


def _config_diff(config: ProjectConfigView) -> str:
    before = config.original_text() if config.exists else None
    return file_diff(config.path, before, config.text(), mark_no_newline=False)
