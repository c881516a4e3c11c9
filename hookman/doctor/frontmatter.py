"""The YAML frontmatter of skill, agent and command files: just enough YAML (block mappings,
block sequences, plain/quoted scalars, JSON-style flow values) to read their `hooks:` block.
Anything else raises FrontmatterError, which doctor reports instead of guessing."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = "---"
_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*|\"[^\"]*\"|'[^']*')\s*:(?:\s+|$)(.*)$")


class FrontmatterError(ValueError):
    pass


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """(frontmatter text or None, body)."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != _FENCE:
        return None, text
    for index in range(1, len(lines)):
        if lines[index].strip() == _FENCE:
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1 :])
    return None, text


def parse_yaml_subset(text: str) -> Any:
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise FrontmatterError(f"line {number}: tab indentation")
        rows.append((len(raw) - len(raw.lstrip(" ")), _strip_comment(stripped), number))
    if not rows:
        return {}
    value, index = _block(rows, 0, rows[0][0])
    if index != len(rows):
        raise FrontmatterError(f"line {rows[index][2]}: unexpected indentation")
    return value


def _strip_comment(text: str) -> str:
    if text.startswith(("'", '"')):
        return text
    return re.sub(r"\s+#.*$", "", text)


def _block(rows: list[tuple[int, str, int]], index: int, indent: int) -> tuple[Any, int]:
    if rows[index][1].startswith("- ") or rows[index][1] == "-":
        return _sequence(rows, index, indent)
    return _mapping(rows, index, indent)


def _sequence(rows: list[tuple[int, str, int]], index: int, indent: int) -> tuple[Any, int]:
    items: list[Any] = []
    while index < len(rows) and rows[index][0] == indent and rows[index][1].startswith("-"):
        _, text, number = rows[index]
        rest = text[1:].strip()
        if not rest:
            if index + 1 >= len(rows) or rows[index + 1][0] <= indent:
                items.append(None)
                index += 1
                continue
            value, index = _block(rows, index + 1, rows[index + 1][0])
            items.append(value)
            continue
        if _KEY.match(rest):
            # "- key: value" opens a mapping whose keys sit at indent + 2 (or deeper).
            inner = indent + len(text) - len(text[1:].lstrip())
            rows[index] = (inner, rest, number)
            value, index = _mapping(rows, index, inner)
            items.append(value)
            continue
        items.append(_scalar(rest, number))
        index += 1
    return items, index


def _mapping(rows: list[tuple[int, str, int]], index: int, indent: int) -> tuple[Any, int]:
    result: dict[str, Any] = {}
    while index < len(rows) and rows[index][0] == indent:
        _, text, number = rows[index]
        match = _KEY.match(text)
        if match is None:
            raise FrontmatterError(f"line {number}: expected `key: value`")
        key = match.group(1).strip("\"'")
        rest = match.group(2).strip()
        index += 1
        if rest:
            result[key] = _scalar(rest, number)
        elif index < len(rows) and rows[index][0] > indent:
            result[key], index = _block(rows, index, rows[index][0])
        elif index < len(rows) and rows[index][0] == indent and rows[index][1].startswith("-"):
            result[key], index = _sequence(rows, index, indent)
        else:
            result[key] = None
    return result, index


def _scalar(text: str, number: int) -> Any:
    if text.startswith(("[", "{")):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise FrontmatterError(f"line {number}: flow value hookman cannot read") from None
    if text.startswith('"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise FrontmatterError(f"line {number}: bad double-quoted string") from None
    if text.startswith("'"):
        if not text.endswith("'") or len(text) < 2:
            raise FrontmatterError(f"line {number}: bad single-quoted string")
        return text[1:-1].replace("''", "'")
    if text in ("true", "True"):
        return True
    if text in ("false", "False"):
        return False
    if text in ("null", "~"):
        return None
    if text in ("|", ">", "|-", ">-"):
        raise FrontmatterError(f"line {number}: block scalars are not read")
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*", text):
        return float(text)
    return text
