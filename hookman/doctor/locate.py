"""The line of a JSON location (`hooks.PreToolUse[0].matcher`) in a file's text, so a finding
can say file:line. Only the containers on the path are scanned."""

from __future__ import annotations

import json
import re

_STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]')
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def path_steps(path: str) -> list[str | int] | None:
    """`hooks.A[0]["b c"]` -> ["hooks", "A", 0, "b c"]; None when it is not such a path."""
    text = "." + path
    steps: list[str | int] = []
    position = 0
    for match in _STEP.finditer(text):
        if match.start() != position:
            return None
        name, quoted, index = match.groups()
        if index is not None:
            steps.append(int(index))
        elif name is not None:
            steps.append(name)
        else:
            try:
                steps.append(json.loads(f'"{quoted}"'))
            except ValueError:
                return None
        position = match.end()
    return steps if position == len(text) else None


def json_line(text: str, path: str) -> int | None:
    """The 1-based line where the value (for an object key: the key) at `path` starts."""
    steps = path_steps(path)
    if steps is None:
        return None
    try:
        offset = _skip(text, 1 if text.startswith("\ufeff") else 0)
        for step in steps:
            offset = _member(text, offset, step)
            if offset is None:
                return None
    except (ValueError, IndexError, RecursionError):
        return None
    return text.count("\n", 0, offset) + 1


def _skip(text: str, index: int) -> int:
    return _WHITESPACE.match(text, index).end()  # type: ignore[union-attr]


def _member(text: str, start: int, step: str | int) -> int | None:
    """Offset of member `step` of the container at `start` (a key's offset for objects)."""
    if text[start] == "{" and isinstance(step, str):
        index = _skip(text, start + 1)
        while text[index] != "}":
            key, after = json.decoder.scanstring(text, index + 1)
            if key == step:
                return index
            value = _skip(text, _skip(text, after) + 1)
            _, end = _DECODER.raw_decode(text, value)
            index = _skip(text, end)
            if text[index] == ",":
                index = _skip(text, index + 1)
        return None
    if text[start] == '"' and isinstance(step, str):
        # `start` is a key: step onto its value first.
        _, after = json.decoder.scanstring(text, start + 1)
        return _member(text, _skip(text, _skip(text, after) + 1), step)
    if text[start] == "[" and isinstance(step, int):
        index = _skip(text, start + 1)
        for _ in range(step):
            if text[index] == "]":
                return None
            _, end = _DECODER.raw_decode(text, index)
            index = _skip(text, end)
            if text[index] == ",":
                index = _skip(text, index + 1)
        return None if text[index] == "]" else index
    if text[start] == '"' and isinstance(step, int):
        _, after = json.decoder.scanstring(text, start + 1)
        return _member(text, _skip(text, _skip(text, after) + 1), step)
    return None
