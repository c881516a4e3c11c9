"""Windows-only syntax in a command the client runs with a POSIX shell (Claude Code:
`/bin/sh -c`; `"shell": "bash"` on Windows): `%VAR%` (the shell leaves it as text) and
backslash paths (the shell reads each backslash as an escape: `.claude\\hooks\\x.sh` becomes
`.claudehooksx.sh`)."""

from __future__ import annotations

import re
import sys

from hookman.doctor.facts import script_text_facts
from hookman.doctor.model import Handler

POWERSHELL = "powershell"
BASH = "bash"
# %NAME% with a name of three or more capitals, digits or _ (`date +%Y%m%d` is not one).
_PERCENT_VARIABLE = re.compile(r"%([A-Z][A-Z0-9_]*[A-Z0-9])%")
_DRIVE_PATH = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]:\\[^\s\\]")
_BACKSLASH_SEGMENT = re.compile(r"[A-Za-z0-9_.~-]\\[A-Za-z0-9_.-]")


def runs_in_posix_shell(handler: Handler) -> bool:
    """bash on POSIX; on Windows only when the entry asks for bash (else PowerShell may run
    it, where this syntax works)."""
    shell = handler.raw.get("shell")
    if shell == POWERSHELL:
        return False
    return sys.platform != "win32" or shell == BASH


def windows_syntax(handler: Handler) -> str | None:
    """The Windows-only piece of the handler's command (as written), or None."""
    if handler.type != "command" or handler.command is None or handler.hookman:
        return None
    if not runs_in_posix_shell(handler):
        return None
    args = handler.raw.get("args")
    words = (
        [handler.command, *(a for a in args if isinstance(a, str))]
        if isinstance(args, list)
        else [handler.command]
    )
    for text in words:
        found = _PERCENT_VARIABLE.search(text)
        if found is not None:
            return found.group(0)
        found = _DRIVE_PATH.search(text)
        if found is not None:
            return _word_at(text, found.start())
        for word in text.split():
            if _BACKSLASH_SEGMENT.search(word) and _is_windows_path(word):
                return word
    return None


def _is_windows_path(word: str) -> bool:
    """A word with backslashes that names a file: it starts with `.\\` or `..\\`, runs through
    `.claude\\`, or ends with a script suffix or `.exe`/`.bat`/`.cmd`/`.ps1` (`printf 'a\\n'`
    is none of these)."""
    bare = word.strip("\"'")
    if bare.startswith((".\\", "..\\")) or ".claude\\" in bare:
        return True
    suffixes = (*script_text_facts()["script_suffixes"], ".exe", ".bat", ".cmd", ".ps1")
    return bare.lower().endswith(tuple(suffixes))


def _word_at(text: str, start: int) -> str:
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end].strip("\"'")
