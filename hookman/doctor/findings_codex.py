"""Codex CLI's hooks beside Claude Code's: its files, event names, answers Codex fails open
on, the project's trust, Codex's trust in each hook (through its app server), and hookman's
Codex entries that `hookman install` would now write differently.

Nothing here runs for a project that neither opts into Codex (`agents` in hookman.toml) nor
has a Codex hooks.json with hooks (codex_sources.wants_codex reads files only). Codex's trust
is asked of `codex app-server` (agents/codex_app_server.py), only when a Codex layer holds
hooks and `codex` is on PATH; otherwise one info finding says it was not checked.
"""

from __future__ import annotations

import contextlib
import os
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman.agents.codex_app_server import CodexAppServerError, CodexHook, find_codex, list_hooks
from hookman.catalog import codex_catalog
from hookman.catalog.client_version import ClientVersion, parse_version
from hookman.catalog.event_catalog import claude_code_catalog
from hookman.doctor.codex_sources import (
    TRUSTED,
    CodexFile,
    project_trust,
    read_codex_files,
    user_config,
)
from hookman.doctor.context import Context
from hookman.doctor.facts import doctor_facts
from hookman.doctor.findings_codex_tools import check_tools_never_sent
from hookman.doctor.findings_commands import script_path
from hookman.doctor.handlers import key_path
from hookman.doctor.locate import json_line
from hookman.doctor.model import Finding, Handler, Source
from hookman.doctor.names import slip_of
from hookman.doctor.script_text import HookText, has_guard_words, hook_text
from hookman.errors import HookmanError
from hookman.project.settings_entries import is_hookman_command

if TYPE_CHECKING:
    from hookman.agents.codex_sync import CodexPlan
    from hookman.project.config import ProjectConfigView

    # hookman.toml, and the plan install would write for Codex (None: it cannot be made)
    Planned = tuple[ProjectConfigView, CodexPlan | None]

CODEX_KIND = "codex"
INSTALL_TRUST_FIX = (
    "run `hookman install --agent codex` in the project with `codex` on PATH: it records "
    "Codex's trust in hookman's current entries through `codex app-server`."
)
MODIFIED = "modified"
UNTRUSTED = "untrusted"


@cache
def codex_facts() -> dict[str, Any]:
    return dict(doctor_facts()["codex"])


def check_codex(ctx: Context) -> None:
    """Every Codex finding (report.py calls it when codex_sources.wants_codex)."""
    files = read_codex_files(ctx.project_dir)
    handlers = _add_sources(ctx, files)
    if not codex_catalog.codex_installed():
        _not_installed(ctx, handlers)
        return
    version = codex_catalog.detect_codex_version()
    for file in files:
        if file.error is not None:
            _add(ctx, _invalid(file))
    for handler in handlers:
        _check_event(ctx, handler, version)
        _check_answer(ctx, handler)
    listed = _listed(ctx, files, handlers)
    _check_project_trust(ctx, files, handlers, listed, version)
    if listed is not None:
        _check_hook_trust(ctx, handlers, listed)
    planned = _planned(ctx, version)
    _check_stale(ctx, files, planned)
    if planned is not None:
        check_tools_never_sent(ctx, *planned)


def _not_installed(ctx: Context, handlers: list[Handler]) -> None:
    """No Codex here (a teammate without it, the project's `agents` naming it): nothing runs
    Codex's hooks on this machine, so one info finding and no Codex checks (docs/agents.md,
    "Agents per machine")."""
    for handler in handlers:
        handler.silence("codex-not-installed")
    from hookman.project.location import config_path

    held = f" ({len(handlers)} hook(s) in its files are not run here)" if handlers else ""
    ctx.add(
        Finding(
            "codex-not-installed",
            "info",
            str(config_path(ctx.project_dir)),
            "Codex CLI is not installed here (no `codex` on PATH), so nothing on this machine "
            f"runs Codex's hooks{held} and doctor did not check them; install writes no Codex "
            "entries here.",
            "once Codex is installed, run `hookman install` to wire it, then `hookman doctor`.",
        )
    )


# --- reading -------------------------------------------------------------------------


def _add_sources(ctx: Context, files: list[CodexFile]) -> list[Handler]:
    """Codex's files as sources of the merged view, and their handlers (kept apart from
    Claude Code's families: added after them)."""
    found: list[Handler] = []
    for file in files:
        source = Source(
            "codex",  # type: ignore[arg-type]
            str(file.path),
            exists=file.exists,
            readable=file.error is None or file.data is not None,
            data=None if file.hooks is None else {"hooks": file.hooks},
            error=file.error,
            loaded=file.error is None,
            silenced_by=None if file.error is None else "codex-source-invalid",
            label=file.label,
        )
        ctx.sources.sources.append(source)
        for event, groups in (file.hooks or {}).items():
            if not isinstance(groups, list):
                continue
            for index, group in enumerate(groups):
                entries = group.get("hooks") if isinstance(group, dict) else None
                if not isinstance(entries, list):
                    continue
                matcher = group.get("matcher")
                for position, raw in enumerate(entries):
                    if not isinstance(raw, dict):
                        continue
                    command = raw.get("command")
                    text = command if isinstance(command, str) else None
                    timeout = raw.get("timeout")
                    found.append(
                        Handler(
                            source,
                            f"{key_path('hooks', event)}[{index}].hooks[{position}]",
                            event,
                            matcher if isinstance(matcher, str) else None,
                            raw.get("type") if isinstance(raw.get("type"), str) else None,
                            text,
                            float(timeout) if isinstance(timeout, int | float) else None,
                            raw,
                            hookman=text is not None and is_hookman_command(text),
                        )
                    )
    ctx.handlers.extend(found)
    return found


def _layer(handler: Handler) -> str:
    return (handler.source.label or "").split(" ")[0]


def _add(ctx: Context, finding: Finding) -> None:
    """Add a finding, with its line where it is about a place in a JSON file."""
    path = Path(finding.file) if finding.file else None
    if finding.path is not None and path is not None and path.suffix == ".json":
        with contextlib.suppress(OSError, UnicodeDecodeError):
            finding.line = json_line(path.read_text(encoding="utf-8-sig"), finding.path)
    ctx.add(finding)


def _invalid(file: CodexFile) -> Finding:
    effect = (
        "Codex loads none of this file's hooks (the other files' still run)"
        if file.form == "json"
        else "while Codex cannot parse it, it loads no hooks at all"
    )
    return Finding(
        "codex-source-invalid",
        "error",
        str(file.path),
        f"Codex's {file.label} {file.error}: {effect}. doctor left it untouched.",
        "fix the file by hand at the place named (hookman never rewrites a file it cannot parse).",
    )


# --- events and answers ----------------------------------------------------------------


def _check_event(ctx: Context, handler: Handler, version: ClientVersion | None) -> None:
    events = codex_catalog.codex_catalog()["events"]
    event = handler.event
    path = key_path("hooks", event)
    if event in events:
        since = parse_version(events[event]["since"])
        if version is not None and version < since:
            handler.silence("codex-event-too-new")
            _add(
                ctx,
                Finding(
                    "codex-event-too-new",
                    "error",
                    handler.source.path,
                    f"{event} is held back: it needs Codex >= {since}, and the installed Codex "
                    f"is {version}, which skips these hooks without a word.",
                    f"update Codex to {since} or later, or use another event.",
                    event=event,
                    path=path,
                ),
            )
        return
    handler.silence("codex-unknown-event")
    meant = slip_of(event, events)
    claude = event in claude_code_catalog()["events"]
    why = (
        " (a Claude Code event Codex does not have)"
        if claude
        else f" (did you mean {meant!r}?)"
        if meant
        else ""
    )
    finding = Finding(
        "codex-unknown-event",
        "error",
        handler.source.path,
        f"{event!r} is not an event Codex knows{why}: Codex skips its hooks without a word.",
        f"rename the key to {meant!r}."
        if meant
        else f"use one of Codex's events: {', '.join(events)}.",
        event=event,
        path=path,
    )
    if meant:
        finding.edit = {"op": "rename", "file": handler.source.path, "path": path, "value": meant}
    _add(ctx, finding)


def _check_answer(ctx: Context, handler: Handler) -> None:
    """What Codex fails open on, read in a foreign command and its script."""
    if handler.hookman or handler.command is None or handler.event not in _fails_open_events():
        return
    text = hook_text(handler.command, script_path(ctx, handler), {})
    exit_1 = _first(text, "exits_1")
    if exit_1 is not None and has_guard_words(text.all):
        _add(
            ctx,
            Finding.about(
                handler,
                "codex-exit-1-not-2",
                "error",
                f"the {handler.event} hook blocks with `exit 1` ({text.where(exit_1)}): Codex "
                "reads exit 1 as a non-blocking error, so the call goes ahead (it fails open).",
                "exit 2 with the reason on stderr, or print a JSON deny "
                '(`{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
                '"permissionDecision": "deny", "permissionDecisionReason": "..."}}`).',
            ),
        )
    ask = _first(text, "asks")
    if ask is not None:
        _add(
            ctx,
            Finding.about(
                handler,
                "codex-ask-fails-open",
                "error",
                f'the {handler.event} hook answers `permissionDecision: "ask"` '
                f"({text.where(ask)}): Codex does not ask, it ignores the answer and the call "
                "goes ahead (it fails open).",
                'answer "deny" (with permissionDecisionReason) where the call must not run '
                "unasked.",
            ),
        )


def _fails_open_events() -> list[str]:
    return list(codex_facts()["fails_open_events"])


def _first(text: HookText, name: str) -> re.Pattern[str] | None:
    for pattern in codex_facts()[name]:
        compiled = re.compile(pattern)
        if compiled.search(text.all):
            return compiled
    return None


# --- trust -----------------------------------------------------------------------------


def _listed(
    ctx: Context, files: list[CodexFile], handlers: list[Handler]
) -> list[CodexHook] | None:
    """The hooks Codex's app server lists for the project (None: not asked, and said why)."""
    if not handlers:
        return None
    program = find_codex()
    reason = None
    if program is None:
        reason = "no `codex` program is on PATH"
    else:
        try:
            return list_hooks(str(ctx.project_dir), program=program)
        except CodexAppServerError as error:
            reason = str(error).rstrip(".")
    ctx.add(
        Finding(
            "codex-trust-not-checked",
            "info",
            str(user_config(files).path),
            f"doctor could not ask Codex which hooks it trusts ({reason}), so untrusted and "
            "modified hooks, which Codex skips without a word, are not reported.",
            "put `codex` on PATH and run `hookman doctor` again.",
        )
    )
    return None


def _key(handler: Handler) -> tuple[str, str, str, str] | None:
    """The parts of Codex's key for a handler: (real path, event, group, handler)."""
    match = re.search(r"\[(\d+)\]\.hooks\[(\d+)\]$", handler.path)
    if match is None or handler.event not in codex_catalog.codex_catalog()["events"]:
        return None
    snake = codex_catalog.snake_name(handler.event)
    return os.path.realpath(handler.source.path), snake, match.group(1), match.group(2)


def _hook_key(hook: CodexHook) -> tuple[str, str, str, str] | None:
    parts = hook.key.rsplit(":", 3)
    if len(parts) != 4:
        return None
    return os.path.realpath(hook.source_path or parts[0]), parts[1], parts[2], parts[3]


def _check_hook_trust(ctx: Context, handlers: list[Handler], listed: list[CodexHook]) -> None:
    by_key = {key: hook for hook in listed if (key := _hook_key(hook)) is not None}
    for handler in handlers:
        key = _key(handler)
        hook = by_key.get(key) if key is not None else None
        if hook is None or hook.trust_status not in (UNTRUSTED, MODIFIED):
            continue
        own = handler.hookman and _layer(handler) == "project"
        code = (
            ("codex-hook-modified" if hook.trust_status == MODIFIED else "codex-hook-untrusted")
            if own
            else "codex-foreign-hook-untrusted"
        )
        handler.silence(code)
        state = (
            "modified since Codex trusted it"
            if hook.trust_status == MODIFIED
            else "not trusted in Codex"
        )
        whose = "hookman's" if own else "this"
        fix = (
            INSTALL_TRUST_FIX
            if own
            else "review the hook; to let it run, trust it in Codex: start `codex` in the project "
            'and answer its "Hooks need review" prompt (hookman never trusts a hook it did '
            "not write)."
        )
        _add(
            ctx,
            Finding.about(
                handler,
                code,
                "error" if own else "warning",
                f"{whose} {handler.event} hook ({hook.key}) is {state}: Codex skips it without "
                "a word" + (" (a guard guards nothing)." if own else "."),
                fix,
            ),
        )


def _check_project_trust(
    ctx: Context,
    files: list[CodexFile],
    handlers: list[Handler],
    listed: list[CodexHook] | None,
    version: ClientVersion | None,
) -> None:
    project = [h for h in handlers if _layer(h) == "project"]
    if not project:
        return
    if listed is not None:
        paths = {os.path.realpath(h.source_path) for h in listed}
        if any(os.path.realpath(h.source.path) in paths for h in project):
            return  # Codex lists the project's hooks: it reads the layer
    level = project_trust(files, ctx.project_dir)
    if level == TRUSTED:
        return
    for handler in project:
        handler.silence("codex-project-untrusted")
    own = [h for h in project if h.hookman]
    config = user_config(files).path
    directory = ctx.project_dir
    entry = f'[projects."{directory}"] trust_level = "trusted"'
    if level is None:
        state = f"no entry of {config} trusts it or a folder above it"
        ways = [f"start `codex` in {directory} and trust the folder when it asks"]
        since = parse_version(str(codex_facts()["exec_trust_since"]))
        if version is not None and version >= since:
            ways.append(f"run `codex exec --trust` with a prompt in {directory}")
        ways.append(f"add {entry} to {config}")
    else:
        state = f'{config} marks it trust_level = "{level}"'
        ways = [f'set trust_level = "trusted" under [projects."{directory}"] in {config}']
    then = "; then `hookman install --agent codex` records the trust in hookman's hooks"
    then = then if own else ""
    counted = f"none of its {len(project)} hook(s) run"
    if own:
        counted += f", hookman's included ({', '.join(dict.fromkeys(h.event for h in own))})"
    _add(
        ctx,
        Finding(
            "codex-project-untrusted",
            "error" if own else "warning",
            str(directory / ".codex"),
            f"Codex does not trust the project {directory} ({state}), so it never reads "
            f"the project's .codex/ layer: {counted}.",
            "trust the project in Codex: " + ", or ".join(ways) + then + ".",
        ),
    )


# --- hookman's Codex entries --------------------------------------------------------------


def _check_stale(ctx: Context, files: list[CodexFile], planned: Planned | None) -> None:
    from hookman.agents import codex_files

    hooks_file = next(f for f in files if f.layer == "project" and f.form == "json")
    if hooks_file.error is not None or planned is None:
        return  # reported (findings_hookman: the config); install refuses such a file too
    config, codex = planned
    written = codex_files.written_events(ctx.project_dir)
    if CODEX_KIND not in config.agents:
        if written:
            ctx.add(
                Finding(
                    "codex-hookman-stale",
                    "warning",
                    str(hooks_file.path),
                    f"hookman's Codex entries ({', '.join(written)}) are in the file, but "
                    "`agents` in hookman.toml does not name codex: the next `hookman install` "
                    "removes them.",
                    "`hookman install --agent codex` to keep them (it adds codex to `agents`), "
                    "or `hookman install` to remove them.",
                )
            )
        return
    if codex is None:
        return
    wanted = codex.entries
    try:
        change = codex_files.update_codex_hooks(ctx.project_dir, wanted, dry_run=True)
    except HookmanError:
        return  # a file git tracks: install says so
    if not change.changed:
        return
    wanted_events = list(dict.fromkeys(entry.event for entry in wanted))
    missing = [event for event in wanted_events if event not in written]
    extra = [event for event in written if event not in wanted_events]
    parts = []
    if missing:
        parts.append(f"missing: {', '.join(missing)}")
    if extra:
        parts.append(f"no enabled hook needs: {', '.join(extra)}")
    if not parts:
        parts.append("matchers, commands or timeouts differ")
    ctx.add(
        Finding(
            "codex-hookman-stale",
            "error",
            str(hooks_file.path),
            "hookman's Codex entries differ from what `hookman install` writes now (edited by "
            f"hand, a pull, or another Codex version): {'; '.join(parts)}. Codex runs the old "
            "ones, or none.",
            "run `hookman install` (with `codex` on PATH it also records Codex's trust in the "
            "rewritten entries).",
        )
    )


def _planned(ctx: Context, version: ClientVersion | None) -> Planned | None:
    """hookman.toml, and the plan `hookman install` would write for Codex now (codex_sync's
    own, trial hooks included; None where it cannot be made); None when the config cannot
    be read (findings_hookman reports it)."""
    from hookman.agents.codex_sync import plan_codex
    from hookman.install.report import installed_trial_hooks
    from hookman.project.config import read_project_config
    from hookman.project.install_plan import plan_install
    from hookman.project.launcher import launcher_path

    try:
        config = read_project_config(ctx.project_dir)
    except HookmanError:
        return None
    hooks = config.hooks + installed_trial_hooks(ctx.project_dir)
    try:
        plan = plan_install(hooks, ctx.version)
        return config, plan_codex(hooks, plan, launcher_path(ctx.project_dir), version)
    except HookmanError:
        return config, None
