"""Reading TOML with the standard library only, and the parsed values kept as JSON.

`toml_parser()` is tomllib (the `tomli` backport on Python 3.10, which pyproject.toml
installs there), imported on first use: its import costs more than the rest of reading a
small file, and most commands never parse TOML. Every module that reads TOML for its values
goes through here; tomlkit (which keeps layout, for editing) is another matter.

A TOML text read again and again (hookman.toml, a repository's manifest) can be kept as
JSON beside it: `{"text": TEXT, "data": VALUES}`, checked against the text on every read, so
an unchanged file is read without a TOML parser. Values JSON cannot hold exactly (dates,
NaN) are not kept. The cache is written through atomic_file, whose sweeper removes the
temporary files a killed writer leaves.
"""

from __future__ import annotations

import json
import os
import stat
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pathlib is no import of the lean completion path, which reads TOML here
    from pathlib import Path


def toml_parser() -> Any:
    """The tomllib module (tomli on Python 3.10): `loads(str)`, `load(binary file)`, and
    `TOMLDecodeError`, a ValueError."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib


def parse_toml_or_none(text: str) -> dict[str, Any] | None:
    """`text` parsed (plain values, for reading), or None when it is not valid TOML (nested
    past NESTING_LIMIT included)."""
    return _read(text)[0]


def toml_problem(text: str) -> str | None:
    """Why `text` is not TOML as hookman reads it (tomllib's reason and place: "Invalid
    value (at line 11, column 11)"), or None when it is, or when no parser is importable
    (Python 3.10 under -I -S). One sentence for every reader: the commands, the runner's
    deny and the prompt gate."""
    try:
        return _read(text)[1]
    except ImportError:
        return None


# tomlkit, which edits the file, refuses values nested deeper than this, and tomllib's
# recursion gives out a few hundred levels further (where depends on the stack in use):
# every reader refuses past the same depth, in the same words.
NESTING_LIMIT = 100
NESTED_TOO_DEEP = f"values are nested more than {NESTING_LIMIT} levels deep"
_DIGITS_LIMIT = "Exceeds the limit"  # int('9' * 5000): ValueError, with advice for Python code


def _read(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """(the values, None), or (None, why `text` is not TOML as hookman reads it)."""
    try:
        data = toml_parser().loads(text)
    except RecursionError:
        return None, NESTED_TOO_DEEP
    except ValueError as error:
        said = str(error)
        if said.startswith(_DIGITS_LIMIT):
            return None, "an integer has more digits than Python reads (4300 at most)"
        return None, said
    if _too_deep(data):
        return None, NESTED_TOO_DEEP
    return data, None


def _too_deep(data: object) -> bool:
    """Whether tables and arrays in `data` nest deeper than NESTING_LIMIT (no recursion)."""
    pending = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > NESTING_LIMIT:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def read_toml_file(
    path: str | os.PathLike[str], *, encoding: str = "utf-8"
) -> dict[str, Any] | None:
    """The TOML file at `path` parsed, or None when it cannot be read, is not text in
    `encoding` or is not valid TOML."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO: no wait
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        os.set_blocking(descriptor, True)
        with open(descriptor, encoding=encoding, closefd=False) as handle:
            text = handle.read()
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    finally:
        os.close(descriptor)
    return parse_toml_or_none(text)


def kept_parse(cache: Path | None, text: str) -> dict[str, Any] | None:
    """The values kept in `cache` for exactly `text`, or None (no cache, another text, or a
    file that is not one of these caches)."""
    if cache is None:
        return None
    try:
        with open(cache, encoding="utf-8") as handle:
            kept = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(kept, dict) or kept.get("text") != text:
        return None
    data = kept.get("data")
    return data if isinstance(data, dict) else None


def keep_parse(cache: Path, text: str, data: dict[str, Any]) -> bool:
    """Keep `text` and its parsed `data` in `cache`; False when JSON cannot hold the values
    exactly or the file cannot be written (it is only a cache)."""
    try:
        encoded = json.dumps({"text": text, "data": data}, ensure_ascii=False)
        if json.loads(encoded)["data"] != data:  # a date, NaN: JSON would change it
            return False
    except (TypeError, ValueError, RecursionError):
        return False
    from hookman.atomic_file import write_text_if_changed

    try:
        write_text_if_changed(cache, encoded)
    except OSError:
        return False
    return True


def parse_toml_kept(text: str, cache: Path | None) -> dict[str, Any] | None:
    """`text` parsed, from `cache` when it holds this text, else with the parser (then kept
    in `cache`); None when it is not valid TOML."""
    data = kept_parse(cache, text)
    if data is None:
        data = parse_toml_or_none(text)
        if data is not None and cache is not None:
            keep_parse(cache, text, data)
    return data
