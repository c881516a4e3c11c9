"""Findings about hookman's own hooks: an entry whose interpreter or hookman package is gone,
a manifest that is missing or stale, settings entries / manifest / hookman.toml that
disagree, hook modules that are missing or no longer compile, registry entries that are
gone, hooks listening only to events Claude Code never sends, hooks never fired, and a
settings.local.json git does not ignore.

hookman's entries are recognised only through hookman.project.settings_entries."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman import paths
from hookman.doctor import fs
from hookman.doctor.context import Context
from hookman.doctor.model import Finding, Handler
from hookman.errors import HookmanError
from hookman.hooks.module_check import load_effect, module_problem
from hookman.project.location import LOCAL_SETTINGS_NAME, config_path, local_settings_path
from hookman.project.settings_entries import (
    ASYNC,
    BLOCKING,
    SENTINEL,
    hookman_command_runner,
    hookman_handler_is_sentinel,
    hookman_handler_kind,
)

if TYPE_CHECKING:  # imported where used: tomlkit is heavy, and the CLI loads it lazily
    from hookman.project.config import ProjectConfigView
    from hookman.project.install_plan import InstallPlan

IMPORT_CHECK_TIMEOUT_S = 5.0
PYTHON_NAME = re.compile(r"python[0-9.]*(?:\.exe)?", re.IGNORECASE)
INSTALL_FIX = "run `hookman install` in the project."
HTTP_TYPE = "http"  # the warm hook server's entries (findings_serve)
SERVED_MANIFEST_HEADER = "X-Hookman-Manifest"  # hookman/serve/wire.py MANIFEST_HEADER


def check_hookman(ctx: Context) -> None:
    for handler in ctx.handlers:
        # A sentinel runs the launcher hookman's other entries run (one per project; the
        # prompt gate is always among them), and only once the project changed: their
        # findings name its problem, with no second one per guarded event.
        if handler.hookman and not hookman_handler_is_sentinel(handler.raw):
            _check_runner(ctx, handler)
    config = _load_config(ctx)
    if config is not None:
        _check_config(ctx, config)
    _check_registry(ctx)
    _check_git_ignored(ctx)


def _check_runner(ctx: Context, handler: Handler) -> None:
    if handler.type == HTTP_TYPE:
        _check_served_manifest(ctx, handler)
        return
    runner = hookman_command_runner(handler.command or "")
    if runner is None:
        return
    if runner.interpreter is not None:
        problem = interpreter_problem(runner.interpreter)
        if problem is not None:
            ctx.add(
                Finding.about(
                    handler,
                    "hookman-interpreter-gone",
                    "error",
                    f"hookman's {handler.event} entry runs {runner.interpreter}, which {problem}: "
                    "its hooks no longer run (a guarded call is denied every time; other "
                    "events' hooks are silent).",
                    "run `hookman install` in the project with the Python that has hookman "
                    "installed.",
                    path=f"{handler.path}.command",
                )
            )
    if runner.launcher is not None and not fs.is_file(Path(runner.launcher)):
        ctx.add(
            Finding.about(
                handler,
                "hookman-launcher-missing",
                "error",
                f"hookman's {handler.event} entry runs the launcher {runner.launcher}, which "
                "does not exist (hookman's state directory was deleted or moved): its hooks "
                "no longer run (a guarded call is denied every time; other events' hooks are "
                "silent).",
                INSTALL_FIX,
                path=f"{handler.path}.command",
            )
        )
    if runner.manifest is not None and not fs.is_file(Path(runner.manifest)):
        ctx.add(
            Finding.about(
                handler,
                "hookman-manifest-missing",
                "error",
                f"hookman's {handler.event} entry reads the manifest {runner.manifest}, which "
                "does not exist.",
                INSTALL_FIX,
                path=f"{handler.path}.command",
            )
        )


def _check_served_manifest(ctx: Context, handler: Handler) -> None:
    """An http entry (the warm hook server's) names the manifest the server's child reads."""
    headers = handler.raw.get("headers")
    manifest = headers.get(SERVED_MANIFEST_HEADER) if isinstance(headers, dict) else None
    if isinstance(manifest, str) and not fs.is_file(Path(manifest)):
        ctx.add(
            Finding.about(
                handler,
                "hookman-manifest-missing",
                "error",
                f"hookman's {handler.event} entry reads the manifest {manifest}, which "
                "does not exist.",
                INSTALL_FIX,
                path=f"{handler.path}.headers",
            )
        )


@cache
def interpreter_problem(interpreter: str) -> str | None:
    """Why `interpreter` cannot run hookman's runner, or None. One short child per
    interpreter (about 20 ms), and only for a program named like Python: doctor without
    --probe-commands never runs anything else a settings file names."""
    path = Path(interpreter)
    if not fs.exists(path):
        return "does not exist"
    if not fs.executable(path):
        return "is not executable"
    if not PYTHON_NAME.fullmatch(path.name):
        return None  # only a Python is started to check it; anything else is not run
    if _is_this_interpreter(path):
        return None  # this very process imported hookman with it
    try:
        done = subprocess.run(
            [interpreter, "-c", "import hookman"],
            cwd=os.path.abspath(os.sep),
            capture_output=True,
            timeout=IMPORT_CHECK_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"does not start ({error})"
    return None if done.returncode == 0 else "cannot import hookman"


def _is_this_interpreter(path: Path) -> bool:
    """True when `path` is the interpreter running doctor and hookman did not come from the
    current directory (which the runner, started with -P, would not search)."""
    import hookman

    try:
        same = path.samefile(sys.executable)
        package_root = Path(hookman.__file__).resolve().parent.parent
        from_cwd = package_root == Path.cwd().resolve()
    except (OSError, RuntimeError):
        return False
    return same and not from_cwd


def _load_config(ctx: Context) -> ProjectConfigView | None:
    from hookman.project.config import read_project_config

    try:
        return read_project_config(ctx.project_dir)
    except HookmanError as error:
        ctx.add(
            Finding(
                "hookman-config-invalid",
                "error",
                str(config_path(ctx.project_dir)),
                error.message,
                error.hint or "fix it by hand.",
            )
        )
        return None


def _check_config(ctx: Context, config: ProjectConfigView) -> None:
    from hookman.hooks.sources import module_path
    from hookman.project.install_plan import plan_install

    toml = str(config.path)
    for hook in config.hooks:
        if not hook.enabled:
            continue
        try:
            module = module_path(hook, ctx.project_dir)
        except HookmanError as error:
            if hook.source.kind == "repo":
                continue  # findings_repos says what is wrong with a repository hook
            code = (
                "hookman-registry-entry-missing"
                if hook.source.kind == "registry"
                else "hookman-template-missing"
            )
            ctx.add(
                Finding(
                    code,
                    "error",
                    toml,
                    error.message + " The hook does not run on this machine.",
                    error.hint or INSTALL_FIX,
                )
            )
            continue
        problem = module_problem(module)
        if problem is not None:
            ctx.add(
                Finding(
                    "hookman-hook-does-not-load",
                    "error",
                    str(module),
                    f"the hook {hook.name!r} {problem}: {load_effect(hook.events)}.",
                    "fix the module (`hookman fire EVENT` shows the error), or take it out with "
                    f"`hookman remove {hook.name}`.",
                )
            )
    from hookman.install.report import installed_trial_hooks

    # A `hookman try-repo` trial's hooks are in the manifest and the settings, not hookman.toml.
    plan = plan_install(
        config.hooks + installed_trial_hooks(ctx.project_dir), ctx.version, prompt_gate=True
    )
    for name in plan.never_sent:
        ctx.add(
            Finding(
                "hookman-never-sent",
                "warning",
                toml,
                f"the hook {name!r} listens only to events Claude Code never sends, so it never "
                "runs there.",
                "listen to an event Claude Code sends (see `hookman list`), or use it only with "
                "`hookman fire`.",
            )
        )
    for name, events in plan.inert_events.items():
        ctx.add(
            Finding(
                "hookman-unknown-event",
                "warning",
                toml,
                f"the hook {name!r} listens to {', '.join(events)}, which no Claude Code version "
                "sends.",
                "fix the event name in the hook's pi.on(...) call, then `hookman install`.",
            )
        )
    _check_agreement(ctx, config, plan)
    _check_fired(ctx, config, plan)


def _check_fired(ctx: Context, config: ProjectConfigView, plan: InstallPlan) -> None:
    """Installed hooks the firing log has never seen run in this project (info: a fresh
    install has not fired yet either)."""
    from hookman.bridge.firing_log import last_fired

    names = [hook.name for hook in config.hooks]
    fired = last_fired(str(paths.firing_log_path()), str(ctx.project_dir), names)
    written = set(plan.entries) | set(plan.async_entries)
    manifest = _read_manifest(ctx.project_dir) or {}
    hooks = manifest.get("hooks")
    installed = {
        hook.get("name")
        for hook in (hooks if isinstance(hooks, list) else [])
        if isinstance(hook, dict)
    }
    for hook in config.hooks:
        events = set(plan.claude_events.get(hook.name, ()))
        if hook.name not in installed:  # only in hookman.toml (a pull): not installed here
            continue
        if hook.enabled and events & written and hook.name not in fired:
            ctx.add(
                Finding(
                    "hookman-never-fired",
                    "info",
                    str(config.path),
                    f"the hook {hook.name!r} is installed but the firing log has no run of it "
                    "in this project yet.",
                    "start a Claude Code session here; `hookman log` then shows its runs.",
                )
            )


def _matcher_words(matcher: str | None) -> str:
    """A settings entry's matcher as the sentence says it (none, empty or `*`: every tool)."""
    if matcher is None:
        return "no matcher (every tool)"
    return f"matcher {matcher!r}" + (" (every tool)" if matcher in ("", "*") else "")


def _check_agreement(ctx: Context, config: ProjectConfigView, plan: InstallPlan) -> None:
    """hookman.toml (the plan), the manifest and settings.local.json must say the same.
    Not compared while settings.local.json cannot be read: that is already an error, and
    `hookman install`, the fix for a disagreement, refuses such a file."""
    local = str(local_settings_path(ctx.project_dir))
    if _local_settings_broken(ctx):
        return
    written = {
        (h.event, hookman_handler_kind(h.raw)): h
        for h in ctx.handlers
        if h.hookman and h.source.path == local
    }
    wanted = {(event, BLOCKING): entry for event, entry in plan.entries.items()}
    wanted.update({(event, ASYNC): entry for event, entry in plan.async_entries.items()})
    wanted.update({(event, SENTINEL): entry for event, entry in plan.sentinels.items()})
    problems: list[tuple[str, bool]] = []  # (what disagrees, whether a hook then misbehaves)
    for key, entry in wanted.items():
        handler = written.get(key)
        label = _label(key)
        if handler is None:
            problems.append((f"{label} is missing from {LOCAL_SETTINGS_NAME}", True))
        elif handler.matcher != entry.matcher:
            text = (
                f"{label} has {_matcher_words(handler.matcher)}, hookman.toml asks for "
                f"{_matcher_words(entry.matcher)}"
            )
            problems.append((text, True))
        elif handler.type != HTTP_TYPE and handler.command != _wanted_command(
            ctx.project_dir, key, config
        ):
            # (an http entry, the warm hook server's, is held to its path by findings_serve)
            # An older hookman's form (launcher format 3 and before fail open under hostile
            # shells): install rewrites it. A sentinel's also names the files it watches,
            # which a pull changes (a path hook added or gone).
            text = (
                f"{label} watches other files or runs another command than install writes now"
                if key[1] == SENTINEL
                else f"{label} runs a command an older hookman wrote"
            )
            problems.append((text, True))
        elif handler.timeout is not None and handler.timeout != entry.timeout:
            text = f"{label} has timeout {handler.timeout:g}, hookman writes {entry.timeout}"
            problems.append((text, False))
    for key in written:
        if key not in wanted:
            text = f"{_label(key)} is in {LOCAL_SETTINGS_NAME} but no enabled hook needs it"
            problems.append((text, False))
    manifest = _read_manifest(ctx.project_dir)
    if manifest is not None:
        listed = [
            h.get("name")
            for h in manifest.get("hooks", [])
            if isinstance(h, dict) and h.get("trial") is not True
        ]
        enabled = [hook.name for hook in config.hooks if hook.enabled]
        if listed != enabled:
            problems.append((f"the manifest runs {listed}, hookman.toml enables {enabled}", True))
        written_for = manifest.get("claude_version")
        if ctx.version is not None and written_for != str(ctx.version):
            text = f"it was written for Claude Code {written_for}, the target is {ctx.version}"
            problems.append((text, False))
    elif wanted:
        problems.append(("hookman's manifest for this project is missing", True))
    if wanted and _launcher_is_older(ctx.project_dir, plan):
        # An older hookman's body (e.g. before its deny also stopped for Qwen Code): install
        # rewrites it; the settings commands that run it may be the same.
        text = "its launcher is not the one this hookman writes (an older hookman's, or edited)"
        problems.append((text, True))
    if problems:
        ctx.add(
            Finding(
                "hookman-stale",
                "error" if any(harmful for _, harmful in problems) else "warning",
                local,
                "hookman's files disagree (edited by hand, or stale after a pull): "
                + "; ".join(text for text, _ in problems)
                + ".",
                INSTALL_FIX,
            )
        )


def _launcher_is_older(project_dir: Path, plan: InstallPlan) -> bool:
    """Whether the launcher on disk differs from the one this hookman writes for the same
    interpreter, hookman directory and timeout(1) (the words it names itself; a missing
    launcher is hookman-launcher-missing's, an unreadable one the runner's own deny)."""
    from hookman.project.launcher import (
        PYTHON_VARIABLE,
        ROOT_VARIABLE,
        launcher_path,
        launcher_words,
        plan_launcher_text,
        read_launcher,
        read_launcher_timer,
    )

    text = read_launcher(launcher_path(project_dir))
    words = {} if text is None else launcher_words(text)
    python, root = words.get(PYTHON_VARIABLE), words.get(ROOT_VARIABLE)
    if text is None or python is None or root is None:
        return False
    timer = read_launcher_timer(text)  # PATH may find another timeout(1) than install's
    return text != plan_launcher_text(project_dir, plan, python, root, timer)


def _label(key: tuple[str, str]) -> str:
    """`PreToolUse`, `Stop (async)`, `PreToolUse (sentinel)`."""
    event, kind = key
    return event if kind == BLOCKING else f"{event} ({kind})"


def _wanted_command(project_dir: Path, key: tuple[str, str], config: ProjectConfigView) -> str:
    """The command install writes for (event, kind) in this project."""
    from hookman.catalog.event_catalog import guarded_events
    from hookman.project.launcher import launcher_path
    from hookman.project.sentinel import stamp_path, watched_files
    from hookman.project.settings_entries import build_command, sentinel_command

    event, kind = key
    launcher = launcher_path(project_dir)
    if kind == ASYNC:
        return build_command(event, launcher, run_async=True)
    command = build_command(event, launcher, guarded=event in guarded_events())
    if kind == SENTINEL:
        watched = watched_files(project_dir, config.hooks)
        return sentinel_command(stamp_path(project_dir), watched, command)
    return command


def _local_settings_broken(ctx: Context) -> bool:
    """Whether settings.local.json exists but cannot be read or parsed (findings_files
    reports it; install refuses to edit it)."""
    local = str(local_settings_path(ctx.project_dir))
    return any(
        source.path == local and source.exists and (not source.readable or source.error is not None)
        for source in ctx.sources.sources
    )


def _read_manifest(project_dir: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(paths.manifest_path(project_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _check_registry(ctx: Context) -> None:
    from hookman.hooks.registry import registry_display_path, registry_entries

    try:
        entries = registry_entries()
    except HookmanError as error:
        ctx.add(
            Finding(
                "registry-invalid",
                "warning",
                registry_display_path(),
                error.message,
                error.hint or "fix it by hand.",
            )
        )
        return
    for name, path in entries.items():
        if not path.is_file():
            ctx.add(
                Finding(
                    "registry-entry-file-gone",
                    "warning",
                    registry_display_path(),
                    f"the registry entry {name!r} points to {path}, which does not exist.",
                    f"`hookman registry remove {name}`, or `hookman registry add PATH --name "
                    f"{name}`.",
                )
            )


def _check_git_ignored(ctx: Context) -> None:
    local = local_settings_path(ctx.project_dir)
    if (
        not fs.is_file(local)
        or _local_settings_broken(ctx)
        or not _in_git_work_tree(ctx.project_dir)
    ):
        return
    from hookman.doctor.git_ignored import check_ignore

    if check_ignore(ctx.project_dir, local) == 1:  # git's answer, kept while its files stay
        ctx.add(
            Finding(
                "local-settings-not-ignored",
                "warning",
                str(local),
                "git does not ignore .claude/settings.local.json: machine-specific hook entries "
                "would be committed.",
                "run `hookman install` (it adds the file to .git/info/exclude).",
            )
        )


def _in_git_work_tree(directory: Path) -> bool:
    return any(fs.exists(candidate / ".git") for candidate in (directory, *directory.parents))
