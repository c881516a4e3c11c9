"""GitHub Copilot CLI's view of the project's hooks. Copilot runs the entries of
`.claude/settings.json` and `.claude/settings.local.json` (hookman's among them: install
writes nothing of its own for Copilot) besides its own files (`.github/hooks/*.json`,
~/.copilot/hooks/*.json, `hooks` in ~/.copilot/settings.json). What it reads differently
from Claude Code, measured with Copilot 1.0.102 (docs/agents.md):

- in `copilot -p` it runs no hook of a folder it does not trust;
- one entry its schema refuses (a `type: "prompt"` entry, an empty matcher) makes it drop
  every hook of that settings file, hookman's guard included;
- a matcher is an anchored regex: a comma list (`Read, Bash`) matches nothing;
- `decision: "block"` on preToolUse lets the tool run; additionalContext inside
  hookSpecificOutput never reaches the model;
- a hookman entry in Copilot's own files runs twice, beside the one in settings.local.json.

These findings are about Copilot: Claude Code's `loaded` state of a handler is not changed.
Nothing here runs unless `agents` names copilot or Copilot's own files hold hooks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hookman.doctor import findings_agents as agents
from hookman.doctor.agent_files import doctor_facts_of, read_agent_files, wants_agent
from hookman.doctor.context import Context
from hookman.doctor.copilot_sources import (
    is_trusted,
    trust_by_environment,
    trust_file,
    trusted_folders,
)
from hookman.doctor.findings_commands import script_path
from hookman.doctor.matchers import read_matcher
from hookman.doctor.model import Finding, Handler, Source
from hookman.doctor.script_text import hook_text

AGENT = "copilot"
CONTEXT_EVENTS = ("SessionStart", "UserPromptSubmit", "PostToolUse")
ANSWER_CODES = {"block_on_pre_tool_use": "copilot-block-fails-open"}


def wants_copilot(project_dir: Path) -> bool:
    return wants_agent(AGENT, project_dir)


def check_copilot(ctx: Context) -> None:
    claude = _claude_sources(ctx)
    claude_handlers = [h for h in ctx.handlers if h.source in claude]
    files = read_agent_files(AGENT, ctx.project_dir)
    handlers = agents.add_sources(ctx, AGENT, files, "copilot-source-invalid")
    for handler in handlers:
        if handler.source.error is not None:
            handler.silence("copilot-source-invalid")
    if not agents.installed(AGENT):
        agents.not_installed(ctx, AGENT, handlers, "copilot-not-installed")
        return
    for file in files:
        if file.error is not None:
            agents.check_invalid(ctx, AGENT, file, "copilot-source-invalid")
    _check_trust(ctx, claude_handlers + [h for h in handlers if _layer(h) == "project"])
    for source in claude:
        _check_file_refused(ctx, source, [h for h in claude_handlers if h.source is source])
    memo: dict[Path, str | None] = {}
    for handler in claude_handlers + handlers:
        _check_matcher(ctx, handler)
        _check_answers(ctx, handler, memo)
    for handler in handlers:
        _check_twice(ctx, handler)
    agents.check_unguarded(ctx, AGENT, "copilot-tool-unguarded")


def _claude_sources(ctx: Context) -> list[Source]:
    kinds = set(doctor_facts_of(AGENT)["claude_files"])
    return [s for s in ctx.sources.sources if s.kind in kinds and isinstance(s.data, dict)]


def _layer(handler: Handler) -> str:
    return (handler.source.label or "").split(" ")[0]


# --- trust ---------------------------------------------------------------------------------


def _check_trust(ctx: Context, handlers: list[Handler]) -> None:
    if not handlers or trust_by_environment() is not None:
        return
    folders = trusted_folders()
    if folders is not None and is_trusted(ctx.project_dir, folders):
        return
    config = trust_file()
    state = (
        f"{config} does not parse, so it trusts no folder"
        if folders is None
        else f"no folder in `trustedFolders` of {config} holds it"
    )
    own = any(h.hookman for h in handlers)
    agents.add(
        ctx,
        Finding(
            "copilot-folder-untrusted",
            "warning",
            str(config),
            f"Copilot CLI does not trust the project {ctx.project_dir} ({state}): in "
            f"`copilot -p` it runs none of its {len(handlers)} hook(s)"
            + (", hookman's included (its guards guard nothing there)" if own else "")
            + "; interactively Copilot asks first.",
            f"trust the folder: start `copilot` in {ctx.project_dir} and choose to remember "
            "the folder, or pass `--trust-folder` to each `copilot -p`.",
        ),
    )


# --- an entry that makes Copilot drop the whole file ------------------------------------------


def _check_file_refused(ctx: Context, source: Source, handlers: list[Handler]) -> None:
    problem = _refused_entry(source.data.get("hooks"))
    if problem is None:
        return
    where, what = problem
    own = [h for h in handlers if h.hookman]
    agents.add(
        ctx,
        Finding(
            "copilot-file-disabled",
            "error" if own else "warning",
            source.path,
            f"{what} at {where}: Copilot CLI refuses it and then runs none of this file's "
            f"{len(handlers)} hook(s)"
            + (", hookman's included (its guards guard nothing in Copilot)." if own else ".")
            + " Claude Code runs them.",
            "move that entry to a file Copilot does not read (`~/.claude/settings.json`), or "
            "remove it; Copilot runs command hooks.",
            path=where,
        ),
    )


def _refused_entry(hooks: Any) -> tuple[str, str] | None:
    if not isinstance(hooks, dict):
        return None
    types = list(doctor_facts_of(AGENT)["entry_types"])
    for event, groups in hooks.items():
        for index, group in enumerate(groups if isinstance(groups, list) else []):
            if not isinstance(group, dict):
                continue
            at = f"hooks.{event}[{index}]"
            if group.get("matcher") == "":
                return f"{at}.matcher", "an empty matcher"
            for position, entry in enumerate(group.get("hooks") or []):
                kind = entry.get("type") if isinstance(entry, dict) else None
                if kind not in types:
                    return f"{at}.hooks[{position}]", f"an entry of type {kind!r}"
    return None


# --- matchers ------------------------------------------------------------------------------


def _check_matcher(ctx: Context, handler: Handler) -> None:
    """Copilot reads a matcher as a regex anchored at both ends; a name list Claude Code reads
    (`Read, Bash`) may match nothing there."""
    matcher = read_matcher(handler.matcher, ctx.version)
    if matcher.kind != "exact" or not matcher.names:
        return
    missed = [name for name in matcher.names if not _copilot_matches(handler.matcher, name)]
    if not missed:
        return
    fixed = "|".join(dict.fromkeys(matcher.names))
    at = handler.path.rsplit(".hooks[", 1)[0] + ".matcher"
    whose = "hookman's" if handler.hookman else "the"
    finding = Finding.about(
        handler,
        "copilot-matcher-unreadable",
        "error",
        f"{whose} {handler.event} matcher {handler.matcher!r} is a list Claude Code reads, "
        "but Copilot CLI reads a matcher as one anchored regex, so there it never matches "
        + ", ".join(f"`{n}`" for n in missed)
        + ".",
        "run `hookman install` (hookman writes `A|B`)."
        if handler.hookman
        else f"write it as {fixed!r}: both read that.",
        path=at,
    )
    if not handler.hookman:
        finding.edit = {"op": "set", "file": handler.source.path, "path": at, "value": fixed}
    agents.add(ctx, finding)


def _copilot_matches(text: str | None, name: str) -> bool:
    try:
        return re.fullmatch(f"(?:{text})", name) is not None
    except re.error:
        return False


# --- answers -------------------------------------------------------------------------------


def _check_answers(ctx: Context, handler: Handler, memo: dict[Path, str | None]) -> None:
    if handler.hookman or handler.command is None:
        return
    if handler.event in doctor_facts_of(AGENT)["fails_open_events"]:
        agents.check_answers(ctx, AGENT, handler, memo, ANSWER_CODES)
    if handler.event not in CONTEXT_EVENTS:
        return
    text = hook_text(handler.command, script_path(ctx, handler), memo)
    pattern = agents.first(text, list(doctor_facts_of(AGENT)["context_inside"]))
    if pattern is None or text.all.count("additionalContext") > 1:
        return
    agents.add(
        ctx,
        Finding.about(
            handler,
            "copilot-context-dropped",
            "warning",
            f"the {handler.event} hook puts additionalContext inside hookSpecificOutput "
            f"({text.where(pattern)}): Copilot CLI reads it only at the top level, so its "
            "model never sees the text (Claude Code's does).",
            "also print it as a top-level `additionalContext` (Claude Code reads the one in "
            "hookSpecificOutput).",
        ),
    )


# --- hookman's entries in Copilot's own files ------------------------------------------------


def _check_twice(ctx: Context, handler: Handler) -> None:
    if not handler.hookman:
        return
    agents.add(
        ctx,
        Finding.about(
            handler,
            "copilot-hookman-twice",
            "warning",
            f"hookman's {handler.event} entry is in a file of Copilot CLI's own, and Copilot "
            "also runs hookman's entries in .claude/settings.local.json: its hooks run twice "
            "for each call.",
            "remove this entry: `hookman install` wires Copilot through "
            ".claude/settings.local.json.",
        ),
    )
