"""`.claude/hookman.toml`: the project's hooks in dispatch order (format in ARCHITECTURE.md).

Edited with tomlkit so the user's comments, key order and formatting survive; a key is only
rewritten when its value changes, so an edit that changes nothing changes no byte. Commands
that only read it use `read_project_config` (tomllib, much cheaper to import), which gives a
ProjectConfigView, a type with no edits; `load_project_config` gives the ProjectConfigDocument
that edits it. A file that does not parse or validate is refused with a clear error and never
rewritten.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from hookman.atomic_file import write_text_if_changed
from hookman.bridge.protocol import CODEX_AGENT
from hookman.catalog.agent_catalog import OTHER_AGENTS
from hookman.errors import HookmanError
from hookman.project.location import config_path
from hookman.toml_data import (
    NESTED_TOO_DEEP,
    keep_parse,
    kept_parse,
    parse_toml_or_none,
    toml_problem,
)

if TYPE_CHECKING:
    import tomlkit
    from tomlkit.items import AoT, Array, InlineTable, Table

# tomlkit is imported where hookman edits (it costs most of a bare Python start); reading
# commands use read_project_config (tomllib).

SourceKind = Literal["path", "registry", "template", "repo"]
SOURCE_KINDS: tuple[SourceKind, ...] = ("path", "registry", "template", "repo")
# `rev` (and optionally `hook`, the name the repository gives it) go with `repo` only.
REPO_KEYS = ("rev", "hook")
HOOK_KEYS = frozenset(
    {"name", *SOURCE_KINDS, *REPO_KEYS, "enabled", "events", "tools", "timeout", "async"}
)
_HEX = frozenset("0123456789abcdef")


def is_full_sha(text: str) -> bool:
    """Whether `text` is a full 40-character commit SHA (lowercase hex)."""
    return len(text) == 40 and set(text) <= _HEX


NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
NEW_FILE_HEADER = (
    "# hookman: this project's Claude Code hooks, in dispatch order.\n"
    "# `hookman install` / `hookman remove` edit this file and keep your comments and layout.\n"
)
# A hook that may need more than a day is a mistake, and Claude Code's timers are not made
# for more (its own default is 600 s): a larger `timeout` is refused, not written.
MAX_HOOK_TIMEOUT_S = 86400
PARSED_CACHE_NAME = "hookman-toml.json"
_CONFIG_DISPLAY = ".claude/hookman.toml"
BOM = "\ufeff"
_EDIT_HINT = f"fix {_CONFIG_DISPLAY} by hand; hookman left it untouched."


# The agents hookman writes hooks for (docs/agents.md) and the default when hookman.toml
# names none.
KNOWN_AGENTS = ("claude", CODEX_AGENT, *OTHER_AGENTS)
DEFAULT_AGENTS = ("claude",)


class HookSource(NamedTuple):  # not a dataclass: those compile methods at every start
    """Where a hook's module comes from: a project-relative path, a registry or template
    name, or a hook repository (`value` its URL, `rev` a tag or full SHA, `hook` the name
    the repository's hookman-hooks.toml gives it when it differs from the hook's name)."""

    kind: SourceKind
    value: str
    rev: str = ""
    hook: str = ""

    def describe(self) -> str:
        if self.kind == "repo":
            return f"{self.value} at {self.rev}"
        return f"{self.kind} {self.value}" if self.kind != "path" else self.value

    def offered_name(self, hook_name: str) -> str:
        """The name the repository offers this hook under."""
        return self.hook or hook_name


class NewHook(NamedTuple):
    """A hook for `put_hooks`: its name, source, events and the tools each event is
    narrowed to (what `put_hook` takes)."""

    name: str
    source: HookSource
    events: Sequence[str]
    tools: Mapping[str, Sequence[str]]


@dataclass(frozen=True)
class HookSpec:
    """One `[[hooks]]` table."""

    name: str
    source: HookSource
    enabled: bool = True
    events: tuple[str, ...] = ()
    tools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    timeout: int | float | None = None
    # Observe-only: its own `async: true` entry, which Claude Code does not wait for.
    is_async: bool = False


def is_valid_hook_name(name: str) -> bool:
    return NAME_PATTERN.fullmatch(name) is not None


def check_project_relative(path_text: str) -> str | None:
    """Why `path_text` cannot be a hook path in hookman.toml, or None when it can."""
    if "\x00" in path_text:
        return "contains a NUL character"
    if path_text.startswith("~") or PurePosixPath(path_text).is_absolute():
        return "is an absolute path"
    if PureWindowsPath(path_text).is_absolute() or PureWindowsPath(path_text).drive:
        return "is an absolute path"
    if ".." in PurePosixPath(path_text.replace("\\", "/")).parts:
        return "leaves the project directory"
    return None


class TextLayout(NamedTuple):  # not a dataclass: those compile methods at every start
    """What a TOML file's bytes carry beyond its text: a UTF-8 byte-order mark and CRLF line
    endings (editors on Windows write both). Kept, so an edit changes only what it edits."""

    bom: bool = False
    crlf: bool = False

    def apply(self, text: str) -> str:
        if self.crlf:
            text = text.replace("\n", "\r\n")
        return BOM + text if self.bom else text


PLAIN_LAYOUT = TextLayout()


def split_layout(raw_text: str) -> tuple[str, TextLayout]:
    """The text to parse (no BOM; LF endings when every line ended in CRLF) and its layout.
    A file mixing LF and CRLF is parsed as it is, so each line keeps its own ending."""
    bom = raw_text.startswith(BOM)
    text = raw_text[len(BOM) :] if bom else raw_text
    crlf = "\r\n" in text and "\n" not in text.replace("\r\n", "")
    if crlf:
        text = text.replace("\r\n", "\n")
    return text, TextLayout(bom, crlf)


class ProjectConfigView:
    """hookman.toml as read (`read_project_config`, tomllib or the JSON kept by install):
    its hooks and settings, validated. It has no edits: a command that changes the file
    loads a ProjectConfigDocument (`load_project_config`), which is also a view."""

    def __init__(
        self,
        path: Path,
        document: Mapping[str, Any],
        original_text: str | None,
        layout: TextLayout = PLAIN_LAYOUT,
    ):
        self.path = path
        self._document: Any = document
        self._original_text = original_text
        self._hooks = _validate(document)
        self.layout = layout

    @property
    def exists(self) -> bool:
        return self._original_text is not None

    @property
    def claude_version(self) -> str | None:
        value = self._document.get("claude_version")
        return None if value is None else str(value)

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents hookman writes entries for (`agents = [...]`; default Claude Code only)."""
        value = self._document.get("agents")
        return DEFAULT_AGENTS if value is None else tuple(str(item) for item in value)

    @property
    def hooks(self) -> list[HookSpec]:
        return list(self._hooks)

    def find(self, name: str) -> HookSpec | None:
        return next((hook for hook in self._hooks if hook.name == name), None)

    def original_text(self) -> str | None:
        """The file's text as parsed, without BOM or CRLF (None when it did not exist)."""
        return self._original_text

    def text(self) -> str:
        """The file's text after the edits made (a view: as read)."""
        return self._original_text or ""

    def changed(self) -> bool:
        return self.text() != (self._original_text or "")


class ProjectConfigDocument(ProjectConfigView):
    """hookman.toml parsed with tomlkit (`load_project_config`) and the edits hookman makes
    to it, each keeping the file's comments and layout; `save_project_config` writes it."""

    _document: tomlkit.TOMLDocument

    def __init__(
        self,
        path: Path,
        document: tomlkit.TOMLDocument,
        original_text: str | None,
        layout: TextLayout = PLAIN_LAYOUT,
    ):
        super().__init__(path, document, original_text, layout)

    def text(self) -> str:
        if not self.exists and not self._hooks:
            return ""
        import tomlkit

        return tomlkit.dumps(self._document)

    def add_agent(self, agent: str) -> None:
        """Record that hookman writes `agent`'s entries too (`install --agent`): keeps the
        file's layout; `claude` stays listed unless the file already left it out."""
        if agent in self.agents:
            return
        from tomlkit.items import AoT, Table

        value = _string_array([*self.agents, agent])
        document = self._document
        if "agents" in document:
            document["agents"] = value
            return
        # A top-level key goes before the first table (tomlkit appends it after the last
        # one, which is no valid TOML): after the leading comments and keys.
        body = document.body
        first = next((i for i, (_, item) in enumerate(body) if isinstance(item, Table | AoT)), None)
        if first is None:
            document["agents"] = value
        else:
            document._insert_at(first, "agents", value)

    def put_hook(
        self,
        name: str,
        source: HookSource,
        events: Sequence[str],
        tools: Mapping[str, Sequence[str]],
        *,
        run_async: bool | None = None,
    ) -> None:
        """Add a hook at the end of the dispatch order, or update the events and tools of
        the hook with that name in place (its position and options are kept).

        `run_async` True/False sets the hook's `async` option; None keeps it as it is
        (a new hook is then blocking). False removes the key rather than writing the default.
        """
        tables = self._hook_tables()
        index = next((i for i, hook in enumerate(self._hooks) if hook.name == name), None)
        if index is None:
            table = _new_hook_table(name, source, events, tools, inline=_is_inline(tables))
            if _ends_with_hook_tables(self._document):
                self._document = _with_table_appended(self._document, table)
            else:
                tables.append(table)
            table = self._hook_tables()[-1]
        else:
            table = tables[index]
            _set_record(table, events, tools)
        if run_async is not None:
            _set_async(table, run_async)
        self._hooks = _validate(self._document)

    def put_hooks(
        self,
        hooks: Sequence[NewHook],
        *,
        run_async: bool | None = None,
    ) -> None:
        """`put_hook` for each of `hooks` in turn, with the same bytes as a result, in one
        pass: the hooks listed already are updated in place, each run of new ones appended
        to the text at once (one parse, not one per hook), and the file validated once.
        Installing hundreds of hooks in one command costs about what each costs alone."""
        names = [hook.name for hook in hooks]
        if not names:
            return
        if len(set(names)) != len(names):  # a name twice: the second edits the first
            for hook in hooks:
                self.put_hook(*hook, run_async=run_async)
            return
        listed = {hook.name: index for index, hook in enumerate(self._hooks)}
        new: list[NewHook] = []
        for hook in hooks:
            index = listed.get(hook.name)
            if index is None:
                new.append(hook)
                continue
            self._append(new, run_async)  # in order: an edit can move the file's ending
            new = []
            table = self._hook_tables()[index]
            _set_record(table, hook.events, hook.tools)
            if run_async is not None:
                _set_async(table, run_async)
        self._append(new, run_async)
        self._hooks = _validate(self._document)

    def _append(self, hooks: Sequence[NewHook], run_async: bool | None) -> None:
        """New hooks at the end of the dispatch order, as `put_hook` adds each in turn
        (`self._hooks` is validated by the caller)."""
        if not hooks:
            return
        tables = self._hook_tables()
        if not _ends_with_hook_tables(self._document) or _is_inline(tables):
            for hook in hooks:
                tables.append(_new_hook_table(*hook, inline=_is_inline(tables)))
                if run_async is not None:
                    _set_async(self._hook_tables()[-1], run_async)
            return
        if run_async is not None:
            # `async` set after a parse goes before the file's ending (a ragged ending, e.g.
            # spaces, moves): the first hook as put_hook adds it, and the others find the
            # ending each would find; the next table's separator replaces a middle one's.
            self.put_hook(*hooks[0], run_async=run_async)
            hooks = hooks[1:]
        made = [_new_hook_table(*hook, inline=False) for hook in hooks]
        if not made:
            return
        if run_async is not None:
            for table in made[:-1]:
                _set_async(table, run_async)
        self._document = _with_tables_appended(self._document, made)
        if run_async is not None:
            _set_async(self._hook_tables()[-1], run_async)

    def set_subscriptions(
        self, records: Mapping[str, tuple[Sequence[str], Mapping[str, Sequence[str]]]]
    ) -> None:
        """Rewrite the `events` and `tools` of each listed hook named in `records` (name ->
        (events, tools)) in place, validating the file once: a project of hundreds of hooks
        whose code changed is one pass, not one per hook."""
        tables = self._hook_tables()
        for index, hook in enumerate(self._hooks):
            if hook.name in records:
                _set_record(tables[index], *records[hook.name])
        self._hooks = _validate(self._document)

    def set_enabled(self, name: str, enabled: bool) -> None:
        """Switch the hook `name` on or off in place (KeyError when it is not listed).
        Enabling a hook with no `enabled` key changes nothing: true is the default."""
        index = self._index(name)
        table = self._hook_tables()[index]
        if enabled and "enabled" not in table:
            return
        _set_if_changed(table, "enabled", enabled)
        self._hooks = _validate(self._document)

    def frozen_tag(self, name: str) -> str | None:
        """The tag of the `# frozen: TAG` comment after the hook's rev, if any."""
        index = next((i for i, hook in enumerate(self._hooks) if hook.name == name), None)
        table = None if index is None else self._hook_tables()[index]
        item = table.item("rev") if table is not None and "rev" in table else None
        return None if item is None else frozen_tag_of(item.trivia.comment)

    def set_rev(self, name: str, rev: str, *, frozen_tag: str | None = None) -> None:
        """Point the repo hook `name` at `rev`, in place. `frozen_tag` (a full SHA for `rev`)
        writes pre-commit's `# frozen: TAG` comment after it; without it a frozen comment
        goes. Any other comment on the line is kept."""
        import tomlkit

        index = self._index(name)
        table = self._hook_tables()[index]
        old = table.item("rev") if hasattr(table, "item") else None
        own = _comment_without_frozen(old.trivia.comment if old is not None else "")
        comment = "; ".join(
            part for part in (f"frozen: {frozen_tag}" if frozen_tag else "", own) if part
        )
        if (
            old is not None
            and old == rev
            and old.trivia.comment == (f"# {comment}" if comment else "")
        ):
            return
        new = tomlkit.string(rev)
        if old is not None:
            new.trivia.comment_ws = old.trivia.comment_ws or "  "
        if comment:
            new.trivia.comment_ws = new.trivia.comment_ws or "  "
            new.trivia.comment = f"# {comment}"
        table["rev"] = new
        if not comment:  # tomlkit keeps the replaced value's comment: take it off
            written = table.item("rev")
            written.trivia.comment = ""
            written.trivia.comment_ws = ""
        self._hooks = _validate(self._document)

    def remove_hook(self, name: str) -> None:
        """Take the hook `name` out, with the blank lines before it; the file keeps its own
        ending, so removing a hook `put_hook` added gives back the file's bytes before it."""
        import tomlkit

        index = self._index(name)
        ending = _trailing_space(tomlkit.dumps(self._document))
        tables = self._hook_tables()
        del tables[index]
        if not len(tables):
            del self._document["hooks"]
        text = tomlkit.dumps(self._document)
        trimmed = text.rstrip(_SPACE)
        if text != trimmed + ending:
            self._document = tomlkit.parse(trimmed + ending)
        self._hooks = _validate(self._document)

    def _index(self, name: str) -> int:
        """The position of the hook `name` in the file (KeyError when it is not listed)."""
        index = next((i for i, hook in enumerate(self._hooks) if hook.name == name), None)
        if index is None:
            raise KeyError(name)
        return index

    def _hook_tables(self) -> AoT | Array:
        import tomlkit

        if "hooks" not in self._document:
            if not self.exists and not self._document.body:
                for line in NEW_FILE_HEADER.splitlines():
                    self._document.add(tomlkit.comment(line.removeprefix("# ")))
            self._document.append("hooks", tomlkit.aot())
        return self._document["hooks"]  # type: ignore[return-value]


FROZEN_PREFIX = "frozen: "


def frozen_tag_of(comment: str) -> str | None:
    """The tag of a `# frozen: v1.2.0` comment (pre-commit's convention), else None."""
    text = comment.lstrip("#").strip()
    if not text.startswith(FROZEN_PREFIX):
        return None
    return text[len(FROZEN_PREFIX) :].split(";", 1)[0].strip() or None


def _comment_without_frozen(comment: str) -> str:
    text = comment.lstrip("#").strip()
    if text.startswith(FROZEN_PREFIX):
        _, _, text = text.partition(";")
    return text.strip()


def load_project_config(project_dir: Path) -> ProjectConfigDocument:
    """Read and validate `<project>/.claude/hookman.toml` (a missing file is an empty list)."""
    import tomlkit

    path = config_path(project_dir)
    raw_text = _read_config_text(path)
    if raw_text is None:
        return ProjectConfigDocument(path, tomlkit.document(), None)
    text, layout = split_layout(raw_text)
    return ProjectConfigDocument(path, parse_toml(text, _CONFIG_DISPLAY), text, layout)


def read_project_config(project_dir: Path) -> ProjectConfigView:
    """hookman.toml for commands that only read it (list, previews): parsed with tomllib;
    a file tomllib refuses goes through tomlkit, whose error (line and column) the user
    gets. A view: it has no edits (load_project_config gives the editable document).

    The file is read on every call; a text this process already parsed and validated gives
    the same view again (doctor's families each ask for it)."""
    path = config_path(project_dir)
    raw_text = _read_config_text(path)
    if raw_text is None:
        return ProjectConfigView(path, {}, None)
    key = (str(project_dir), raw_text)
    view = _VIEWS.get(key)
    if view is not None:
        return view
    text, layout = split_layout(raw_text)
    document = _parsed_values(project_dir, text)
    if document is None:  # tomlkit names the line and column of the syntax error
        document = parse_toml(text, _CONFIG_DISPLAY)
    view = ProjectConfigView(path, document, text, layout)
    _remember(_VIEWS, key, view)
    return view


def read_config_values(project_dir: Path) -> dict[str, Any] | None:
    """hookman.toml's values as parsed, not validated (a bad hook table does not hide a good
    `claude_version`); None when the file is missing, unreadable, not UTF-8 text or not
    valid TOML. Without a TOML parser while install's kept parse holds this text."""
    try:
        raw_text = _read_config_text(config_path(project_dir))
    except HookmanError:
        return None
    if raw_text is None:
        return None
    return _parsed_values(project_dir, split_layout(raw_text)[0])


# This process's parses, by project and text (a few: a long-lived process, the test suite,
# reads many projects). The values are shared: callers read them, never change them.
_VIEWS: dict[tuple[str, str], ProjectConfigView] = {}
_VALUES: dict[tuple[str, str], dict[str, Any] | None] = {}
_KEPT_PER_PROCESS = 8


def _parsed_values(project_dir: Path, text: str) -> dict[str, Any] | None:
    """`text` (hookman.toml's, without BOM) parsed: from install's kept parse when it holds
    this text, else with tomllib; None when it is not valid TOML."""
    key = (str(project_dir), text)
    if key in _VALUES:
        return _VALUES[key]
    document = kept_parse(_parsed_cache_path(project_dir), text)
    if document is None:
        document = parse_toml_or_none(text)
    _remember(_VALUES, key, document)
    return document


def _remember(kept: dict[Any, Any], key: Any, value: Any) -> None:
    if len(kept) >= _KEPT_PER_PROCESS:
        del kept[next(iter(kept))]
    kept[key] = value


def remember_parsed_config(project_dir: Path) -> None:
    """Keep hookman.toml's text and its parsed values as JSON in the project's state dir
    (called after every write of the project's settings), so a command that only reads an
    unchanged hookman.toml needs no TOML parser: importing one costs more than the rest of
    reading. Values JSON cannot hold exactly (dates, NaN) are not kept."""
    try:
        text = split_layout(_read_config_text(config_path(project_dir)) or "")[0]
    except HookmanError:
        return
    document = parse_toml_or_none(text)
    cache = _parsed_cache_path(project_dir)
    if document is not None and cache is not None:
        keep_parse(cache, text, document)


def _parsed_cache_path(project_dir: Path) -> Path | None:
    """The parse cache, only in a state directory no other user can write (they could make
    hookman read another configuration than hookman.toml's); else None: no cache."""
    from hookman import paths
    from hookman.bridge.private_dir import private_dir_problem

    state_dir = paths.project_state_dir(project_dir)
    if private_dir_problem(str(state_dir)) is not None:
        return None
    return state_dir / PARSED_CACHE_NAME


def _read_config_text(path: Path) -> str | None:
    from hookman.bridge.state_file import NotRegularFile, read_regular

    try:
        return read_regular(str(path), follow=True).decode("utf-8")  # a FIFO never stalls it
    except FileNotFoundError:
        return None
    except NotRegularFile:
        raise HookmanError(
            f"{_CONFIG_DISPLAY} is not a regular file.",
            f"replace it with the project's hookman.toml (`git checkout -- {_CONFIG_DISPLAY}`), "
            "or remove it.",
        ) from None
    except UnicodeDecodeError:
        raise HookmanError(f"{_CONFIG_DISPLAY} is not UTF-8 text.", _EDIT_HINT) from None
    except OSError as error:
        raise HookmanError(
            f"cannot read {_CONFIG_DISPLAY}: {error.strerror or error}.",
            "check the file's permissions.",
        ) from None


def parse_toml(text: str, display_name: str) -> tomlkit.TOMLDocument:
    """Parse TOML for editing; a syntax error becomes a HookmanError with line and column."""
    import tomlkit
    import tomlkit.exceptions

    fix = f"fix {display_name} by hand; hookman left it untouched."
    # tomllib (tomli on 3.10) decides what is TOML, for every reader: the runner's deny and
    # prompt gate read with it, and say its words; tomlkit (TOML 1.1 in places) is the editor.
    reason = toml_problem(text)
    if reason is not None:
        raise HookmanError(f"{display_name} is not valid TOML: {reason}.", fix)
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as error:
        where = f"line {error.line}, column {error.col + 1}"
        raise HookmanError(
            f"{display_name} is not valid TOML: {str(error).split(' at line ')[0]} ({where}).",
            fix,
        ) from None
    except tomlkit.exceptions.TOMLKitError as error:
        raise HookmanError(f"{display_name} is not valid TOML: {error}.", fix) from None
    except RecursionError:
        raise HookmanError(f"{display_name} is not valid TOML: {NESTED_TOO_DEEP}.", fix) from None


def save_project_config(config: ProjectConfigView) -> bool:
    """Write the file if its text changed (a view never has); returns whether it was
    written."""
    if not config.changed():
        return False
    try:
        config.path.parent.mkdir(parents=True, exist_ok=True)
        return write_text_if_changed(config.path, config.layout.apply(config.text()))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write {_CONFIG_DISPLAY}: {error.strerror or error}; "
            "the file is unchanged.",
            "check that .claude/ and the file are writable, then run the command again.",
        ) from error


def _new_hook_table(
    name: str,
    source: HookSource,
    events: Sequence[str],
    tools: Mapping[str, Sequence[str]],
    *,
    inline: bool,
) -> Table | InlineTable:
    import tomlkit
    from tomlkit.items import Table

    table: Table | InlineTable = tomlkit.inline_table() if inline else tomlkit.table()
    if isinstance(table, Table):
        table.trivia.indent = "\n"  # one blank line between [[hooks]] tables
    table["name"] = name
    table[source.kind] = source.value
    if source.kind == "repo":
        table["rev"] = source.rev
        if source.hook and source.hook != name:
            table["hook"] = source.hook
    table["enabled"] = True
    table["events"] = _string_array(events)
    if tools:
        table["tools"] = _tools_table(tools)
    return table


# What tomlkit leaves as whitespace between and after tables.
_SPACE = " \t\r\n"


def _trailing_space(text: str) -> str:
    return text[len(text.rstrip(_SPACE)) :]


def _ends_with_hook_tables(document: tomlkit.TOMLDocument) -> bool:
    """Whether the file ends with its [[hooks]] tables (a new one then goes at its end)."""
    from tomlkit.items import AoT

    body = document.body
    return bool(body) and body[-1][0] is not None and isinstance(body[-1][1], AoT)


def _with_table_appended(document: tomlkit.TOMLDocument, table: Table) -> tomlkit.TOMLDocument:
    """The document with `table` as its last [[hooks]] table, as text: one blank line before
    it, and after it the whitespace the file ended with (tomlkit's own append adds a newline
    to the table before, which a later removal leaves behind: one more blank line per cycle).
    """
    return _with_tables_appended(document, [table])


def _with_tables_appended(
    document: tomlkit.TOMLDocument, tables: Sequence[Table | InlineTable]
) -> tomlkit.TOMLDocument:
    """The document with `tables` as its last [[hooks]] tables, as `_with_table_appended`
    leaves it after each in turn (one blank line between tables), parsed once."""
    import tomlkit

    if not len(document["hooks"]):  # made empty by _hook_tables: written with the tables
        del document["hooks"]
    text = tomlkit.dumps(document)
    trimmed = text.rstrip(_SPACE)
    table_texts = []
    for table in tables:
        table.trivia.indent = ""
        added = tomlkit.document()
        added.append("hooks", tomlkit.aot())
        added["hooks"].append(table)
        table_texts.append(tomlkit.dumps(added).strip(_SPACE))
    body = "\n\n".join(table_texts)
    separator = "\n\n" if trimmed else ""
    return tomlkit.parse(trimmed + separator + body + _trailing_space(text))


def _string_array(strings: Sequence[str]) -> Array:
    # Parsed from text: tomlkit's append re-indexes the whole array on every item, which
    # made a hook registering thousands of events or tool names take seconds to install.
    import tomlkit

    items = ", ".join(tomlkit.string(text).as_string() for text in strings)
    return tomlkit.parse(f"value = [{items}]")["value"]  # type: ignore[return-value]


def _tools_table(tools: Mapping[str, Sequence[str]]) -> InlineTable:
    import tomlkit

    table = tomlkit.inline_table()
    for event, names in tools.items():
        table[event] = _string_array(names)
    return table


def _is_inline(tables: AoT | Array) -> bool:
    from tomlkit.items import Array

    return isinstance(tables, Array)


def _set_if_changed(table: Table | InlineTable, key: str, value: Any) -> None:
    current = table.get(key)
    if current is not None and _plain(current) == value:
        return
    if isinstance(value, dict):
        table[key] = _tools_table(value)
    elif isinstance(value, list):
        table[key] = _string_array(value)
    else:
        table[key] = value


def _set_record(
    table: Table | InlineTable, events: Sequence[str], tools: Mapping[str, Sequence[str]]
) -> None:
    """A hook table's `events` and `tools`, each rewritten only when its value changes."""
    _set_if_changed(table, "events", list(events))
    if tools:
        _set_if_changed(table, "tools", {event: list(names) for event, names in tools.items()})
    elif "tools" in table:
        del table["tools"]


def _set_async(table: Table | InlineTable, run_async: bool) -> None:
    if run_async:
        _set_if_changed(table, "async", True)
    elif "async" in table:
        del table["async"]


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def _validate_agents(value: Any) -> None:
    known = ", ".join(f'"{agent}"' for agent in KNOWN_AGENTS)
    if value is None:
        return
    if not _is_str_list(value) or not value:
        raise HookmanError(
            f"`agents` in {_CONFIG_DISPLAY} must be a non-empty array of agent names "
            f'({known}), such as ["claude", "codex"].',
            _EDIT_HINT,
        )
    for agent in value:
        if agent not in KNOWN_AGENTS:
            raise HookmanError(
                f"`agents` in {_CONFIG_DISPLAY} names {agent!r}, which is not an agent hookman "
                f"writes hooks for ({known}).",
                _EDIT_HINT,
            )
    if len(set(value)) != len(value):
        raise HookmanError(f"`agents` in {_CONFIG_DISPLAY} names an agent twice.", _EDIT_HINT)


def _validate(document: Mapping[str, Any]) -> list[HookSpec]:
    _validate_agents(_plain(document.get("agents")))
    claude_version = document.get("claude_version")
    if claude_version is not None and not isinstance(claude_version, str):
        raise HookmanError(
            f'`claude_version` in {_CONFIG_DISPLAY} must be a string such as "2.1.328".',
            _EDIT_HINT,
        )
    raw_hooks = document.get("hooks")
    if raw_hooks is None:
        return []
    if not isinstance(raw_hooks, list):
        raise HookmanError(
            f"`hooks` in {_CONFIG_DISPLAY} must be an array of tables ([[hooks]]).", _EDIT_HINT
        )
    specs: list[HookSpec] = []
    seen: set[str] = set()
    for position, raw in enumerate(raw_hooks, start=1):
        spec = _validate_hook(_plain(raw), position)
        if spec.name in seen:
            raise HookmanError(
                f"{_CONFIG_DISPLAY} lists the hook {spec.name!r} twice.",
                "hook names must be unique; rename or remove one of them.",
            )
        seen.add(spec.name)
        specs.append(spec)
    return specs


def _validate_hook(raw: Any, position: int) -> HookSpec:
    if not isinstance(raw, dict):
        raise HookmanError(
            f"entry {position} of `hooks` in {_CONFIG_DISPLAY} is not a table.", _EDIT_HINT
        )
    name = raw.get("name")
    if not isinstance(name, str) or not is_valid_hook_name(name):
        raise HookmanError(
            f"hook {position} in {_CONFIG_DISPLAY} needs a `name` made of letters, digits, "
            "'_', '.' or '-'.",
            _EDIT_HINT,
        )

    def refuse(problem: str) -> HookmanError:
        return HookmanError(f"hook {name!r} in {_CONFIG_DISPLAY}: {problem}.", _EDIT_HINT)

    unknown = sorted(set(raw) - HOOK_KEYS)
    if unknown:
        raise refuse(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(HOOK_KEYS))})")
    given = [kind for kind in SOURCE_KINDS if kind in raw]
    if len(given) != 1:
        raise refuse("give exactly one of `path`, `registry`, `template` or `repo`")
    kind = given[0]
    value = raw[kind]
    if not isinstance(value, str) or not value.strip():
        raise refuse(f"`{kind}` must be a non-empty string")
    rev, offered = _repo_keys(raw, kind, refuse)
    if kind == "path":
        problem = check_project_relative(value)
        if problem is not None:
            raise HookmanError(
                f"hook {name!r} in {_CONFIG_DISPLAY}: its path {value!r} {problem}.",
                "use a path relative to the project, or `hookman registry add PATH` and "
                '`registry = "NAME"` for a hook that lives elsewhere.',
            )
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise refuse("`enabled` must be true or false")
    events = raw.get("events", [])
    if not _is_str_list(events):
        raise refuse("`events` must be a list of event names")
    tools = raw.get("tools", {})
    if not isinstance(tools, dict) or not all(
        _is_str_list(names) and all(names) for names in tools.values()
    ):
        raise refuse('`tools` must map events to lists of tool names: { tool_call = ["Bash"] }')
    emptied = [event for event, names in tools.items() if not names]
    if emptied:
        raise refuse(
            f"`tools` gives {emptied[0]!r} an empty list, which names no tool; name the tools "
            f'({{ {emptied[0]} = ["Bash"] }}) or leave {emptied[0]!r} out of `tools` for every tool'
        )
    timeout = raw.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not math.isfinite(timeout)
        or not 0 < timeout <= MAX_HOOK_TIMEOUT_S
    ):
        raise refuse(
            f"`timeout` must be a number of seconds above 0 and at most {MAX_HOOK_TIMEOUT_S} "
            f"(one day), not {_shown(timeout)}"
        )
    is_async = raw.get("async", False)
    if not isinstance(is_async, bool):
        raise refuse("`async` must be true or false")
    return HookSpec(
        name=name,
        source=HookSource(kind, value, rev, offered),
        enabled=enabled,
        events=tuple(events),
        tools={event: tuple(names) for event, names in tools.items()},
        timeout=timeout,
        is_async=is_async,
    )


def _repo_keys(raw: dict[str, Any], kind: str, refuse: Any) -> tuple[str, str]:
    """`rev` and `hook` of a `repo` hook ("" for other kinds, which may not have them)."""
    if kind != "repo":
        extra = [key for key in REPO_KEYS if key in raw]
        if extra:
            raise refuse(f"`{extra[0]}` goes only with `repo`")
        return "", ""
    rev = raw.get("rev")
    if not isinstance(rev, str) or not rev.strip() or rev.startswith("-") or "\x00" in rev:
        raise refuse('a `repo` hook needs `rev`, a tag or a full commit SHA, e.g. rev = "v1.2.0"')
    offered = raw.get("hook", "")
    if not isinstance(offered, str) or (offered and not is_valid_hook_name(offered)):
        raise refuse("`hook` must be the name the repository's hookman-hooks.toml gives the hook")
    if str(raw["repo"]).startswith("-"):
        raise refuse("`repo` cannot start with '-'")
    return rev, offered


def _shown(value: Any) -> str:
    """A value from the file on one short line, for a message (JSON notation, ASCII)."""
    try:
        text = json.dumps(value, ensure_ascii=True, default=repr)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
