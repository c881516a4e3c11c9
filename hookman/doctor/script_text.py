"""The text doctor reads for a command handler: the command itself and the script it runs,
when that is a regular file doctor may read (capped in size; never a FIFO or a device), and
the patterns read in it (catalog data): blocking, exit 2, variables read and set."""

from __future__ import annotations

import os
import re
import stat
from functools import cache
from pathlib import Path
from typing import NamedTuple

from hookman.doctor.facts import script_text_facts


class HookText(NamedTuple):
    command: str
    script: Path | None  # the script whose text is included, when doctor could read it
    script_text: str

    @property
    def all(self) -> str:
        return f"{self.command}\n{self.script_text}"

    def where(self, pattern: re.Pattern[str]) -> str:
        """Where the pattern is found: in the command, or in the script (by name)."""
        if pattern.search(self.command):
            return "in the command"
        return f"in {self.script.name}" if self.script is not None else "in the command"


def read_script(path: Path) -> str | None:
    """The text of a regular file (decoded leniently, at most max_bytes), or None."""
    limit = int(script_text_facts()["max_bytes"])
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        data = os.read(descriptor, limit)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    if b"\0" in data[:4096]:
        return None  # a binary program: nothing to read
    return data.decode("utf-8", "replace")


def hook_text(command: str, script: Path | None, memo: dict[Path, str | None]) -> HookText:
    """The command and its script's text (`memo`: the scripts this run read already; many
    handlers run one script)."""
    text = None
    if script is not None:
        if script not in memo:
            memo[script] = read_script(script)
        text = memo[script]
    return HookText(command, script if text is not None else None, text or "")


@cache
def patterns(name: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in script_text_facts()[name])


def first_match(text: str, name: str) -> re.Pattern[str] | None:
    return next((pattern for pattern in patterns(name) if pattern.search(text)), None)


def has_guard_words(text: str) -> bool:
    folded = text.casefold()
    return any(word.casefold() in folded for word in script_text_facts()["guard_words"])


@cache
def _variable_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    quoted = rf"[\"']{re.escape(name)}[\"']"
    reads = re.compile(
        rf"\${re.escape(name)}\b|\$\{{{re.escape(name)}(?![A-Za-z0-9_])"
        rf"|environ(?:\.get)?\s*[\[(]\s*{quoted}"
        rf"|getenv\s*\(\s*{quoted}"
        rf"|process\.env\.{re.escape(name)}\b"
        rf"|process\.env\[\s*{quoted}\s*\]"
        rf"|env\.get\s*\(\s*{quoted}"
    )
    assigns = re.compile(
        rf"(?<![\w$]){re.escape(name)}=(?!=)"
        rf"|\bread\s+(?:-\w+\s+)*{re.escape(name)}\b"
        rf"|\$\{{{re.escape(name)}:?[=-](?!\}})"
        rf"|environ\[\s*{quoted}\s*\]\s*=(?!=)"
        rf"|process\.env\.{re.escape(name)}\s*=(?!=)"
    )
    return reads, assigns


def reads_unset_variable(text: str, name: str) -> bool:
    """Whether the text reads environment variable `name` without setting it (or giving a
    fallback, as in `${NAME:-...}`)."""
    if name not in text:
        return False
    reads, assigns = _variable_patterns(name)
    return reads.search(text) is not None and assigns.search(text) is None
