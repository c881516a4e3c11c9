"""The one writer of the unified diffs hookman shows for a file it edits (settings.local.json,
.codex/hooks.json, hookman.toml): `install --dry-run` prints them, `--json` carries them."""

from __future__ import annotations

import difflib
from pathlib import Path

_NO_NEWLINE = "\n\\ No newline at end of file\n"


def file_diff(
    path: Path, before: str | None, after: str | None, *, mark_no_newline: bool = True
) -> str:
    """A unified diff of `path` going from `before` (None: no file) to `after` (None: left
    as it is); empty when nothing changes. A last line without a newline gets diff's
    "\\ No newline at end of file" mark, or (not `mark_no_newline`) just a newline, as
    `install` has always shown hookman.toml's changes."""
    if after is None or after == before:
        return ""
    diff_lines = difflib.unified_diff(
        lines_with_ends(before or ""),
        lines_with_ends(after),
        fromfile="/dev/null" if before is None else str(path),
        tofile=str(path),
    )
    end = _NO_NEWLINE if mark_no_newline else "\n"
    return "".join(line if line.endswith("\n") else line + end for line in diff_lines)


def lines_with_ends(text: str) -> list[str]:
    """`text` split after each "\n" (and only there), for diffs of files whose strings may
    hold other line-breaking characters."""
    lines = text.split("\n")
    with_ends = [line + "\n" for line in lines[:-1]]
    return [*with_ends, lines[-1]] if lines[-1] else with_ends
