"""Factory droid's hooks: hooks.json (events at the top level) and `hooks` in settings.json,
in the user's ~/.factory and the project's .factory. droid speaks Claude Code's protocol but
names its tools its own way (`Execute` for the shell), skips a whole file its schema
refuses without a word, ignores a `{"hooks": ...}` wrapper in hooks.json, and fails open on
exit 1 and on a top-level `permissionDecision` or `decision` (docs/agents.md).

Nothing here runs for a project that neither names droid in `agents` nor has a droid file
with hooks (wants_droid reads files only).
"""

from __future__ import annotations

import re
from pathlib import Path

from hookman.catalog import agent_catalog
from hookman.doctor import findings_agents as agents
from hookman.doctor.agent_files import (
    AgentFile,
    doctor_facts_of,
    events_file_beside,
    read_agent_files,
    wants_agent,
)
from hookman.doctor.context import Context
from hookman.doctor.droid_schema import schema_problem
from hookman.doctor.foreign_hooks import check_foreign
from hookman.doctor.model import Finding, Handler

AGENT = "droid"
TOOL_EVENTS = ("PreToolUse", "PostToolUse")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ANCHORED = re.compile(r"\^\(\?:(.*)\)\$")  # the form hookman writes for several names
ANSWER_CODES = {
    "exits_1": "droid-exit-1-not-2",
    "top_level_decision": "droid-top-level-decision",
}


def wants_droid(project_dir: Path) -> bool:
    return wants_agent(AGENT, project_dir)


def check_droid(ctx: Context) -> None:
    files = read_agent_files(AGENT, ctx.project_dir)
    handlers = agents.add_sources(ctx, AGENT, files, "droid-source-invalid")
    installed = agents.installed(AGENT)
    wrapped = _wrapped_handlers(ctx, files, report=installed)
    if not installed:
        agents.not_installed(ctx, AGENT, handlers + wrapped, "droid-not-installed")
        return
    for file in files:
        if file.error is not None:
            agents.check_invalid(ctx, AGENT, file, "droid-source-invalid")
        elif file.hooks is not None:
            _check_schema(ctx, file, _of(handlers, file))
    _check_shadowed(ctx, files, handlers)
    agents.check_switched_off(ctx, AGENT, files, handlers, "droid-hooks-disabled")
    memo: dict[Path, str | None] = {}
    for handler in handlers:
        agents.check_event(ctx, AGENT, handler, _hooks_key(files, handler), "droid-unknown-event")
        _check_matcher(ctx, handler)
        agents.check_agent_flag(ctx, AGENT, handler, "droid-hookman-wrong-agent")
        agents.check_answers(ctx, AGENT, handler, memo, ANSWER_CODES)
    hooks_json = next((f for f in files if f.layer == "project" and f.hooks_key is None), None)
    agents.check_stale(ctx, AGENT, hooks_json, "droid-hookman-stale")
    agents.check_unguarded(ctx, AGENT, "droid-tool-unguarded")
    check_foreign(ctx, AGENT, handlers, "droid-foreign-pre-tool-use")


def _of(handlers: list[Handler], file: AgentFile) -> list[Handler]:
    return [h for h in handlers if h.source.path == str(file.path)]


def _hooks_key(files: list[AgentFile], handler: Handler) -> str | None:
    return next(f.hooks_key for f in files if str(f.path) == handler.source.path)


# --- the wrapper droid ignores -------------------------------------------------------------


def _wrapped_handlers(ctx: Context, files: list[AgentFile], *, report: bool) -> list[Handler]:
    """hooks.json holding `{"hooks": {EVENT: ...}}` (Claude Code's settings shape): droid
    reads events at the top level only, so it skips these without a word (`report`: say
    so; not where droid is not installed)."""
    key = str(doctor_facts_of(AGENT)["wrapper_key"])
    found: list[Handler] = []
    for file in files:
        inner = file.hooks.get(key) if file.hooks_key is None and file.hooks else None
        if not isinstance(inner, dict):
            continue
        source = next(s for s in ctx.sources.sources if s.path == str(file.path))
        wrapped = agents.file_handlers(source, inner, key)
        ctx.handlers.extend(wrapped)
        found.extend(wrapped)
        if not report:
            continue
        for handler in wrapped:
            handler.silence("droid-hooks-wrapper")
        own = any(h.hookman for h in wrapped)
        agents.add(
            ctx,
            Finding(
                "droid-hooks-wrapper",
                "error",
                str(file.path),
                f"{file.path.name} holds its events under a `{key}` key (Claude Code's "
                "settings shape): droid reads events at the top level of hooks.json only and "
                f"skips these {len(wrapped)} hook(s) without a word"
                + (", hookman's included." if own else "."),
                'move the events to the top level (`{"PreToolUse": [...]}`)'
                + (", or run `hookman install --agent droid` (it writes them so)." if own else "."),
                path=key,
            ),
        )
    return found


# --- a file droid's schema refuses -------------------------------------------------------


def _check_schema(ctx: Context, file: AgentFile, handlers: list[Handler]) -> None:
    """The first place droid's schema refuses: droid then skips the whole file."""
    problem = schema_problem(file.hooks or {}, file.hooks_key)
    if problem is None:
        return
    where, what = problem
    for handler in handlers:
        handler.silence("droid-file-ignored")
    own = [h for h in handlers if h.hookman]
    counted = f"all {len(handlers)} hook(s) of the file" if handlers else "the whole file"
    agents.add(
        ctx,
        Finding(
            "droid-file-ignored",
            "error",
            str(file.path),
            f"{what} at {where}: droid's schema refuses it and droid then skips "
            f"{counted} without a word" + (", hookman's included." if own else "."),
            'fix or remove that entry (droid runs command hooks only: `type` "command" with '
            "a `command` string and a numeric `timeout`).",
            path=where,
        ),
    )


# --- hooks.json over settings.json ------------------------------------------------------------


def _check_shadowed(ctx: Context, files: list[AgentFile], handlers: list[Handler]) -> None:
    """In one folder droid takes hooks.json's events over the same events in settings.json's
    `hooks`, so those settings.json hooks never run."""
    for settings in (f for f in files if f.hooks_key is not None and f.hooks):
        beside = events_file_beside(settings, files)
        if beside is None:
            continue
        assert beside.hooks is not None
        for event in settings.hooks or {}:
            if event not in beside.hooks:
                continue
            lost = [h for h in _of(handlers, settings) if h.event == event and h.loaded]
            for handler in lost:
                handler.silence("droid-settings-hooks-shadowed")
            if lost:
                own = any(h.hookman for h in lost)
                agents.add(
                    ctx,
                    Finding(
                        "droid-settings-hooks-shadowed",
                        "error" if own else "warning",
                        str(settings.path),
                        f"{event} is also in {beside.path}: droid takes that file's {event} "
                        f"hooks instead of these {len(lost)}, which never run.",
                        f"move these {event} hooks into {beside.path}.",
                        event=event,
                        path=f"hooks.{event}",
                    ),
                )


# --- matchers naming Claude Code's tools ------------------------------------------------------


def claude_names_droid_lacks() -> dict[str, str]:
    """Claude Code's tool name -> droid's, where droid calls the tool otherwise (`Bash` ->
    `Execute`): the inverse of the runner's map (catalog/droid_events.json)."""
    return {claude: own for own, claude in agent_catalog.tool_map(AGENT).items() if own != claude}


def _check_matcher(ctx: Context, handler: Handler) -> None:
    """A matcher naming a Claude Code tool droid calls otherwise (`Bash` for `Execute`):
    droid matches its own names, so the hook never runs for that tool."""
    if handler.event not in TOOL_EVENTS or not handler.matcher:
        return
    renames = claude_names_droid_lacks()
    anchored = _ANCHORED.fullmatch(handler.matcher)
    inner = anchored.group(1) if anchored else handler.matcher
    names = [part.strip() for part in inner.split("|")]
    if not all(_NAME.fullmatch(name) for name in names):
        return  # a regex: doctor does not guess what it means
    foreign = [name for name in names if name in renames]
    if not foreign:
        return
    fixed = "|".join(dict.fromkeys(renames.get(name, name) for name in names))
    fixed = f"^(?:{fixed})$" if anchored else fixed
    if len(foreign) == len(names):
        handler.silence("droid-matcher-claude-tool")
    whose = "hookman's" if handler.hookman else "the"
    at = handler.path.rsplit(".hooks[", 1)[0] + ".matcher"
    finding = Finding.about(
        handler,
        "droid-matcher-claude-tool",
        "error",
        f"{whose} {handler.event} matcher {handler.matcher!r} names Claude Code's "
        + ", ".join(f"`{n}` (droid's `{renames[n]}`)" for n in foreign)
        + ": droid matches its own tool names, so the hook never runs for "
        + ("them." if len(foreign) > 1 else "it."),
        (
            "run `hookman install --agent droid` (it writes droid's names)."
            if handler.hookman
            else f"write the matcher as {fixed!r}."
        ),
        path=at,
    )
    if not handler.hookman:
        finding.edit = {"op": "set", "file": handler.source.path, "path": at, "value": fixed}
    agents.add(ctx, finding)
