"""Findings about matchers: invalid regexes, names that never match (case, unknown tools,
permission-rule syntax), matchers on events that ignore them, unanchored regexes catching
extra tools, and syntax the target client reads differently. Also fills in which tools (or
values) each handler matches, for the merged view."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, parse_version
from hookman.doctor.context import EVENT_CODES, Context
from hookman.doctor.facts import doctor_facts, matcher_values
from hookman.doctor.locate import path_steps
from hookman.doctor.matchers import (
    Matcher,
    exact_alternative,
    never_matches_a_tool_name,
    permission_rule,
    read_matcher,
)
from hookman.doctor.model import Finding, Handler, Severity
from hookman.doctor.quote import shown
from hookman.project.settings_entries import hookman_handler_is_sentinel

if TYPE_CHECKING:
    from hookman.json_shapes import EditJson


def known_tools(event: str) -> list[str]:
    if event == doctor_facts()["skill_shell_event"]:
        return list(doctor_facts()["skill_shell_tools"])
    prefix = doctor_facts()["matcher"]["mcp_tool_prefix"]
    return [
        name
        for name in event_catalog.claude_code_catalog()["tool_names"]
        if not name.startswith(prefix)
    ]


def check_matchers(ctx: Context) -> None:
    for handler in ctx.handlers:
        if not event_catalog.is_claude_event(handler.event):
            continue
        if handler.not_loaded_because in EVENT_CODES:
            continue  # said once, by the event's finding
        field = event_catalog.matcher_field(handler.event)
        matcher = read_matcher(handler.matcher, ctx.version)
        if matcher.kind == "all":
            handler.matches_all = True
            continue
        if field is None:
            _ignored(ctx, handler, field)
            handler.matches_all = True
            continue
        values = (
            known_tools(handler.event)
            if field == event_catalog.TOOL_MATCHER_FIELD
            else matcher_values(handler.event, ctx.version)
        )
        if matcher.kind == "invalid":
            _invalid_regex(ctx, handler, matcher, values or [])
            handler.matches = []
            continue
        _check_version_reading(ctx, handler, matcher)
        if values is None:
            continue
        handler.matches = _matched(matcher, values, field)
        if handler.hookman and hookman_handler_is_sentinel(handler.raw):
            continue  # every tool but the blocking entry's, on purpose (project/sentinel.py)
        rule = permission_rule(handler.matcher or "")
        if matcher.kind == "regex" and rule is not None and rule[0] in values:
            _permission_rule(ctx, handler, rule[0])
            continue
        if matcher.kind == "exact":
            _check_exact(ctx, handler, matcher, values, field)
        elif matcher.understood:
            _check_regex(ctx, handler, matcher, values)


def _matched(matcher: Matcher, values: list[str], field: str) -> list[str] | None:
    """The known values the matcher matches (an exact-list alias counts for its tool)."""
    if not matcher.understood:
        return None
    aliases = tool_aliases(field)
    return [
        value
        for value in values
        if matcher.matches(value)
        or (matcher.kind == "exact" and any(aliases.get(n) == value for n in matcher.names))
    ]


def tool_aliases(field: str) -> dict[str, str]:
    """Exact-list names the client also accepts for a tool (measured: `Task` for `Agent`)."""
    if field != event_catalog.TOOL_MATCHER_FIELD:
        return {}
    return dict(doctor_facts()["matcher"]["tool_aliases"])


def _finding(
    ctx: Context,
    handler: Handler,
    code: str,
    severity: Severity,
    message: str,
    fix: str,
    value: str | None = None,
) -> None:
    edit: EditJson | None = None
    if value is not None:
        edit = {
            "op": "set",
            "file": handler.source.path,
            "path": _matcher_path(handler),
            "value": value,
        }
    ctx.add(
        Finding(
            code=code,
            severity=severity,
            file=handler.source.path,
            event=handler.event,
            path=_matcher_path(handler),
            message=message,
            fix=fix,
            edit=edit,
        )
    )


def _written(handler: Handler) -> str:
    return shown(handler.matcher or "")


def _matcher_path(handler: Handler) -> str:
    return handler.path.rsplit(".hooks[", 1)[0] + ".matcher"


def _ignored(ctx: Context, handler: Handler, field: str | None) -> None:
    _finding(
        ctx,
        handler,
        "matcher-ignored",
        "warning",
        f"{handler.event} ignores matchers: the matcher {_written(handler)} filters "
        f"nothing, the hook runs on every {handler.event}.",
        "remove the matcher (and filter inside the hook if needed).",
    )


def _invalid_regex(ctx: Context, handler: Handler, matcher: Matcher, values: list[str]) -> None:
    named = _named_in(handler.matcher or "", values)
    suggestion = exact_alternative(named) if named else None
    fix = (
        f"use the matcher {shown(suggestion)}."
        if suggestion
        else "write a valid regex, or an exact list such as `Bash|Edit`."
    )
    _finding(
        ctx,
        handler,
        "matcher-invalid-regex",
        "error",
        f"the matcher {_written(handler)} is an invalid regex ({matcher.error}): the hook "
        "never runs, and Claude Code logs nothing.",
        fix,
        suggestion,
    )


def _named_in(text: str, values: list[str]) -> list[str]:
    """The known names written whole in `text`, in the order they appear there."""
    found = []
    for value in values:
        hit = re.search(rf"(?<![A-Za-z0-9_]){re.escape(value)}(?![A-Za-z0-9_])", text)
        if hit is not None:
            found.append((hit.start(), value))
    return [value for _, value in sorted(found)]


def _permission_rule(ctx: Context, handler: Handler, tool: str) -> None:
    """The tool as the matcher; on clients with the `if` field, the rule moves there, so the
    hook still runs only for the calls it was written for."""
    rule = (handler.matcher or "").strip()
    group = _group_of(handler)
    if_since = event_catalog.claude_code_catalog()["command_hook_fields"]["if"]["since"]
    has_if = ctx.version is None or ctx.version >= parse_version(if_since)
    if has_if and group is not None:
        fixed = {
            **group,
            "matcher": tool,
            "hooks": [
                {**entry, "if": rule} if isinstance(entry, dict) and "if" not in entry else entry
                for entry in group.get("hooks", [])
            ],
        }
        fix = (
            f'use the matcher {shown(tool)} and put the rule in each hook\'s "if" field, '
            f'"if": "{rule}" (Claude Code {if_since}+ runs the hook only for calls matching it).'
        )
        edit: EditJson | None = {
            "op": "set",
            "file": handler.source.path,
            "path": _group_path(handler),
            "value": fixed,
        }
    else:
        fix = f"use the matcher {shown(tool)} and check the tool input inside the hook."
        edit = None
    finding = Finding(
        code="matcher-permission-rule",
        severity="error",
        file=handler.source.path,
        event=handler.event,
        path=_matcher_path(handler),
        message=f"the matcher {shown(rule)} is permission-rule syntax, not a matcher: it matches "
        "no tool, so the hook never runs.",
        fix=fix,
        edit=edit
        or {
            "op": "set",
            "file": handler.source.path,
            "path": _matcher_path(handler),
            "value": tool,
        },
    )
    ctx.add(finding)


def _group_path(handler: Handler) -> str:
    return handler.path.rsplit(".hooks[", 1)[0]


def _group_of(handler: Handler) -> dict[str, Any] | None:
    """The matcher group (as written) a handler sits in."""
    steps = path_steps(_group_path(handler))
    node: Any = handler.source.data
    for step in steps or []:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    return node if isinstance(node, dict) else None


def _check_exact(
    ctx: Context, handler: Handler, matcher: Matcher, values: list[str], field: str
) -> None:
    prefix = doctor_facts()["matcher"]["mcp_tool_prefix"]
    aliases = tool_aliases(field)
    fixed: list[str] = []
    problems: list[tuple[str, str]] = []
    for name in matcher.names:
        if (
            name in values
            or name in aliases
            or (field == event_catalog.TOOL_MATCHER_FIELD and name.startswith(prefix))
        ):
            fixed.append(name)
            continue
        folded = next((value for value in values if value.casefold() == name.casefold()), None)
        if folded is not None:
            what = "tool" if field == event_catalog.TOOL_MATCHER_FIELD else field
            reason = f"names are case-sensitive and the {what} is {shown(folded)}"
            problems.append(("matcher-case", f"{shown(name)} ({reason})"))
            fixed.append(folded)
        else:
            problems.append(("matcher-unknown-name", f"{shown(name)}"))
            fixed.append(name)
    value = exact_alternative(fixed)
    # A list where some name still matches runs for those: a warning, not "never runs".
    some_match = len(problems) < len(matcher.names)
    for code in dict.fromkeys(code for code, _ in problems):
        described = ", ".join(text for c, text in problems if c == code)
        if code == "matcher-unknown-name":
            what = "tool" if field == event_catalog.TOOL_MATCHER_FIELD else field
            _finding(
                ctx,
                handler,
                code,
                "info",
                f"the matcher names {described}, which is not a {what} hookman knows; it matches "
                "only that exact name.",
                "check the spelling against the names in docs/doctor.md (MCP tools are "
                "mcp__<server>__<tool>).",
            )
            continue
        _finding(
            ctx,
            handler,
            code,
            "warning" if some_match else "error",
            f"the matcher {_written(handler)} never matches: "
            f"{_reasons(problems, code)}; the hook never runs."
            if len(matcher.names) == 1
            else f"in the matcher {_written(handler)}, {described} never matches; the "
            "hook never runs for it.",
            f"use the matcher {shown(value)}.",
            value,
        )


def _reasons(problems: list[tuple[str, str]], code: str) -> str:
    """The reasons (the parenthesised part) of the problems with `code`."""
    return "; ".join(text.split(" (", 1)[1].rstrip(")") for c, text in problems if c == code)


def _check_regex(ctx: Context, handler: Handler, matcher: Matcher, values: list[str]) -> None:
    text = handler.matcher or ""
    is_tool = event_catalog.matcher_field(handler.event) == event_catalog.TOOL_MATCHER_FIELD
    matched = handler.matches or []
    if doctor_facts()["matcher"]["mcp_tool_prefix"] in text:
        return
    named = _named_in(text, values)
    extra = [value for value in matched if value not in named]
    # (only where it matches every tool it names: `^(?!(?:Bash)$).*` names the one it leaves
    # out, and the exact list would turn it inside out)
    if named and extra and all(value in matched for value in named):
        value = exact_alternative(named)
        _finding(
            ctx,
            handler,
            "matcher-unanchored",
            "warning",
            f"the matcher {shown(text)} is an unanchored regex: it also matches "
            f"{', '.join(extra)}.",
            f"use the exact list {shown(value)}.",
            value,
        )
        return
    if matched:
        return
    try:
        folded = re.compile(matcher.pattern.pattern, re.IGNORECASE) if matcher.pattern else None
    except re.error:
        folded = None
    near = [value for value in values if folded is not None and folded.search(value)]
    if near:
        value = exact_alternative(near)
        _finding(
            ctx,
            handler,
            "matcher-case",
            "error",
            f"the matcher {shown(text)} matches no tool (names are case-sensitive; "
            f"{', '.join(near)} differ only in case): the hook never runs.",
            f"use the matcher {shown(value)}.",
            value,
        )
        return
    if is_tool and matcher.pattern is not None and never_matches_a_tool_name(matcher.pattern):
        _finding(
            ctx,
            handler,
            "matcher-not-a-tool-name",
            "warning",
            f"the matcher {shown(text)} needs a character no tool name has (tool names are "
            "letters, digits, _ and -): it matches no tool, so the hook never runs. A matcher is "
            "tested against tool_name, not against a file path or a command.",
            "match the tools (e.g. `Edit|MultiEdit|Write`) and test tool_input inside the hook"
            + (
                ', or in each hook\'s "if" field (permission-rule syntax, as in "Bash(git *)").'
                if _has_if(ctx)
                else "."
            ),
        )
        return
    _finding(
        ctx,
        handler,
        "matcher-matches-nothing-known",
        "info",
        f"the matcher {shown(text)} matches none of the tools hookman knows.",
        "check it against the tool names in docs/doctor.md (MCP tools are mcp__<server>__<tool>).",
    )


def _has_if(ctx: Context) -> bool:
    since = event_catalog.claude_code_catalog()["command_hook_fields"]["if"]["since"]
    return ctx.version is None or ctx.version >= parse_version(since)


def _check_version_reading(ctx: Context, handler: Handler, matcher: Matcher) -> None:
    """Syntax the target client reads differently from current ones (comma, spaces, `-`)."""
    if ctx.version is None or matcher.kind == "exact":
        return
    newest: ClientVersion = event_catalog.newest_checked_client()
    current = read_matcher(handler.matcher, newest)
    if current.kind != "exact":
        return
    names = list(current.names)
    safe = (
        exact_alternative(names)
        if all(re.fullmatch(r"[A-Za-z0-9_]+", n) for n in names)
        else "^(?:" + "|".join(re.escape(n) for n in names) + ")$"
    )
    _finding(
        ctx,
        handler,
        "matcher-syntax-too-new",
        "warning" if all(matcher.matches(name) for name in names) else "error",
        f"Claude Code {ctx.version} reads {_written(handler)} as a regex, not as the list "
        f"{', '.join(shown(n) for n in names)} "
        "(commas and spaces need 2.1.191+, '-' 2.1.195+).",
        f"use the matcher {shown(safe)}, which every version reads the same way.",
        safe,
    )
