"""Findings about foreign command handlers: a program that is missing, not executable or
reached by a relative path, timeouts that look like milliseconds, SessionEnd timeouts above
the shared budget's cap, and copies of one hook that really run twice."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from hookman.catalog import event_catalog
from hookman.doctor import fs
from hookman.doctor.context import Context
from hookman.doctor.facts import doctor_facts
from hookman.doctor.model import Finding, Handler, Severity
from hookman.doctor.sources import SETTINGS_KINDS
from hookman.project.settings_entries import shell_words

SESSION_END = "SessionEnd"
PROJECT_DIR_VARS = ("$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}")
HOME_VARS = ("$HOME", "${HOME}")
PLUGIN_ROOT_VARS = ("$CLAUDE_PLUGIN_ROOT", "${CLAUDE_PLUGIN_ROOT}")
INTERPRETERS = frozenset(
    {
        "bash",
        "sh",
        "zsh",
        "dash",
        "python",
        "python3",
        "node",
        "ruby",
        "perl",
        "deno",
        "bun",
        "uv",
        "npx",
    }
)
SHELL_BUILTINS = frozenset(
    {
        "cd",
        "echo",
        "printf",
        "test",
        "[",
        "true",
        "false",
        "exit",
        "export",
        "set",
        ":",
        "source",
        ".",
        "exec",
        "eval",
        "read",
        "if",
        "for",
        "while",
        "case",
        "{",
        "(",
        "!",
    }
)
INLINE_CODE_FLAGS = frozenset({"-c", "-m", "-e", "--eval", "-p", "--print", "run", "exec", "x"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_SHELL_OPERATORS = frozenset({"|", "||", "&&", ";", "&"})


def check_commands(ctx: Context) -> None:
    for handler in ctx.handlers:
        if handler.type != "command" or handler.command is None or handler.hookman:
            continue
        _check_program(ctx, handler)
    for handler in ctx.handlers:
        _check_timeout(ctx, handler)
    _check_duplicates(ctx)


def _shell_words(command: str) -> tuple[str, ...] | None:
    try:
        return shell_words(command, comments=True)
    except ValueError:
        return None


def _first_words(command: str) -> list[str]:
    split = _shell_words(command)
    if split is None:
        return []
    words = list(split)
    while words and _ASSIGNMENT.fullmatch(words[0]):
        words = words[1:]
    cut = next((i for i, word in enumerate(words) if word in _SHELL_OPERATORS), len(words))
    return words[:cut]


def _expand(word: str, ctx: Context, handler: Handler) -> str:
    """The path text with the variables Claude Code sets (and `~`) filled in; a word that
    still holds `$` afterwards depends on something doctor cannot know."""
    for variable in PROJECT_DIR_VARS:
        word = word.replace(variable, str(ctx.project_dir))
    root = ctx.sources.plugin_roots.get(handler.source.path)
    if root is not None:
        for variable in PLUGIN_ROOT_VARS:
            word = word.replace(variable, root)
    for variable in HOME_VARS:
        word = word.replace(variable, str(Path.home()))
    if word.startswith("~/"):
        word = str(Path.home()) + word[1:]
    return word


def _check_program(ctx: Context, handler: Handler) -> None:
    words = _first_words(handler.command or "")
    if not words:
        return
    program = words[0]
    if program in SHELL_BUILTINS:
        return
    if "/" not in program:
        if any(mark in program for mark in ("$", "`", "*", "?")):
            return  # expanded by the shell at run time
        if shutil.which(program) is None:
            _add(
                ctx,
                handler,
                "command-not-found",
                "error",
                f"the program {program!r} is not on PATH here, so the hook fails every time.",
                f"install {program!r}, or use its absolute path in the command.",
            )
            return
        script = _script_argument(words)
        if script is not None:
            _check_path(ctx, handler, script, executable=False)
        return
    _check_path(ctx, handler, program, executable=True)


def _script_argument(words: list[str]) -> str | None:
    """The script file an interpreter command runs (`bash x.sh`, `python3 hooks/x.py`), or
    None when it runs inline code (`-c`, `-m`, `-e`) or no file-like argument."""
    if Path(words[0]).name not in INTERPRETERS:
        return None
    for word in words[1:]:
        if word in INLINE_CODE_FLAGS:
            return None
        if word.startswith("-"):
            continue
        looks_like_file = "/" in word or bool(Path(word).suffix)
        return word if looks_like_file else None
    return None


def _check_path(ctx: Context, handler: Handler, word: str, *, executable: bool) -> None:
    expanded = _expand(word, ctx, handler)
    if "$" in expanded:
        return
    path = Path(expanded)
    if not path.is_absolute():
        _add(
            ctx,
            handler,
            "command-relative-path",
            "warning",
            f"the command reaches {word!r} by a relative path: it breaks as soon as the agent "
            "changes directory.",
            f'write it as "$CLAUDE_PROJECT_DIR"/{word.removeprefix("./")}.',
        )
        path = ctx.project_dir / path
    present = fs.exists(path)
    if present is None:
        return  # not allowed to look: say nothing rather than guess
    if not present:
        _add(
            ctx,
            handler,
            "command-not-found",
            "error",
            f"{word!r} does not exist ({path}), so the hook fails every time.",
            "create the script, or fix the path in the command.",
        )
    elif executable and not fs.executable(path):
        _add(
            ctx,
            handler,
            "command-not-executable",
            "error",
            f"{word!r} is not executable, so the hook fails every time.",
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


def _check_timeout(ctx: Context, handler: Handler) -> None:
    if handler.timeout is None:
        return
    if handler.timeout >= doctor_facts()["timeout_looks_like_ms_from_s"]:
        seconds = handler.timeout / 1000
        _add(
            ctx,
            handler,
            "timeout-looks-like-ms",
            "warning",
            f"timeout {handler.timeout:g} is in seconds (about {handler.timeout / 60:.0f} "
            "minutes); it looks meant as milliseconds.",
            f'write "timeout": {seconds:g}.',
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
