"""The one module that reads and writes `<project>/.claude/settings.local.json`.

Policies (ARCHITECTURE.md, "The settings entry"):
- A file hookman cannot parse (bad JSON, NaN/Infinity, not UTF-8, a non-object top level) is
  never rewritten: HookmanError naming the file, line and column. An empty or whitespace-only
  file counts as `{}` (nothing in it can be lost).
- Writing keeps the user's style: indentation (spaces of any width, tabs, line breaks with no
  indentation at all (`json.dumps(..., indent=0)`), or one compact
  line), key order, line endings (LF/CRLF), a UTF-8 BOM, non-ASCII characters raw or
  `\\u`-escaped, and the presence or absence of a final newline. Number literals are kept
  exactly as written (`1.0`, `1e400`, `-0`), because Python's float cannot round-trip them.
- When an edit changes nothing, not a byte is written (same inode, same mtime).
- A file with a key twice in one object is refused before a write, since rewriting it would
  silently keep only the last value.
- Symlinks: hookman modifies no file but the project's local settings (and its own), so a
  settings.local.json that is a symlink is written through only when its final target is a
  regular file named `settings.local.json` that lies in this project's `.claude/` or in a
  directory not named `.claude` (a dotfiles repo). Anything else, e.g. a link to
  settings.json, to the user's or managed settings, or to another project's
  `.claude/settings.local.json`, is refused before any write, as are a dangling symlink and a
  path that is not a regular file. The target is replaced atomically and the link stays.
- A new file is created with mode 0o644 filtered by the umask, like any file the user makes:
  Claude Code reads it as the user and it holds no secret hookman put there. An existing
  file keeps its mode.

Callers hold `project_lock` around `update_settings`.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from hookman.atomic_file import atomic_write_text
from hookman.errors import HookmanError
from hookman.project.file_diff import file_diff
from hookman.project.location import LOCAL_SETTINGS_NAME

BOM = "\ufeff"
_NON_FINITE_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)', re.DOTALL)
_NON_ASCII_ESCAPE = re.compile(r"\\u(?:007[fF]|00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])")
_COMPACT_ITEM_SEPARATOR = re.compile(r'[\]}"\d el],\s')
_TIGHT_ITEM_SEPARATOR = re.compile(r'[\]}"\d el],\S')
_COMPACT_KEY_SEPARATOR = re.compile(r'":\s')
_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


class SettingsChange(NamedTuple):  # not a dataclass: those compile methods at every start
    """What `update_settings` did (or, with dry_run, would do) to one file."""

    path: Path
    before: str | None
    after: str | None

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before

    def diff(self) -> str:
        """A unified diff of the change; empty when nothing changes."""
        return file_diff(self.path, self.before, self.after)


class JsonFloat(float):
    """A JSON number that is not a plain integer, remembering its literal text."""

    literal: str

    def __new__(cls, literal: str) -> JsonFloat:
        number = super().__new__(cls, literal)
        number.literal = literal
        return number


class JsonStyle(NamedTuple):  # not a dataclass: those compile methods at every start
    """How a settings file is laid out, so a rewrite looks like the user's own file."""

    indent: str | None = "  "
    item_separator: str = ","
    key_separator: str = ": "
    final_newline: bool = True
    line_ending: str = "\n"
    bom: bool = False
    ensure_ascii: bool = False


DEFAULT_STYLE = JsonStyle()


class _ParsedSettings(NamedTuple):  # not a dataclass: those compile methods at every start
    """settings.local.json as read: its text, parsed object and JSON style."""

    text: str | None
    settings: dict[str, Any]
    style: JsonStyle
    duplicate_keys: tuple[str, ...]
    body: str = ""  # the JSON text without BOM, with LF line endings


def read_settings(path: Path) -> dict[str, Any]:
    """The parsed settings object; `{}` when the file does not exist. Never modifies it."""
    return _load(path).settings


def update_settings(
    path: Path, edit: Callable[[dict[str, Any]], None], *, dry_run: bool = False
) -> SettingsChange:
    """Re-read `path`, apply `edit` to the parsed object in place, and write the result back
    atomically in the file's own style, unless it serialises to the same JSON as before."""
    check_write_target(path)
    parsed = _load(path)
    settings = parsed.settings
    unchanged_json = _canonical(settings)
    edit(settings)
    edited_json = _canonical(settings)
    if edited_json == unchanged_json:
        return SettingsChange(path, parsed.text, parsed.text)
    if parsed.text is None and not settings:
        return SettingsChange(path, None, None)
    if parsed.duplicate_keys:
        raise HookmanError(
            f"{path} has the key {parsed.duplicate_keys[0]!r} twice in one object, so "
            "hookman will not rewrite it (only the last value would survive).",
            "remove the duplicate key by hand, then run the command again.",
        )
    laid_out = serialize_json(settings, parsed.style, original=parsed.body)
    after = _apply_style_to_text(laid_out, parsed.style)
    if not dry_run:
        _ensure_parent_dir(path)
        _write(path, after)
    return SettingsChange(path, parsed.text, after)


def serialize_json(
    value: Any, style: JsonStyle = DEFAULT_STYLE, *, original: str | None = None
) -> str:
    """JSON text for `value` in `style` (without the final newline, BOM or CRLF).

    With `original` (the JSON text `value` was parsed from, before an edit), every part of
    `value` that the edit left unchanged is copied from `original` verbatim, so only the
    containers on the path to a change are laid out again.
    """
    source = _scan_spans(original) if original is not None and original.strip() else None
    parts: list[str] = []
    _serialize_into(parts, value, style, 0, source)
    return "".join(parts)


def detect_style(text: str) -> JsonStyle:
    """Guess the layout conventions of an existing JSON text."""
    bom = text.startswith(BOM)
    body = text[len(BOM) :] if bom else text
    line_ending = "\r\n" if "\r\n" in body else "\n"
    final_newline = body.endswith("\n")
    stripped = body.strip()
    ensure_ascii = stripped.isascii() and bool(_NON_ASCII_ESCAPE.search(stripped))
    indent = _detect_indent(stripped)
    if indent is None and "\n" in stripped:
        indent = ""  # line breaks but no indentation: `json.dumps(..., indent=0)`
    if indent is None and len(stripped) > 2:
        # Separators are read outside strings only: `","` inside a value is no separator.
        structure = _STRING_LITERAL.sub('""', stripped)
        key_separator = ": " if _COMPACT_KEY_SEPARATOR.search(structure) else ":"
        # With one member there is no item separator to see; spaced keys suggest spaced items.
        item_separator = _detect_item_separator(
            structure, default=", " if key_separator == ": " else ","
        )
        return JsonStyle(
            None, item_separator, key_separator, final_newline, line_ending, bom, ensure_ascii
        )
    return JsonStyle(
        indent if indent is not None else "  ",
        ",",
        ": ",
        final_newline,
        line_ending,
        bom,
        ensure_ascii,
    )


def _detect_item_separator(compact_text: str, *, default: str) -> str:
    spaced = _COMPACT_ITEM_SEPARATOR.search(compact_text)
    tight = _TIGHT_ITEM_SEPARATOR.search(compact_text)
    if spaced and tight:
        return ", " if spaced.start() < tight.start() else ","
    if spaced or tight:
        return ", " if spaced else ","
    return default


def _detect_indent(text: str) -> str | None:
    # Split on "\n" only: str.splitlines() also breaks at U+2028, U+0085, \x0c, ... which
    # JSON allows raw inside strings, and would find an "indent" in a one-line file.
    for line in text.split("\n")[1:]:
        leading = line[: len(line) - len(line.lstrip(" \t"))]
        if leading:
            return "\t" if leading.startswith("\t") else leading
    return None


def _load(path: Path) -> _ParsedSettings:
    text = _read_text(path)
    if text is None:
        return _ParsedSettings(None, {}, JsonStyle(), ())
    style = detect_style(text)
    body = text[len(BOM) :] if style.bom else text
    if style.line_ending != "\n":
        body = body.replace(style.line_ending, "\n")
    if not body.strip():
        # Nothing to imitate in an empty file: use the default layout.
        return _ParsedSettings(text, {}, JsonStyle(bom=style.bom), ())
    duplicates: list[str] = []
    settings = _parse_json(path, body, duplicates)
    if not isinstance(settings, dict):
        raise HookmanError(
            f"{path} must hold a JSON object at the top level, but it holds {json_kind(settings)}.",
            "fix the file by hand (hookman never rewrites a file it cannot understand), "
            "or move it aside and run the command again.",
        )
    return _ParsedSettings(text, settings, style, tuple(duplicates), body)


def check_write_target(path: Path) -> None:
    """Refuse to write through a symlink whose target is not a file of this project's kind
    (see the module docstring): a settings.local.json link must end at a file of that name
    (a .codex/hooks.json link at a hooks.json) in this project's directory or in a directory
    not named like it; anything else would put hookman's entries into a file that hookman
    must never modify, such as the committed settings.json."""
    if not path.is_symlink() or not path.exists():
        return  # a dangling link is refused when it is read, with its own message
    target = Path(os.path.realpath(path))
    in_this_project = target.parent == Path(os.path.realpath(path.parent))
    name, directory = path.name, path.parent.name
    if target.name == name and (in_this_project or target.parent.name != directory):
        return
    raise HookmanError(
        f"{path} is a symlink to {target}, which is not a {_kind(name)} file of this "
        f"project, so hookman will not write through it (it modifies no settings file but "
        f"{directory}/{name}).",
        f"replace the link with a plain file (`rm {path}`, then `hookman install`), or point "
        f"it at a file named {name} outside any other {directory} directory.",
    )


def _read_text(path: Path) -> str | None:
    try:
        if path.is_symlink() and not path.exists():
            raise HookmanError(
                f"{path} is a symlink to {os.readlink(path)!r}, which does not exist.",
                "point the symlink at an existing file, or remove it.",
            )
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _unreadable(path, error) from error
    if not stat.S_ISREG(info.st_mode):
        raise HookmanError(
            f"{path} is not a regular file.",
            "replace it with a JSON file (or a symlink to one), or remove it.",
        )
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _unreadable(path, error) from error
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _line_and_column(data[: error.start].decode("utf-8", "replace"))
        raise HookmanError(
            f"{path} is not valid UTF-8 (line {line}, column {column}).",
            "save the file as UTF-8, then run the command again.",
        ) from error


def _unreadable(path: Path, error: OSError) -> HookmanError:
    return HookmanError(
        f"hookman cannot read {path}: {error.strerror or error}.",
        "check the file's permissions (and its directory's), then run the command again.",
    )


def _parse_json(path: Path, body: str, duplicates: list[str]) -> Any:
    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                duplicates.append(key)
            result[key] = value
        return result

    def reject_constant(name: str) -> Any:
        raise _NonFiniteNumber(name)

    try:
        return json.loads(
            body,
            object_pairs_hook=pairs_to_dict,
            parse_float=JsonFloat,
            parse_int=_parse_int,
            parse_constant=reject_constant,
        )
    except json.JSONDecodeError as error:
        raise HookmanError(
            f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}.",
            "fix the file by hand (hookman never rewrites a file it cannot parse), "
            "or move it aside and run the command again.",
        ) from error
    except _NonFiniteNumber as error:
        line, column = _non_finite_position(body)
        raise HookmanError(
            f"{path} is not valid JSON: {error.args[0]} is not a JSON number "
            f"(line {line}, column {column}).",
            "replace it with a number or a string by hand, then run the command again.",
        ) from error
    except RecursionError as error:
        raise HookmanError(
            f"{path} is nested too deeply for hookman to read.",
            "simplify the file by hand, then run the command again.",
        ) from error


class _NonFiniteNumber(ValueError):
    pass


def _parse_int(literal: str) -> int | float:
    # "-0" is a distinct literal, and huge integers exceed Python's int-parsing limit; both
    # keep their text through JsonFloat.
    if literal == "-0":
        return JsonFloat(literal)
    try:
        return int(literal)
    except ValueError:
        return JsonFloat(literal)


def _non_finite_position(body: str) -> tuple[int, int]:
    for match in _NON_FINITE_OR_STRING.finditer(body):
        if match.group(1):
            return _line_and_column(body[: match.start(1)])
    return (1, 1)


def _line_and_column(prefix: str) -> tuple[int, int]:
    line = prefix.count("\n") + 1
    column = len(prefix) - (prefix.rfind("\n") + 1) + 1
    return line, column


def json_kind(value: Any) -> str:
    """How a JSON value is named in messages: 'an object', 'an array', ..."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


class _SourceSpan:
    """Where one JSON value sits in the original text. Its members are found only when
    asked for: an edit visits just the containers on the path to a change, so the rest of
    a large file is never walked in Python."""

    def __init__(self, text: str, start: int, end: int, value: Any) -> None:
        self.text = text
        self.start = start
        self.end = end
        self._value = value
        self._canonical: str | None = None
        self._members: dict[str, _SourceSpan] | list[_SourceSpan] | None = None
        self._scanned = False

    @property
    def source_text(self) -> str:
        return self.text[self.start : self.end]

    def canonical(self) -> str:
        if self._canonical is None:
            self._canonical = _canonical(self._value)
        return self._canonical

    @property
    def members(self) -> dict[str, _SourceSpan] | list[_SourceSpan] | None:
        if not self._scanned:
            self._members = _scan_members(self.text, self.start)
            self._scanned = True
        return self._members


def _canonical(value: Any) -> str:
    """A compact text that is equal for two values exactly when they are equal as JSON
    (key order included). Used only to compare values, so it runs in C: a Python-level
    walk made a megabyte settings file take seconds. Numbers are compared by value (a
    JsonFloat prints as its float), which is enough, since edits never touch numbers."""
    return json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), allow_nan=True, check_circular=False
    )


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_VALUE_DECODER = json.JSONDecoder(parse_float=JsonFloat, parse_int=_parse_int)


def _scan_spans(body: str) -> _SourceSpan | None:
    """The span of the value in `body` (already known to be valid JSON); None if too deep."""
    try:
        return _span_at(body, _skip_whitespace(body, 0))
    except RecursionError:
        return None


def _skip_whitespace(text: str, index: int) -> int:
    match = _WHITESPACE.match(text, index)
    return match.end() if match else index


def _span_at(text: str, start: int) -> _SourceSpan:
    value, end = _VALUE_DECODER.raw_decode(text, start)
    return _SourceSpan(text, start, end, value)


def _scan_members(text: str, start: int) -> dict[str, _SourceSpan] | list[_SourceSpan] | None:
    """The spans of the direct members of the container starting at `start`."""
    opener = text[start]
    if opener == "{":
        members: dict[str, _SourceSpan] = {}
        index = _skip_whitespace(text, start + 1)
        while text[index] != "}":
            key, index = json.decoder.scanstring(text, index + 1)
            index = _skip_whitespace(text, _skip_whitespace(text, index) + 1)
            members[key] = _span_at(text, index)
            index = _skip_whitespace(text, members[key].end)
            if text[index] == ",":
                index = _skip_whitespace(text, index + 1)
        return members
    if opener == "[":
        items: list[_SourceSpan] = []
        index = _skip_whitespace(text, start + 1)
        while text[index] != "]":
            items.append(_span_at(text, index))
            index = _skip_whitespace(text, items[-1].end)
            if text[index] == ",":
                index = _skip_whitespace(text, index + 1)
        return items
    return None


def _serialize_into(
    parts: list[str], value: Any, style: JsonStyle, depth: int, source: _SourceSpan | None
) -> None:
    if source is not None and _canonical(value) == source.canonical():
        parts.append(source.source_text)
    elif isinstance(value, dict):
        members = source.members if source is not None else None
        _serialize_container(
            parts,
            "{",
            "}",
            [
                (
                    _string(key, style) + style.key_separator,
                    item,
                    members.get(key) if isinstance(members, dict) else None,
                )
                for key, item in value.items()
            ],
            style,
            depth,
        )
    elif isinstance(value, list | tuple):
        items = list(value)
        members = source.members if source is not None else None
        item_sources = _match_item_sources(items, members if isinstance(members, list) else [])
        paired = zip(items, item_sources, strict=True)
        _serialize_container(
            parts,
            "[",
            "]",
            [("", item, item_source) for item, item_source in paired],
            style,
            depth,
        )
    elif isinstance(value, str):
        parts.append(_string(value, style))
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif value is None:
        parts.append("null")
    elif isinstance(value, JsonFloat):
        parts.append(value.literal)
    elif isinstance(value, int | float):
        parts.append(json.dumps(value, allow_nan=False))
    else:
        raise TypeError(f"cannot write a {type(value).__name__} into a settings file")


def _match_item_sources(items: list[Any], sources: list[_SourceSpan]) -> list[_SourceSpan | None]:
    """Pair each new array item with the original item it came from, if any.

    Same length: pair by position (an item edited in place keeps its unchanged parts).
    Otherwise items were added or removed: pair equal items, in order.
    """
    if len(items) == len(sources):
        return list(sources)
    matched: list[_SourceSpan | None] = []
    next_source = 0
    for item in items:
        canonical = _canonical(item)
        found = next(
            (
                index
                for index in range(next_source, len(sources))
                if sources[index].canonical() == canonical
            ),
            None,
        )
        if found is None:
            matched.append(None)
        else:
            matched.append(sources[found])
            next_source = found + 1
    return matched


def _serialize_container(
    parts: list[str],
    opener: str,
    closer: str,
    items: list[tuple[str, Any, _SourceSpan | None]],
    style: JsonStyle,
    depth: int,
) -> None:
    if not items:
        parts.append(opener + closer)
        return
    parts.append(opener)
    if style.indent is None:
        separator = style.item_separator
        closing = ""
    else:
        separator = style.item_separator + "\n" + style.indent * (depth + 1)
        parts.append("\n" + style.indent * (depth + 1))
        closing = "\n" + style.indent * depth
    for index, (prefix, item, source) in enumerate(items):
        if index:
            parts.append(separator)
        parts.append(prefix)
        _serialize_into(parts, item, style, depth + 1, source)
    parts.append(closing + closer)


def _string(value: str, style: JsonStyle) -> str:
    return json.dumps(value, ensure_ascii=style.ensure_ascii)


def _apply_style_to_text(json_text: str, style: JsonStyle) -> str:
    text = json_text + ("\n" if style.final_newline else "")
    if style.line_ending != "\n":
        text = text.replace("\n", style.line_ending)
    return (BOM if style.bom else "") + text


def _ensure_parent_dir(path: Path) -> None:
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError as error:
        raise HookmanError(
            f"hookman cannot create the directory {path.parent}: {error.strerror or error}.",
            "check that the project directory exists and is writable.",
        ) from error


def keep_from_others(path: Path) -> None:
    """Take group and other access away from a settings file holding the warm hook server's
    tokens (a token opens its project's hooks to whoever reads it; docs/serve.md)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, mode & ~0o077)
    except OSError as error:
        raise HookmanError(
            f"hookman cannot make {path} private to you: {error.strerror or error}.",
            f"run `chmod go-rwx {path}`; it holds the warm hook server's tokens.",
        ) from error


def _write(path: Path, text: str) -> None:
    try:
        atomic_write_text(path, text)
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write {path}: {error.strerror or error}; the file is unchanged.",
            "check that the file and its directory are writable, then run the command again.",
        ) from error


def _kind(name: str) -> str:
    return "local settings" if name == LOCAL_SETTINGS_NAME else name
