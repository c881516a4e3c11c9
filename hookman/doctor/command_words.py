"""What a command handler runs: its program, and the script file it hands to an interpreter
or a package runner (`bash x.sh`, `/bin/bash x.sh`, `/usr/bin/env python3 x.py`, `uv run
x.py`, `npx tsx x.ts`, `bunx tsx x.ts`), in shell form (`command` through a shell) or exec
form (`command` + `args`, no shell)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from hookman.doctor.facts import script_text_facts
from hookman.doctor.model import Handler
from hookman.project.settings_entries import shell_words

INTERPRETERS = frozenset(
    {
        "bash",
        "sh",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "node",
        "nodejs",
        "ruby",
        "perl",
        "php",
        "lua",
        "tsx",
        "ts-node",
    }
)
_PYTHON = re.compile(r"python[0-9.]*")
# Runners that take a subcommand or a package first, then maybe a script or an interpreter.
PACKAGE_RUNNERS = frozenset({"uv", "uvx", "npx", "bunx", "bun", "deno", "pnpm", "pnpx", "yarn"})
RUNNER_SUBCOMMANDS = frozenset({"run", "x", "exec", "dlx"})
ENV_PROGRAM = "env"
SHELL_BUILTINS = frozenset(
    {
        "cd",
        "echo",
        "printf",
        "test",
        "[",
        "[[",
        "true",
        "false",
        "exit",
        "trap",
        "unset",
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
INLINE_CODE_FLAGS = frozenset({"-c", "-m", "-e", "--eval", "-p", "--print", "-"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_SHELL_OPERATORS = frozenset({"|", "||", "&&", ";", "&"})
_NOT_QUICK = frozenset("\\'`#;&|<>()")


class Invocation(NamedTuple):
    program: str  # as written
    program_has_path: bool  # written with a `/`: checked as a file, not looked up on PATH
    runs_script_itself: bool  # the program is the hook's own script (it must be executable)
    script: str | None  # the script file an interpreter or runner is given, as written
    exec_form: bool  # `args` present: no shell, only ${CLAUDE_...} placeholders are filled in


def is_interpreter(name: str) -> bool:
    return name in INTERPRETERS or _PYTHON.fullmatch(name) is not None


def invocation(handler: Handler) -> Invocation | None:
    """What the handler runs, or None when doctor cannot tell (no words, a builtin first)."""
    command = handler.command
    if command is None:
        return None
    args = handler.raw.get("args")
    if isinstance(args, list):
        return _invocation(command, tuple(arg for arg in args if isinstance(arg, str)))
    return _invocation(command, None)


@cache
def _invocation(command: str, args: tuple[str, ...] | None) -> Invocation | None:
    exec_form = args is not None
    words = [command, *args] if args is not None else _first_words(command)
    if not words or not words[0] or words[0] in SHELL_BUILTINS:
        return None
    program = words[0]
    name = Path(program).name
    script = _script_of(name, words[1:])
    runs_itself = not is_interpreter(name) and name not in PACKAGE_RUNNERS and name != ENV_PROGRAM
    return Invocation(program, "/" in program, runs_itself, script, exec_form)


def _first_words(command: str) -> list[str]:
    """The words of the command's first simple command, leading assignments dropped."""
    quick = _double_quoted_words(command)
    if quick is not None:
        words = quick
    else:
        try:
            words = list(shell_words(command, comments=True))
        except ValueError:
            return []
    while words and _ASSIGNMENT.fullmatch(words[0]):
        words = words[1:]
    cut = next((i for i, word in enumerate(words) if word in _SHELL_OPERATORS), len(words))
    return words[:cut]


def _double_quoted_words(command: str) -> list[str] | None:
    """The words of a command whose only shell syntax is double quotes around text without
    `\\`, `` ` `` or `"` inside (`"$CLAUDE_PROJECT_DIR"/x.sh --fix`), as shlex splits it but
    without its cost; None for anything else."""
    if not command.isascii() or not command.isprintable() or _NOT_QUICK.intersection(command):
        return None
    if command.count('"') % 2:
        return None
    words: list[str] = []
    for part in command.split():
        if part.count('"') % 2:
            return None  # a quoted stretch holds a space: leave it to shlex
        words.append(part.replace('"', ""))
    return words


def _script_of(name: str, rest: list[str]) -> str | None:
    if name == ENV_PROGRAM:
        while rest and (rest[0].startswith("-") or _ASSIGNMENT.fullmatch(rest[0])):
            rest = rest[1:]
        return _script_of(Path(rest[0]).name, rest[1:]) if rest else None
    if is_interpreter(name):
        return _interpreter_script(rest)
    if name in PACKAGE_RUNNERS:
        return _runner_script(rest)
    return None


def _interpreter_script(rest: list[str]) -> str | None:
    """`bash x.sh`, `python3 -u hooks/x.py`: the first word that is not a flag, if it looks
    like a file; None for inline code (`-c`, `-m`, `-e`)."""
    for word in rest:
        if word in INLINE_CODE_FLAGS:
            return None
        if word.startswith("-"):
            continue
        return word if looks_like_script(word, any_suffix=True) else None
    return None


def _runner_script(rest: list[str]) -> str | None:
    """`uv run [--with pkg] x.py`, `npx -y tsx x.ts`, `bun run x.ts`: the script, the
    script of an interpreter it starts, or None when it runs a package (`npx prettier`)."""
    takes_value = False
    for word in rest:
        if word in RUNNER_SUBCOMMANDS:
            continue
        if word.startswith("-"):
            takes_value = "=" not in word
            continue
        if looks_like_script(word):
            return word
        if is_interpreter(Path(word).name):
            index = rest.index(word)
            return _interpreter_script(rest[index + 1 :])
        if takes_value:
            takes_value = False
            continue
        return None
    return None


def looks_like_script(word: str, *, any_suffix: bool = False) -> bool:
    """A path (`/` in it, not a scoped package `@scope/pkg`) or a file with a script suffix
    (any suffix after an interpreter, whose first argument is its script)."""
    if word.startswith("@") or "://" in word:
        return False
    suffix = Path(word).suffix
    if any_suffix:
        return "/" in word or bool(suffix)
    return "/" in word or suffix in script_text_facts()["script_suffixes"]
