"""Inline shell commands (`` !`cmd` ``) in skills and slash commands: the client runs them
itself, PreToolUse never fires for them; from the client that knows PreSkillShellCommand,
a handler there (matcher covering Bash) can stop them."""

from __future__ import annotations

from hookman.catalog import event_catalog
from hookman.doctor.context import Context
from hookman.doctor.facts import doctor_facts
from hookman.doctor.frontmatter import split_frontmatter
from hookman.doctor.matchers import read_matcher
from hookman.doctor.model import Finding, Handler
from hookman.project.settings_entries import hookman_handler_is_sentinel

SHELL_TOOL = "Bash"


def check_inline_shell(ctx: Context) -> None:
    marker = doctor_facts()["inline_shell_marker"]
    skill_event = doctor_facts()["skill_shell_event"]
    with_shell = [
        source
        for source in ctx.sources.sources
        if source.kind in ("skill", "command")
        and source.text
        and marker in (split_frontmatter(source.text)[1])
    ]
    if not with_shell:
        return
    guards = _covering(ctx, event_catalog.PRE_TOOL_USE)
    # An unknown target is taken as the newest client hookman has facts for.
    target = ctx.version if ctx.version is not None else event_catalog.newest_checked_client()
    knows_event = event_catalog.is_claude_event(skill_event) and (
        event_catalog.since(skill_event) <= target
    )
    covering = _covering(ctx, skill_event) if knows_event else []
    hookman_guard = any(handler.hookman for handler in guards)
    for source in with_shell:
        if covering:
            names = ", ".join(f"{h.source.path} {h.path}" for h in covering)
            ctx.add(
                Finding(
                    "inline-shell-covered",
                    "info",
                    source.path,
                    f"this file runs inline shell commands (!`...`); {skill_event} handlers cover "
                    f"them: {names}.",
                    "nothing to do.",
                    event=skill_event,
                )
            )
            continue
        if not guards:
            ctx.add(
                Finding(
                    "inline-shell-unguarded",
                    "info",
                    source.path,
                    "this file runs inline shell commands (!`...`) that the client runs itself; "
                    "no hook sees them.",
                    f"if they need guarding, add a {skill_event} hook (Claude Code "
                    f"{event_catalog.since(skill_event)}+).",
                    event=skill_event,
                )
            )
            continue
        if knows_event:
            fix = (
                f"run `hookman install` so hookman's Bash guard also answers {skill_event}."
                if hookman_guard
                else f"add a {skill_event} hook with matcher {SHELL_TOOL!r} that applies the "
                "same checks."
            )
            message = (
                "this file runs inline shell commands (!`...`); PreToolUse guards never "
                f"see them and no {skill_event} handler covers Bash."
            )
        else:
            fix = (
                f"update Claude Code to {event_catalog.since(skill_event)}+ and add a "
                f"{skill_event} hook "
                "(hookman guards get one on `hookman install`), or remove the !`...` commands."
            )
            message = (
                "this file runs inline shell commands (!`...`) that the client runs itself: your "
                "PreToolUse Bash guards never see them, and Claude Code "
                f"{target} has no hook for them."
            )
        ctx.add(
            Finding(
                "inline-shell-unguarded", "warning", source.path, message, fix, event=skill_event
            )
        )


def _covering(ctx: Context, event: str) -> list[Handler]:
    """The handlers on `event` that reach Bash, but hookman's sentinel: it guards nothing
    (it denies only until `hookman install` once the project changed; project/sentinel.py)."""
    return [
        handler
        for handler in ctx.handlers
        if handler.event == event
        and handler.loaded
        and not (handler.hookman and hookman_handler_is_sentinel(handler.raw))
        and read_matcher(handler.matcher, ctx.version).matches(SHELL_TOOL)
    ]
