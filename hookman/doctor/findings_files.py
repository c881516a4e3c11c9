"""Findings about whole files: unreadable or invalid sources, entries the client rejects and
everything they silence, unknown or too-new event names, hooks switched off by a setting,
and hook files in places Claude Code never reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.catalog import event_catalog
from hookman.doctor.context import Context
from hookman.doctor.facts import doctor_facts, invalid_entry_silences_file
from hookman.doctor.findings_plugins import newer_client_file
from hookman.doctor.handlers import key_path
from hookman.doctor.locate import path_steps
from hookman.doctor.model import Finding, Handler, Source
from hookman.doctor.names import is_slip
from hookman.doctor.quote import shown
from hookman.doctor.sources import SETTINGS_KINDS

if TYPE_CHECKING:
    from hookman.json_shapes import EditJson

INVALID_JSON_MARKERS = (
    "not valid JSON",
    "must hold a JSON object",
    "not valid UTF-8",
    "nested too deeply",
)


def check_files(ctx: Context) -> None:
    for source in ctx.sources.sources:
        _check_readable(ctx, source)
    for source in ctx.sources.hook_sources():
        _check_invalid_entries(ctx, source)
        _check_event_names(ctx, source)
    _check_switches(ctx)
    _check_places_not_read(ctx)


def _check_readable(ctx: Context, source: Source) -> None:
    if source.error is None:
        return
    if source.kind in SETTINGS_KINDS or source.kind == "plugin":
        invalid_json = any(marker in source.error for marker in INVALID_JSON_MARKERS)
        ctx.add(
            Finding(
                code="settings-invalid-json" if invalid_json else "source-unreadable",
                severity="error",
                file=source.path,
                message=f"{source.error.rstrip('.')}: Claude Code loads no hook from this file.",
                fix="fix the file by hand (the message says where), then run `hookman doctor` "
                "again.",
            )
        )
        source.loaded = False
        source.silenced_by = "settings-invalid-json" if invalid_json else "source-unreadable"
        return
    ctx.add(
        Finding(
            code="source-unreadable",
            severity="warning",
            file=source.path,
            message=f"hookman cannot read this file's hooks: {source.error}.",
            fix="check the file (UTF-8, plain YAML frontmatter); doctor did not check its hooks.",
        )
    )


def _check_invalid_entries(ctx: Context, source: Source) -> None:
    entries = ctx.invalid.get(source.path, [])
    if not entries:
        return
    silencing = [
        entry
        for entry in entries
        if source.kind in SETTINGS_KINDS
        and (entry.path == "hooks" or invalid_entry_silences_file(entry.event, ctx.version))
    ]
    if silencing:
        entry = silencing[0]
        silenced = ctx.handlers_of(source.path)
        for handler in silenced:
            handler.silence("invalid-entry-silences-file")
        source.loaded = False
        source.silenced_by = "invalid-entry-silences-file"
        where = f"under {entry.event}" if entry.event else "in this file"
        ctx.add(
            Finding(
                code="invalid-entry-silences-file",
                severity="error",
                file=source.path,
                event=entry.event or None,
                path=entry.path,
                message=(
                    f"invalid hook entry {where}: {entry.reason}. Claude Code "
                    f"{ctx.version or '(current versions)'} then applies no hook of this file: "
                    f"{_count(len(silenced), 'other handler')} silenced."
                ),
                fix=f"fix or delete the entry at {entry.path}.",
                edit={
                    "op": "delete",
                    "file": source.path,
                    "path": deletion_path(source, entry.path),
                },
                silences=[handler.path for handler in silenced],
            )
        )
        entries = [other for other in entries if other is not entry]
    for entry in entries:
        ctx.add(
            Finding(
                code="invalid-entry",
                severity="error",
                file=source.path,
                event=entry.event or None,
                path=entry.path,
                message=f"invalid hook entry: {entry.reason}. Claude Code drops it, so it never "
                "runs.",
                fix=f"fix or delete the entry at {entry.path}.",
                edit={
                    "op": "delete",
                    "file": source.path,
                    "path": deletion_path(source, entry.path),
                },
            )
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def deletion_path(source: Source, path: str) -> str:
    """What to delete to drop the invalid part at `path` without leaving an empty (invalid)
    group or event: the handler; its group when it is the group's only handler or the
    problem is the group's own (`matcher`, `hooks`); the event key when that group is the
    event's only one."""
    steps = path_steps(path)
    hooks = source.data.get("hooks") if isinstance(source.data, dict) else None
    if not steps or len(steps) < 3 or not isinstance(hooks, dict) or steps[0] != "hooks":
        return path
    event, group_index = steps[1], steps[2]
    groups = hooks.get(event) if isinstance(event, str) else None
    if not isinstance(groups, list) or not isinstance(group_index, int):
        return path
    if group_index >= len(groups):
        return path
    group = groups[group_index]
    handler_level = len(steps) == 5 and steps[3] == "hooks"
    if handler_level and not (isinstance(group, dict) and len(group.get("hooks") or []) == 1):
        return path
    event_path = key_path("hooks", event)
    return event_path if len(groups) == 1 else f"{event_path}[{group_index}]"


def _check_event_names(ctx: Context, source: Source) -> None:
    hooks = source.data.get("hooks") if isinstance(source.data, dict) else None
    if not isinstance(hooks, dict) or newer_client_file(ctx, source) is not None:
        return  # a plugin's file for newer clients: findings_plugins says so, as information
    tolerated = event_catalog.unknown_event_tolerated_since()
    whole_file = ctx.version is not None and ctx.version < tolerated
    for event in hooks:
        path = key_path("hooks", str(event))
        if event_catalog.is_claude_event(event):
            since = event_catalog.since(event)
            if ctx.version is None or since <= ctx.version:
                continue
            code = "event-too-new"
            message = (
                f"{event} needs Claude Code {since} or newer; the target is {ctx.version}, "
                "so it never runs."
            )
            fix = (
                f"update Claude Code to {since} or newer, or move this hook to an event "
                f"{ctx.version} knows."
            )
            edit: EditJson | None = None
        else:
            code = "unknown-event"
            suggestion = _suggest_event(event)
            message = f"{shown(event)} is not a Claude Code event, so its hooks never run."
            if suggestion and suggestion in hooks:
                fix = (
                    f"move its matcher groups into the {shown(suggestion)} array, then delete "
                    f"{shown(event)}."
                )
                edit = None
            elif suggestion:
                fix = f"rename the key {shown(event)} to {shown(suggestion)}."
                edit = {"op": "rename", "file": source.path, "path": path, "value": suggestion}
            else:
                other = _unrelated_close_event(event)
                fix = "use one of the Claude Code event names listed in docs/doctor.md" + (
                    f"; the nearest, {shown(other)}, is not a misspelling of it but another "
                    "event, so doctor does not rename it: check which event was meant."
                    if other
                    else "."
                )
                edit = None
        for handler in ctx.handlers_of(source.path):
            if handler.event == event:
                handler.silence(code)
        silences: list[str] = []
        if whole_file and source.kind in SETTINGS_KINDS:
            message += (
                f" Clients before {tolerated} skip the whole file for an unknown event name, "
                "so no hook of this file runs."
            )
            for handler in ctx.handlers_of(source.path):
                handler.silence(code)
                silences.append(handler.path)
            source.loaded = False
            source.silenced_by = code
        ctx.add(
            Finding(
                code,
                "error",
                source.path,
                message,
                fix,
                event=event,
                path=path,
                edit=edit,
                silences=silences,
            )
        )


def _suggest_event(name: str) -> str | None:
    close = event_catalog.did_you_mean(name)
    if close is None or not is_slip(name, close):
        return None  # PostCommand is not PostCompact: a near spelling of another meaning
    if event_catalog.is_claude_event(close):
        return close
    # The first serving event is the main one (tool_call: PreToolUse, before the skill
    # shell commands that PreSkillShellCommand adds on newer clients).
    serving = event_catalog.claude_events_serving(close)
    return serving[0] if serving else None


def _unrelated_close_event(name: str) -> str | None:
    """A Claude Code event spelled close to `name` that is not a slip of it (another meaning)."""
    close = event_catalog.did_you_mean(name)
    if close is None or is_slip(name, close) or not event_catalog.is_claude_event(close):
        return None
    return close


def _check_switches(ctx: Context) -> None:
    managed = [s for s in ctx.sources.sources if s.kind == "managed" and isinstance(s.data, dict)]
    managed_only = next((s for s in managed if s.data.get("allowManagedHooksOnly") is True), None)
    managed_off = next((s for s in managed if s.data.get("disableAllHooks") is True), None)
    if managed_off is not None:
        _switched_off(ctx, managed_off, "disableAllHooks", lambda handler: True)
        return
    if managed_only is not None:
        _switched_off(
            ctx, managed_only, "allowManagedHooksOnly", lambda h: h.source.kind != "managed"
        )
    if ctx.sources.merged_setting("disableAllHooks") is True:
        owner = next(
            (
                s
                for s in reversed([s for s in ctx.sources.settings() if s.kind != "managed"])
                if isinstance(s.data, dict) and s.data.get("disableAllHooks") is True
            ),
            None,
        )
        if owner is not None:
            _switched_off(ctx, owner, "disableAllHooks", lambda h: h.source.kind != "managed")


def _switched_off(
    ctx: Context, owner: Source, key: str, affected: Callable[[Handler], bool]
) -> None:
    silenced = [handler for handler in ctx.handlers if affected(handler)]
    for handler in silenced:
        handler.silence("hooks-disabled")
    whom = (
        "every hook"
        if key == "disableAllHooks" and owner.kind == "managed"
        else "every non-managed hook"
    )
    ctx.add(
        Finding(
            code="hooks-disabled",
            severity="error" if silenced else "info",
            file=owner.path,
            path=key,
            message=f"`{key}: true` here switches off {whom} ({len(silenced)} handler(s)).",
            fix=f"remove `{key}` from {owner.path} if these hooks should run.",
            edit=None
            if owner.kind == "managed"
            else {"op": "delete", "file": owner.path, "path": key},
            silences=[f"{h.source.path}:{h.path}" for h in silenced],
        )
    )


def _check_places_not_read(ctx: Context) -> None:
    referenced = " ".join(handler.command or "" for handler in ctx.handlers)
    for relative in doctor_facts()["places_not_read"]:
        place = ctx.project_dir / relative
        stray = _unread_files(place, referenced)
        if not stray:
            continue
        names = ", ".join(path.name for path in stray[:5]) + (", ..." if len(stray) > 5 else "")
        ctx.add(
            Finding(
                code="hooks-in-unread-place",
                severity="warning",
                file=str(place),
                message=f"{relative} ({names}) looks like hooks, but Claude Code never reads it: "
                "nothing there runs.",
                fix=(
                    "register each script as a command hook in .claude/settings.json (or write it "
                    "as a hookman hook and `hookman install` it)."
                ),
            )
        )


def _unread_files(place: Path, referenced: str) -> list[Path]:
    """Files at `place` (a file, or the files of a directory) no settings command names."""
    try:
        if place.is_dir():
            candidates = sorted(path for path in place.iterdir() if path.is_file())
        else:
            candidates = [place] if place.is_file() else []
    except OSError:
        return []
    return [path for path in candidates if path.name not in referenced]
