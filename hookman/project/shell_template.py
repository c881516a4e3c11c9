"""Shell text kept as `.sh` files in the package (the launcher, the settings command), filled
by `render`, so the shell can be read, linted and parsed as shell.

A template's `##` lines are its own notes, dropped before it is filled. A placeholder is
`@name@` (lower-case letters and `_`; the shell's `$`, `"$@"` and braces stay as they are):
alone on its line it stands for whole lines (its value is empty or ends with a newline),
inside a line for words. Every placeholder must get a value and every value must have a
placeholder; values go in as they are, never read for placeholders themselves.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path

_NOTE = re.compile(r"^##.*\n", re.MULTILINE)
_PLACEHOLDER = re.compile(r"^@([a-z_]+)@\n|@([a-z_]+)@", re.MULTILINE)


@functools.cache
def template_text(path: Path) -> str:
    """The template at `path` without its `##` notes."""
    with open(path, encoding="utf-8", newline="") as handle:
        return _NOTE.sub("", handle.read())


def render(path: Path, values: Mapping[str, object]) -> str:
    """The template at `path` with `values` in place of its placeholders."""
    used: set[str] = set()

    def fill(match: re.Match[str]) -> str:
        lines, words = match.groups()
        name = lines or words
        if name not in values:
            raise KeyError(f"{path.name} has @{name}@ and no value for it")
        used.add(name)
        value = str(values[name])
        if lines and value and not value.endswith("\n"):
            raise ValueError(f"@{name}@ in {path.name} stands for lines: {value!r}")
        return value

    text = _PLACEHOLDER.sub(fill, template_text(path))
    unused = sorted(set(values) - used)
    if unused:
        raise ValueError(f"{path.name} has no placeholder for {', '.join(unused)}")
    return text


def render_words(path: Path, values: Mapping[str, object]) -> str:
    """A one-line template's words (its line without the newline)."""
    return render(path, values).removesuffix("\n")
