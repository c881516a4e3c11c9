"""Findings about foreign command handlers: a program that is missing, not executable or
reached by a relative path, timeouts that look like milliseconds, SessionEnd timeouts above
the shared budget's cap, and copies of one hook that really run twice."""

from __future__ import annotations

import shutil
from pathlib import Path

from hookman.catalog import event_catalog
from hookman.doctor import fs
from hookman.doctor.command_words import invocation
from hookman.doctor.context import EVENT_CODES, Context
from hookman.doctor.facts import doctor_facts
from hookman.doctor.model import Finding, Handler, Severity
from hookman.doctor.quote import shown
from hookman.doctor.sources import SETTINGS_KINDS
from hookman.doctor.windows_syntax import windows_syntax
from hookman.project.settings_entries import shell_words

SESSION_END = "SessionEnd"
PROJECT_DIR_VARS = ("$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}")
HOME_VARS = ("$HOME", "${HOME}")
PLUGIN_ROOT_VARS = ("$CLAUDE_PLUGIN_ROOT", "${CLAUDE_PLUGIN_ROOT}")
# Exec form (`args`) runs no shell: the client fills in only its braced placeholders.
EXEC_FORM_PLACEHOLDERS = ("${CLAUDE_PROJECT_DIR}", "${CLAUDE_PLUGIN_ROOT}")
_RUN_TIME_MARKS = ("$", "`", "*", "?")
DAY_S = 86400


def check_commands(ctx: Context) -> None:
    for handler in ctx.handlers:
        if handler.type != "command" or handler.command is None or handler.hookman:
            continue
        if handler.not_loaded_because in EVENT_CODES or windows_syntax(handler) is not None:
            continue  # said once: by the event's finding, or as Windows syntax
        _check_program(ctx, handler)
    for handler in ctx.handlers:
        if handler.not_loaded_because not in EVENT_CODES:
            _check_timeout(ctx, handler)
    _check_duplicates(ctx)


def _shell_words(command: str) -> tuple[str, ...] | None:
    try:
        return shell_words(command, comments=True)
    except ValueError:
        return None


def expand(word: str, ctx: Context, handler: Handler, *, exec_form: bool = False) -> str:
    """The path text with the variables Claude Code sets (and `~`) filled in; a word that
    still holds `$` afterwards depends on something doctor cannot know."""
    root = ctx.sources.plugin_roots.get(handler.source.path)
    if exec_form:
        word = word.replace(EXEC_FORM_PLACEHOLDERS[0], str(ctx.project_dir))
        if root is not None:
            word = word.replace(EXEC_FORM_PLACEHOLDERS[1], root)
        return word
    if "$" not in word:
        return str(Path.home()) + word[1:] if word.startswith("~/") else word
    for variable in PROJECT_DIR_VARS:
        word = word.replace(variable, str(ctx.project_dir))
    if root is not None:
        for variable in PLUGIN_ROOT_VARS:
            word = word.replace(variable, root)
    if "$" in word and any(variable in word for variable in HOME_VARS):
        for variable in HOME_VARS:
            word = word.replace(variable, str(Path.home()))
    if word.startswith("~/"):
        word = str(Path.home()) + word[1:]
    return word


def script_path(ctx: Context, handler: Handler) -> Path | None:
    """The script file a handler runs (its program, or what its interpreter is given), when
    doctor can tell where it is."""
    run = invocation(handler)
    if run is None:
        return None
    word = run.script if run.script is not None else run.program if run.program_has_path else None
    if word is None:
        return None
    expanded = expand(word, ctx, handler, exec_form=run.exec_form)
    if "$" in expanded:
        return None
    path = Path(expanded)
    return path if path.is_absolute() else ctx.project_dir / path


def _check_program(ctx: Context, handler: Handler) -> None:
    run = invocation(handler)
    if run is None:
        return
    program = run.program
    if run.program_has_path:
        _check_path(
            ctx,
            handler,
            program,
            executable=True,
            exec_form=run.exec_form,
            interpreter=not run.runs_script_itself,
        )
    elif any(mark in program for mark in _RUN_TIME_MARKS):
        return  # expanded by the shell at run time
    elif shutil.which(program) is None:
        checked = f"; doctor still checked the script {shown(run.script)}" if run.script else ""
        _add(
            ctx,
            handler,
            "command-not-found",
            "error",
            f"the program {shown(program)} is not on PATH here, so the hook fails every time"
            f"{checked}.",
            f"install {shown(program)}, or use its absolute path in the command.",
        )
    if run.script is not None:
        _check_path(ctx, handler, run.script, executable=False, exec_form=run.exec_form)


def _check_path(
    ctx: Context,
    handler: Handler,
    word: str,
    *,
    executable: bool,
    exec_form: bool = False,
    interpreter: bool = False,
) -> None:
    expanded = expand(word, ctx, handler, exec_form=exec_form)
    if "$" in expanded:
        return
    path = Path(expanded)
    if not path.is_absolute():
        anchored = (
            f"${{CLAUDE_PROJECT_DIR}}/{word.removeprefix('./')}"
            if exec_form
            else f'"$CLAUDE_PROJECT_DIR"/{word.removeprefix("./")}'
        )
        _add(
            ctx,
            handler,
            "command-relative-path",
            "warning",
            f"the command reaches {shown(word)} by a relative path: it breaks as soon as the "
            "agent changes directory.",
            f"write it as {anchored}"
            + (
                " (exec form runs no shell: only ${CLAUDE_...} placeholders are filled in)."
                if exec_form
                else "."
            ),
        )
        path = ctx.project_dir / path
    present = fs.exists(path)
    if present is None:
        return  # not allowed to look: say nothing rather than guess
    if not present:
        what = "the interpreter " if interpreter else ""
        _add(
            ctx,
            handler,
            "command-not-found",
            "error",
            f"{what}{shown(word)} does not exist ({path}), so the hook fails every time.",
            "install it, or fix its path in the command."
            if interpreter
            else "create the script, or fix the path in the command.",
        )
    elif executable and not fs.executable(path):
        _add(
            ctx,
            handler,
            "command-not-executable",
            "error",
            f"{shown(word)} is not executable, so the hook fails every time.",
            f"run `chmod +x {path}`, or start the command with its interpreter (e.g. bash).",
        )


def _add(
    ctx: Context,
    handler: Handler,
    code: str,
    severity: Severity,
    message: str,
    fix: str,
    path: str | None = None,
) -> None:
    ctx.add(
        Finding.about(
            handler,
            code,
            severity,
            message,
            fix,
            path=path or f"{handler.path}.command",
        )
    )


def looks_like_milliseconds(timeout: float) -> bool:
    """1000 or more, and a round number of milliseconds (5000, 30000, 2500) or over a day; a
    whole number of minutes that is not a multiple of 1000 (1800, 3600) is a deliberate wait."""
    if timeout < doctor_facts()["timeout_looks_like_ms_from_s"]:
        return False
    if timeout > DAY_S:
        return True
    if timeout != int(timeout):
        return False
    value = int(timeout)
    whole_minutes = value % 60 == 0
    return value % 1000 == 0 or (value % 500 == 0 and not whole_minutes)


def _check_timeout(ctx: Context, handler: Handler) -> None:
    if handler.timeout is None:
        return
    if looks_like_milliseconds(handler.timeout):
        seconds = handler.timeout / 1000
        guarded = handler.event in event_catalog.guarded_events()
        fix = (
            f'if {handler.timeout:g} ms was meant, write "timeout": {seconds:g}, but only if the '
            "guard always finishes well within that: a guard killed at its timeout lets the tool "
            "run (`hookman doctor --probe-commands` times it). Leaving it long is the safe choice."
            if guarded
            else f'write "timeout": {seconds:g}.'
        )
        _add(
            ctx,
            handler,
            "timeout-looks-like-ms",
            "info" if guarded else "warning",
            f"timeout {handler.timeout:g} is in seconds (about {_duration(handler.timeout)}); it "
            "looks meant as milliseconds.",
            fix,
            f"{handler.path}.timeout",
        )
    cap = event_catalog.session_end_budget_cap_s()
    if handler.event == SESSION_END and handler.timeout > cap:
        _add(
            ctx,
            handler,
            "session-end-over-budget",
            "warning",
            f"SessionEnd hooks share one budget capped at {cap:g} s; timeout {handler.timeout:g} "
            "is cut to it and longer work is cancelled.",
            "keep SessionEnd work short, or hand long work to a background process.",
            f"{handler.path}.timeout",
        )


def _duration(seconds: float) -> str:
    if seconds >= 2 * 3600:
        return f"{seconds / 3600:.0f} hours"
    return f"{seconds / 60:.0f} minutes"


def _normalised(command: str) -> str:
    text = command
    for variable in PROJECT_DIR_VARS:
        text = text.replace(f'"{variable}"/', "").replace(f"{variable}/", "")
    split = _shell_words(text)
    words = list(split) if split is not None else text.split()
    return " ".join(word.removeprefix("./") for word in words)


def _check_duplicates(ctx: Context) -> None:
    """Claude Code runs an identical handler (type + command) once; near-identical commands,
    or copies in plugins and skills, run once per copy."""
    seen: dict[tuple[str, str], Handler] = {}
    for handler in ctx.handlers:
        if not handler.loaded or handler.command is None or handler.hookman:
            continue
        key = (handler.event, _normalised(handler.command))
        first = seen.get(key)
        if first is None:
            seen[key] = handler
            continue
        identical = first.command == handler.command
        in_settings = {first.source.kind, handler.source.kind} <= set(SETTINGS_KINDS)
        if identical and in_settings:
            continue
        if not _overlap(first, handler):
            continue
        ctx.add(
            Finding(
                code="duplicate-runs-twice",
                severity="warning",
                file=handler.source.path,
                event=handler.event,
                path=handler.path,
                message=(
                    f"this {handler.event} hook also runs from {first.source.path} ({first.path}); "
                    "Claude Code only merges identical commands in settings files, so it runs "
                    "twice, in parallel."
                ),
                fix="keep one copy (or write both commands identically in settings files).",
            )
        )


def _overlap(first: Handler, second: Handler) -> bool:
    if first.matches_all or second.matches_all or first.matches is None or second.matches is None:
        return True
    return bool(set(first.matches) & set(second.matches))
