"""Findings read from what a foreign command hook says: its command and the script it runs,
when doctor can read it (nothing is run). A Stop or SubagentStop hook that can block and
never reads `stop_hook_active`; a guard on an event that cannot block; variables the client
never sets; Windows-only syntax where a POSIX shell runs the command."""

from __future__ import annotations

import re
from pathlib import Path

from hookman.catalog import event_catalog
from hookman.doctor.context import EVENT_CODES, Context
from hookman.doctor.facts import script_text_facts, variables_never_set
from hookman.doctor.findings_commands import script_path
from hookman.doctor.findings_plugins import built_by_hookman
from hookman.doctor.model import Finding, Handler
from hookman.doctor.quote import shown
from hookman.doctor.script_text import (
    HookText,
    first_match,
    has_guard_words,
    hook_text,
    reads_unset_variable,
)
from hookman.doctor.windows_syntax import windows_syntax

PROBE_HINT = "`hookman doctor --probe-commands` runs it on sample payloads to confirm."


def check_code(ctx: Context) -> None:
    memo: dict[Path, str | None] = {}
    built = {s.path for s in ctx.sources.sources if built_by_hookman(ctx, s)}
    for handler in ctx.handlers:
        if handler.type != "command" or handler.command is None or handler.hookman:
            continue
        if handler.source.path in built:  # a plugin hookman built: its launcher, not a hook
            continue
        if handler.not_loaded_because in EVENT_CODES:
            continue
        windows = windows_syntax(handler)
        if windows is not None:
            _windows(ctx, handler, windows)
            continue
        text = hook_text(handler.command, script_path(ctx, handler), memo)
        _check_stop_way_out(ctx, handler, text)
        _check_cannot_block(ctx, handler, text)
        _check_variables(ctx, handler, text)


def _check_stop_way_out(ctx: Context, handler: Handler, text: HookText) -> None:
    facts = script_text_facts()
    if handler.event not in facts["stop_events"] or handler.is_async:
        return
    blocking = first_match(text.all, "blocks")
    if blocking is None or facts["stop_way_out"] in text.all:
        return
    ctx.add(
        Finding.about(
            handler,
            "stop-ignores-stop-hook-active",
            "warning",
            f"this {handler.event} hook can block ({_found(blocking, text)}) and never reads "
            "stop_hook_active: while its condition holds, the agent is sent back to work again "
            "and again.",
            "read the payload on stdin and exit 0 without blocking when stop_hook_active is true"
            f" (the client sets it once a Stop hook already made the agent continue). {PROBE_HINT}",
        )
    )


def _check_cannot_block(ctx: Context, handler: Handler, text: HookText) -> None:
    event = handler.event
    if not event_catalog.is_claude_event(event) or handler.is_async:
        return
    if event_catalog.claude_code_catalog()["events"][event]["exit2_blocks"] is not False:
        return
    exit_2 = first_match(text.all, "exits_2")
    if exit_2 is None or not has_guard_words(text.all):
        return  # exit 2 alone also shows the model a linter's stderr, which works
    ctx.add(
        Finding.about(
            handler,
            "block-cannot-block",
            "warning",
            f"this {event} hook exits 2 to stop something ({_found(exit_2, text)}), but "
            f"{event} cannot block: nothing is stopped (on PostToolUse the tool already ran); "
            "the model only reads its stderr.",
            f"guard on PreToolUse instead: only a hook that runs before the tool can stop it. "
            f"{PROBE_HINT}",
        )
    )


def _found(pattern: re.Pattern[str], text: HookText) -> str:
    match = pattern.search(text.all)
    return f"{shown(match.group(0) if match else pattern.pattern)} {text.where(pattern)}"


def _check_variables(ctx: Context, handler: Handler, text: HookText) -> None:
    fields = variables_never_set()
    unset = [name for name in fields if reads_unset_variable(text.all, name)]
    if not unset:
        return
    names = ", ".join(f"${name}" for name in unset)
    instead = "; ".join(f"${name}: {fields[name]}" for name in unset)
    where = f" (in {text.script.name})" if text.script and unset[0] not in handler.command else ""
    ctx.add(
        Finding.about(
            handler,
            "variable-never-set",
            "warning",
            f"the hook reads {names}{where}, which Claude Code never sets: it passes the payload "
            "as JSON on stdin, so the hook sees an empty value and silently does nothing.",
            f"read the payload field instead ({instead}), e.g. `jq -r '.{fields[unset[0]]}'`.",
            path=f"{handler.path}.command",
        )
    )


def _windows(ctx: Context, handler: Handler, piece: str) -> None:
    variable = piece.startswith("%") and piece.endswith("%")
    fix = (
        f'write it as "${piece.strip("%")}" (POSIX shell syntax).'
        if variable
        else 'use forward slashes, e.g. "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh.'
    )
    ctx.add(
        Finding.about(
            handler,
            "command-windows-syntax",
            "warning",
            f"the command uses {shown(piece)}, Windows syntax, but Claude Code runs it with "
            "/bin/sh "
            + (
                "here, which leaves it as plain text."
                if variable
                else "here, which reads each backslash as an escape: the path is lost."
            ),
            fix + ' (Or set "shell": "powershell" if the hook is meant for PowerShell on Windows.)',
            path=f"{handler.path}.command",
        )
    )
