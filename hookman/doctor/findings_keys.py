"""Keys the client does not read in a matcher group or a hook entry (catalog data, per
version): Claude Code strips them without a word, so `"tools": ["Edit", "Write"]` where
`matcher` belongs leaves a group that runs after every tool call. Each is reported with the
key the client reads (did-you-mean) and what the client does instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookman.catalog import event_catalog
from hookman.doctor.context import Context
from hookman.doctor.facts import (
    entry_keys,
    group_keys,
    harmless_keys,
    key_hints,
    newest_entry_keys,
)
from hookman.doctor.handlers import handler_problem, key_path
from hookman.doctor.matchers import exact_alternative
from hookman.doctor.model import Finding, Severity, Source
from hookman.doctor.names import slip_of
from hookman.doctor.quote import shown

if TYPE_CHECKING:
    from hookman.json_shapes import EditJson

CODE = "unknown-key"
MATCHER = "matcher"
HOOKS = "hooks"


def check_keys(ctx: Context) -> None:
    for source in ctx.sources.hook_sources():
        hooks = source.data.get(HOOKS) if isinstance(source.data, dict) else None
        if not isinstance(hooks, dict):
            continue
        for event, groups in hooks.items():
            if not event_catalog.is_claude_event(event) or not isinstance(groups, list):
                continue  # an unknown event is reported once, by its own finding
            for index, group in enumerate(groups):
                path = f"{key_path(HOOKS, str(event))}[{index}]"
                if isinstance(group, dict) and isinstance(group.get(HOOKS), list):
                    _check_group(ctx, source, str(event), group, path)


def _add(
    ctx: Context,
    source: Source,
    event: str,
    path: str,
    severity: Severity,
    message: str,
    fix: str,
    edit: EditJson | None = None,
) -> None:
    ctx.add(Finding(CODE, severity, source.path, message, fix, event=event, path=path, edit=edit))


def runs_on_every(event: str) -> str:
    """What a hook with no working filter runs on: `after every tool call`, `on every Stop`."""
    if event_catalog.matcher_field(event) == event_catalog.TOOL_MATCHER_FIELD:
        when = "before" if event.startswith("Pre") or event == "PermissionRequest" else "after"
        return f"{when} every tool call"
    return f"on every {event}"


def _check_group(
    ctx: Context, source: Source, event: str, group: dict[str, Any], path: str
) -> None:
    known = group_keys()
    for raw_key, value in group.items():
        key = str(raw_key)
        if key in known:
            continue
        key_at = key_path(path, key)
        meant = key_hints("group").get(key) or slip_of(key, known)
        if key in harmless_keys():
            _add(
                ctx,
                source,
                event,
                key_at,
                "info",
                f"Claude Code ignores the key `{key}` in a matcher group (it reads only "
                "`matcher` and `hooks`); as a note for people it does no harm.",
                "nothing to do (Claude Code drops it when it rewrites the file).",
            )
        elif meant == MATCHER:
            _misplaced_matcher(ctx, source, event, group, path, key, value)
        else:
            hint = f"; did you mean `{meant}`?" if meant else "."
            _add(
                ctx,
                source,
                event,
                key_at,
                "warning",
                f"Claude Code ignores the key `{key}` in a matcher group: it reads only "
                f"`matcher` and `hooks`{hint}",
                f"remove `{key}`" + (f", or write it as `{meant}`." if meant else "."),
                {"op": "delete", "file": source.path, "path": key_at},
            )
    for index, entry in enumerate(group[HOOKS]):
        # An entry the client rejects is reported once, as an invalid entry.
        if isinstance(entry, dict) and handler_problem(entry, ctx.version) is None:
            _check_entry(ctx, source, event, group, f"{path}.hooks[{index}]", entry)


def _misplaced_matcher(
    ctx: Context,
    source: Source,
    event: str,
    group: dict[str, Any],
    path: str,
    key: str,
    value: Any,
) -> None:
    key_at = key_path(path, key)
    filters = event_catalog.matcher_field(event) is not None
    if MATCHER in group or not filters:
        why = (
            "`matcher` is what filters this group"
            if filters
            else f"{event} ignores matchers anyway"
        )
        _add(
            ctx,
            source,
            event,
            key_at,
            "info",
            f"Claude Code ignores the key `{key}` in a matcher group ({why}).",
            f"remove `{key}`.",
            {"op": "delete", "file": source.path, "path": key_at},
        )
        return
    names = _names(value)
    matcher = exact_alternative(names) if names else None
    edit: EditJson | None = None
    if matcher is not None:
        fixed = {MATCHER: matcher, **{k: v for k, v in group.items() if k != key}}
        edit = {"op": "set", "file": source.path, "path": path, "value": fixed}
    _add(
        ctx,
        source,
        event,
        key_at,
        "warning",
        f"Claude Code ignores the key `{key}` in a matcher group and this group has no "
        f"`matcher`, so its hooks run {runs_on_every(event)}.",
        (f'write it as the group\'s matcher, "matcher": "{matcher}", and remove `{key}`.')
        if matcher
        else f"give the group a `matcher` and remove `{key}`.",
        edit,
    )


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
        return list(value)
    return []


def _check_entry(
    ctx: Context,
    source: Source,
    event: str,
    group: dict[str, Any],
    path: str,
    entry: dict[str, Any],
) -> None:
    kind = entry.get("type")
    known = entry_keys(kind, ctx.version) if isinstance(kind, str) else None
    if known is None:
        return  # an unknown type is an invalid entry, reported as such
    for raw_key in entry:
        key = str(raw_key)
        if key in known:
            continue
        key_at = key_path(path, key)
        if key in newest_entry_keys(kind):
            _add(
                ctx,
                source,
                event,
                key_at,
                "warning",
                f"Claude Code {ctx.version} does not read `{key}` in a {kind} hook (newer "
                "clients do): it ignores it.",
                f"update Claude Code, or remove `{key}`.",
            )
            continue
        if key in harmless_keys():
            _add(
                ctx,
                source,
                event,
                key_at,
                "info",
                f"Claude Code ignores the key `{key}` in a hook entry; as a note for people it "
                "does no harm.",
                "nothing to do (Claude Code drops it when it rewrites the file).",
            )
            continue
        hinted = key_hints("entry").get(key)
        meant = hinted or slip_of(key, known)
        if meant == MATCHER:
            _matcher_in_entry(ctx, source, event, group, path, key)
            continue
        _add(
            ctx,
            source,
            event,
            key_at,
            "warning",
            f"Claude Code ignores the key `{key}` in a {kind} hook entry"
            + (f" ({_instead(meant)}); did you mean `{meant}`?" if meant else "."),
            (f"write it as `{meant}`" + (" (in seconds)." if meant == "timeout" else "."))
            if meant
            else f"remove `{key}` (Claude Code reads {_listed(known)}).",
            _rename(source, key_at, entry, key, meant) if meant and not hinted else None,
        )


def _listed(keys: frozenset[str]) -> str:
    return ", ".join(f"`{key}`" for key in sorted(keys))


def _instead(meant: str) -> str:
    """What the client does while the meant key is missing."""
    if meant == "timeout":
        seconds = event_catalog.claude_code_catalog()["default_command_timeout_s"]
        return f"the hook gets the default timeout, {seconds} s"
    if meant == "async":
        return "the hook runs in the foreground and the client waits for it"
    return f"`{meant}` is not set"


def _rename(
    source: Source, key_at: str, entry: dict[str, Any], key: str, meant: str
) -> EditJson | None:
    if meant in entry:
        return None
    return {"op": "rename", "file": source.path, "path": key_at, "value": meant}


def _matcher_in_entry(
    ctx: Context, source: Source, event: str, group: dict[str, Any], path: str, key: str
) -> None:
    where = (
        f"the group's matcher {shown(group[MATCHER])} decides"
        if isinstance(group.get(MATCHER), str)
        else f"the hook runs {runs_on_every(event)}"
    )
    _add(
        ctx,
        source,
        event,
        key_path(path, key),
        "warning",
        f"`{key}` belongs on the matcher group, not in a hook entry: Claude Code ignores it "
        f"here, and {where}.",
        'move it to the group as "matcher" (a group\'s matcher applies to all its hooks).',
    )
