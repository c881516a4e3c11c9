"""Printing for the CLI: rich on a terminal, plain text when piped or NO_COLOR, JSON on --json.

Commands write rich markup (`[bold]name[/]`) and `escape()` what they did not write. Rich is
imported only for a terminal: piped output, `--json` and errors written to a pipe go
through `PlainConsole`, which drops the markup exactly as rich would and costs nothing to
import (rich.console alone costs about 3x a bare Python start).
"""

from __future__ import annotations

import json
import os
import re
import sys
from functools import cache
from typing import Any, Protocol, TextIO

# Rich's markup tag: optional backslashes, then `[` + a tag name starting with a-z # / @.
_TAG = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
_ESCAPABLE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
# The control characters rich drops from printed text (BEL, BS, VT, FF, CR).
_CONTROL_CODES = dict.fromkeys((7, 8, 11, 12, 13))


class Printer(Protocol):
    """What commands use of a console (rich.console.Console has the same members)."""

    @property
    def is_terminal(self) -> bool: ...

    def print(self, *objects: Any, **options: Any) -> None: ...


def escape(text: str) -> str:
    """Make `text` print literally inside markup (rich.markup.escape, without importing rich)."""

    def escape_backslashes(match: re.Match[str]) -> str:
        backslashes, tag = match.groups()
        return f"{backslashes}{backslashes}\\{tag}"

    text = _ESCAPABLE.sub(escape_backslashes, text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text


def markup_to_plain(markup: str) -> str:
    """The text rich prints for `markup`, without its styles (and without rich's `:emoji:`
    codes: a name such as `:x:` in a hook's output is printed as written)."""
    parts: list[str] = []
    position = 0
    for match in _TAG.finditer(markup):
        full_text, escapes, _tag = match.groups()
        start, end = match.span()
        if start > position:
            parts.append(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            parts.append("\\" * backslashes)
            if escaped:
                parts.append(full_text[len(escapes) :].replace("\\[", "["))
    parts.append(markup[position:].replace("\\[", "["))
    return "".join(parts)


def printable(text: str) -> str:
    """`text` without the control characters rich drops when it prints."""
    return text.translate(_CONTROL_CODES)


class PlainConsole:
    """Prints markup as plain text, never wrapping lines (what a pipe or a log wants)."""

    is_terminal = False

    def __init__(self, stream: TextIO | None = None, *, stderr: bool = False) -> None:
        self._stream = stream
        self._stderr = stderr

    @property
    def stream(self) -> TextIO:
        if self._stream is not None:
            return self._stream
        return sys.stderr if self._stderr else sys.stdout

    def print(
        self,
        *objects: Any,
        sep: str = " ",
        end: str = "\n",
        markup: bool | None = None,
        **_options: Any,
    ) -> None:
        text = sep.join(str(item) for item in objects)
        if markup is not False:
            text = markup_to_plain(text)
        self.stream.write(printable(text) + end)


def plain_output(stream: TextIO) -> bool:
    """Plain text unless `stream` is a terminal and NO_COLOR is not set."""
    if os.environ.get("NO_COLOR"):
        return True
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return True


@cache
def console() -> Printer:
    if plain_output(sys.stdout):
        return PlainConsole()
    from rich.console import Console

    return Console(highlight=True)


@cache
def error_console() -> Printer:
    if plain_output(sys.stderr):
        return PlainConsole(stderr=True)
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Machine-readable output: one JSON document on stdout, nothing else."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def print_error(message: str, hint: str | None = None) -> None:
    err = error_console()
    err.print(f"[bold red]hookman:[/] {escape(message)}", markup=True, highlight=False)
    if hint:
        err.print(f"  [dim]hint:[/] {escape(hint)}", markup=True, highlight=False)
