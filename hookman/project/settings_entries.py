"""hookman's entries in settings.local.json: the command string, the matcher, and the edit that
makes `settings["hooks"]` hold exactly hookman's entries while leaving everything else alone.

The command runs the project's launcher (hookman/project/launcher.py), which answers for a runner
that cannot. Claude Code runs it with `/bin/sh -c` (dash, bash as sh, busybox ash, mksh, ...),
Codex CLI with `/bin/bash -c`: plain POSIX sh. Its shell is command-guarded.sh and
command-async.sh beside this module. On a guarded event (launcher format 5):

    trap 'echo "hookman: <why>" >&2; exit 2' EXIT; [ -f L ] && sh L EVENT && false ||
        case $? in 73) trap - EXIT ;; 74) trap - EXIT; exit 2 ;; *) trap - EXIT;
        (unset hookman; : "${hookman?<why>}") || exit 2; exit 2 ;; esac             (one line)

The EXIT trap answers for a shell that dies before the `case` (a failed fork is fatal to
dash, busybox, bash after 15 s of retries and mksh after ~31 s); every arm clears it.
The launcher exits 73 when it answered on stdout (the command then exits 0) and 74 when it
denied on stderr (the command exits 2): statuses no shell uses for its own failures. Any
other status, as from a launcher that is gone, not a regular file (a FIFO would stall `sh`),
emptied or cut (a syntax error: 1, 2, or 3 under ksh93), or a shell that died of an
error (2, perhaps with its stderr at /dev/null), makes the command deny by exit 2 with one
short line on stderr: the shell's own error for the unset `hookman` (`sh: hookman: <why>`),
written with no redirection, so it needs no free descriptor (under a low open-file limit
`echo ... >&2` fails or kills the shell in dash, mksh, busybox, ksh93, zsh, yash and posh).
Every test sits in an and-or list, so an errexit that SHELLOPTS or a start-up file turns on
cannot end the command before it decides, and exit 2 blocks the tool whatever a start-up file
printed on stdout. For Qwen Code (`--agent qwen`) on PreToolUse the `*)` arm first says
Qwen's JSON deny on stderr, `continue: false` in it, in a subshell (command-guarded-stop.sh):
Qwen reads a stderr that is one JSON object as an exit 2's answer, and lets any other hook's
allow replace one that is a plain line. On any other event the command is the launcher
alone, `sh L EVENT` (the launcher exits 0 there): Claude Code shows the model the whole
command when a Stop hook blocks, so it must be short and say nothing that may be false. An async
entry: `sh L EVENT --async || :`. Earlier forms, still recognised and rewritten by install (and
doctor's hookman-stale names a command that is not the one install writes):
`[ -f L ] && ... case $? in 3) ;; 4) exit 2 ;; *) (unset hookman; ...` (format 4, no trap),
`... case $? in 3) ;; 2) exit 2 ;; *) echo '<why>' >&2; exit 2 ;; esac` (format 3),
`sh L EVENT; [ $? = 3 ] || printf '%s\n' '<deny or notice>'` (format 2) and
`sh L EVENT [|| printf '<deny>']` (format 1).

hookman recognises its handlers from the command string alone (Claude Code drops unknown keys
when it rewrites the file): a command is hookman's when its words hold a file named
`hookman-run.sh` (the launcher) followed by the event, or, as earlier versions wrote them,
`-c <code naming hookman> run`, `-m hookman run` or a program named `hookman` followed by
`run`, then the event.

The runner runs through `-c "from hookman... import ...; ..."` rather than `-m hookman`:
`-m` goes through runpy, which imports importlib.util, contextlib and warnings, a few ms on
every event for nothing (measured with bench/run_overhead.py).
An async (observe-only) entry carries `--async` after the event, which also keeps its command
distinct from the event's blocking entry: Claude Code runs identical commands only once.

Where the user opted in to the warm hook server (`hookman serve enable`; project/serve_paths.py
chooses which events), an entry is Claude Code's `type: "http"` handler instead:
`{"type": "http", "url": "http://127.0.0.1:PORT/v1/hook/EVENT", "headers":
{"X-Hookman-Manifest": M, "Authorization": "Bearer T"}, "timeout": S}`, plus
`"onFailure": "block"` on a guarded event. hookman recognises such a handler as its own by its
url (127.0.0.1, path under /v1/hook/, the event last) AND the X-Hookman-Manifest header
(hookman/serve/wire.py); any other http handler is foreign and left as it is. An async entry's
url ends in `?async=1` (http hooks have no `async` key). Switching an event between the two
forms replaces the handler where it stands.
"""

from __future__ import annotations

import functools
import json
import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from hookman.bridge.protocol import (
    AGENT_FLAG,
    ASYNC_FLAG,
    EXIT_TWO_STATUS,
    MANIFEST_FLAG,
    PRE_TOOL_USE,
    SENTINEL_STAMP_NAME,
)
from hookman.bridge.serve_proof import ASYNC_QUERY, HOOK_PATH_PREFIX, HOST
from hookman.errors import HookmanError
from hookman.project.launcher import (
    DENIED_STATUS,
    DONE_STATUS,
    LAUNCHER_NAME,
    MISSING_LAUNCHER_TEXT,
    read_launcher_words,
    stop_agents,
    stop_deny_json,
)
from hookman.project.settings_file import json_kind
from hookman.project.shell_template import render_words

# The settings commands, as shell files beside this module (shell_template.py fills them).
GUARDED_COMMAND = Path(__file__).parent / "command-guarded.sh"
GUARDED_STOP = Path(__file__).parent / "command-guarded-stop.sh"
ASYNC_COMMAND = Path(__file__).parent / "command-async.sh"
SENTINEL_COMMAND = Path(__file__).parent / "command-sentinel.sh"
# A sentinel's tests longer than this (very many directories of path hooks, very long paths)
# are left out: Linux refuses an `sh -c` argument over 128 KiB, and the command must start.
MAX_SENTINEL_TESTS_BYTES = 64 * 1024

# The kinds of hookman's entries: one of each per event at most.
BLOCKING = "blocking"
ASYNC = "async"
SENTINEL = "sentinel"

WHY_PREFIX = "hookman: "  # the shell writes it before the command's own line
_SHELL_SPECIALS = frozenset("'\"\\")
# Claude Code's http handler (the warm hook server's entries): what hookman's look like.
HTTP_TYPE = "http"
SERVE_HOST = HOST  # the warm hook server's (bridge/serve_proof.py, which install shares)
SERVE_HOOK_PATH = HOOK_PATH_PREFIX
SERVE_MANIFEST_HEADER = "X-Hookman-Manifest"  # wire.MANIFEST_HEADER
SERVE_ASYNC_QUERY = ASYNC_QUERY  # an async entry's url
ON_FAILURE_KEY = "onFailure"
ALLOWED_ENV_VARS_KEY = "allowedEnvVars"  # not written; an earlier one is taken out
# The keys hookman sets on its handlers (anything else a user put there is kept).
_COMMAND_KEYS = ("type", "command", "timeout", "async")
_HTTP_KEYS = ("type", "url", "headers", ALLOWED_ENV_VARS_KEY, "timeout", ON_FAILURE_KEY)
_SHELL_SPECIALS_WITH_COMMENTS = _SHELL_SPECIALS | {"#"}


class HookmanEntry(NamedTuple):  # not a dataclass: those compile methods at every start
    """One hookman handler to write under `hooks.<event>`, in its own matcher group."""

    event: str
    matcher: str | None
    command: str
    timeout: int | float | None
    is_async: bool = False
    # Whether an async entry says so with `"async": true` (Claude Code's); Codex CLI's do not:
    # the runner's `--async` answers at once and runs the hooks in a child of its own.
    async_key: bool = True
    # An http entry (the warm hook server): its url and headers; `command` is then unused.
    url: str | None = None
    headers: dict[str, str] | None = None
    on_failure: str | None = None  # "block" on a guarded event reaching the server
    sentinel: bool = False  # the event's sentinel (command-sentinel.sh), never an http entry

    @property
    def kind(self) -> str:
        return SENTINEL if self.sentinel else ASYNC if self.is_async else BLOCKING

    def handler(self) -> dict[str, Any]:
        """The handler object as written into the matcher group's `hooks` array."""
        if self.url is not None:
            return self._http_handler()
        handler: dict[str, Any] = {"type": "command", "command": self.command}
        if self.timeout is not None:
            handler["timeout"] = self.timeout
        if self.is_async and self.async_key:
            handler["async"] = True
        return handler

    def _http_handler(self) -> dict[str, Any]:
        handler: dict[str, Any] = {"type": HTTP_TYPE, "url": self.url}
        handler["headers"] = dict(self.headers or {})
        if self.timeout is not None:
            handler["timeout"] = self.timeout
        if self.on_failure is not None:
            handler[ON_FAILURE_KEY] = self.on_failure
        return handler

    @property
    def is_http(self) -> bool:
        return self.url is not None

    def group(self) -> dict[str, Any]:
        group: dict[str, Any] = {} if self.matcher is None else {"matcher": self.matcher}
        group["hooks"] = [self.handler()]
        return group


def build_command(
    event: str,
    launcher: Path,
    *,
    guarded: bool = False,
    run_async: bool = False,
    agent: str | None = None,
) -> str:
    """The shell command Claude Code runs for `event`: the project's launcher, every word
    quoted for POSIX shells (the module docstring shows the forms). On a guarded event a
    launcher that ran to its end exits DONE_STATUS (the command exits 0) or DENIED_STATUS
    (the command exits 2);
    any other status makes the command deny by exit 2. Elsewhere the launcher alone; an async
    entry only needs exit 0. `agent` ("codex") is the client an entry is for besides Claude
    Code: the launcher passes `--agent AGENT` on to the runner, which answers in its protocol
    (Claude Code's entries carry no such words)."""
    words = ["sh", str(launcher), event] + ([ASYNC_FLAG] if run_async else [])
    words += [] if agent is None else [AGENT_FLAG, agent]
    command = " ".join(shlex.quote(word) for word in words)
    if run_async:
        return async_command(command)
    if not guarded:
        return command
    stop = _stop_answer(event, agent, MISSING_LAUNCHER_TEXT)
    return guarded_command(shlex.quote(str(launcher)), command, MISSING_LAUNCHER_TEXT, stop)


def guarded_command(launcher: str, command: str, why: str, stop: str | None = None) -> str:
    """command-guarded.sh: `command` (which runs the launcher, the shell word `launcher`)
    with the test of its status; `why` (text) is said on stderr when it did not run to
    its end, after `stop` (a JSON deny, command-guarded-stop.sh) where one is given. The
    plugin's hooks.json commands are made here too."""
    # The shell says `hookman: ` itself (the name of the unset variable that carries it).
    statuses = {"done": DONE_STATUS, "denied": DENIED_STATUS, "two": EXIT_TWO_STATUS}
    values = {
        "launcher": launcher,
        "command": command,
        "why": _in_braces(why),
        "trap": _exit_trap(why),
        "stop": "",
    }
    if stop is not None:
        words = {"answer": shlex.quote(stop), "two": EXIT_TWO_STATUS}
        values["stop"] = render_words(GUARDED_STOP, words) + " "
    return render_words(GUARDED_COMMAND, {**values, **statuses})


def _stop_answer(event: str, agent: str | None, why: str) -> str | None:
    """The JSON deny the command itself says on stderr when its launcher did not run to its
    end, for an agent that reads it there after exit 2 and keeps its `continue: false` (Qwen
    Code, on PreToolUse); None for every other agent and event."""
    if event != PRE_TOOL_USE or agent not in stop_agents(on_stderr=True):
        return None
    return stop_deny_json(why)


def sentinel_command(stamp: Path, watched: Sequence[Path], command: str) -> str:
    """command-sentinel.sh: exit 0 at once while `stamp` is newer than every file in
    `watched` (what install read), else `command` (the event's guarded command)."""
    quoted = shlex.quote(str(stamp))
    tests = [f"[ {quoted} -nt {shlex.quote(str(path))} ]" for path in watched]
    unchanged = " && ".join(tests or [f"[ -f {quoted} ]"])
    if len(unchanged) > MAX_SENTINEL_TESTS_BYTES:
        unchanged = "false"  # no fast path: the guarded command on every call
    return render_words(SENTINEL_COMMAND, {"unchanged": unchanged, "command": command})


def hookman_command_is_sentinel(command: str) -> bool:
    """Whether a hookman command is a sentinel: its stamp named before the launcher."""
    words = _command_words(command)
    event_index = _event_word_index(words)
    if event_index is None:
        return False
    return any(_base_name(word) == SENTINEL_STAMP_NAME for word in words[:event_index])


def _in_braces(why: str) -> str:
    """`why`, without WHY_PREFIX, as the word of "${hookman?WORD}" (inside double quotes)."""
    text = why.removeprefix(WHY_PREFIX)
    return "".join("\\" + char if char in '\\"$`}' else char for char in text)


def _exit_trap(why: str) -> str:
    """The EXIT trap's action, one shell word: `why` on stderr, then exit 2."""
    text = "".join("\\" + char if char in '\\"$`' else char for char in why)
    return shlex.quote(f'echo "{text}" >&2; exit {EXIT_TWO_STATUS}')


def async_command(command: str) -> str:
    """command-async.sh: `command` whose status does not matter."""
    return render_words(ASYNC_COMMAND, {"command": command})


def is_hookman_command(command: str) -> bool:
    return _event_word_index(_command_words(command)) is not None


def hookman_command_event(command: str) -> str | None:
    """The Claude Code event a hookman command runs for; None for a foreign command."""
    words = _command_words(command)
    event_index = _event_word_index(words)
    if event_index is None or event_index >= len(words):
        return None
    event = _own_words(words[event_index:])[:1]
    return None if not event or not event[0] or event[0].startswith("-") else event[0]


def hookman_http_event(handler: Any) -> str | None:
    """The event of one of hookman's http handlers (the warm hook server's), None for any
    other handler: type http, a url on 127.0.0.1 whose path is /v1/hook/EVENT, and the
    X-Hookman-Manifest header naming a manifest."""
    if not isinstance(handler, dict) or handler.get("type") != HTTP_TYPE:
        return None
    url, headers = handler.get("url"), handler.get("headers")
    if not isinstance(url, str) or not isinstance(headers, dict):
        return None
    manifest = headers.get(SERVE_MANIFEST_HEADER)
    if not isinstance(manifest, str) or not manifest:
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme != "http" or host != SERVE_HOST or not parts.path.startswith(SERVE_HOOK_PATH):
        return None
    event = parts.path[len(SERVE_HOOK_PATH) :]
    return event if event and "/" not in event else None


def hookman_http_port(handler: Any) -> int | None:
    """The port one of hookman's http handlers posts to; None for any other handler."""
    if hookman_http_event(handler) is None:
        return None
    try:
        return urlsplit(handler["url"]).port or 80
    except ValueError:
        return None


def is_hookman_handler(handler: Any) -> bool:
    """Whether a settings handler is hookman's: its command form or its http form."""
    return _is_hookman_handler(handler)


def hookman_command_is_async(command: str) -> bool:
    words = _command_words(command)
    event_index = _event_word_index(words)
    return event_index is not None and ASYNC_FLAG in _own_words(words[event_index:])


class RunnerRef(NamedTuple):  # not a dataclass: those compile methods at every start
    """What a hookman command runs: the interpreter (None when the command names a
    `hookman` program instead, or its launcher cannot be read), the manifest it reads
    (None when it names none) and the launcher it goes through (None for the older forms)."""

    interpreter: str | None
    manifest: str | None
    launcher: str | None = None


def hookman_command_runner(command: str) -> RunnerRef | None:
    """The interpreter and manifest a hookman command uses; None for a foreign command.

    For the launcher form they are read from the launcher file (as the last install wrote
    it); a missing or unreadable launcher gives no interpreter and the manifest beside it."""
    words = _command_words(command)
    event_index = _event_word_index(words)
    if event_index is None:
        return None
    program = words[event_index - 1]
    if _base_name(program) == LAUNCHER_NAME:
        named = read_launcher_words(Path(program))
        manifest = named.get("manifest") or str(Path(program).parent / "manifest.json")
        return RunnerRef(named.get("python"), manifest, program)
    program = _base_name(words[event_index - 2])
    interpreter = None if program in ("hookman", "hookman.exe") else words[0]
    manifest = None
    rest = words[event_index:]
    for index, word in enumerate(rest):
        if word == MANIFEST_FLAG and index + 1 < len(rest):
            manifest = rest[index + 1]
        elif word.startswith(MANIFEST_FLAG + "="):
            manifest = word.split("=", 1)[1]
    return RunnerRef(interpreter, manifest)


def apply_hookman_entries(settings: dict[str, Any], entries: Sequence[HookmanEntry]) -> None:
    """Make hookman's handlers in `settings["hooks"]` exactly `entries`, in place.

    An existing hookman group for an entry is updated where it stands; a missing one is
    appended to its event's array; stale hookman handlers are removed, and the groups, event
    arrays and `hooks` object they leave empty go with them. Foreign content is untouched.
    A shape hookman cannot read (e.g. `hooks` not an object) raises HookmanError and
    changes nothing.
    """
    wanted = _entries_by_key(entries)
    if "hooks" not in settings:
        if not wanted:
            return
        settings["hooks"] = {}
    hooks = settings["hooks"]
    _check_shape(hooks)
    had_events = bool(hooks)
    placed = _update_existing(hooks, wanted)
    for key, entry in wanted.items():
        if key not in placed:
            hooks.setdefault(entry.event, []).append(entry.group())
    if had_events and not hooks:
        del settings["hooks"]


def find_hookman_entries(settings: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every hookman handler in the settings, as (event, handler) in file order.

    Each handler dict is a copy of the handler's keys with the matcher group's `matcher`
    added (absent when the group has none). Malformed parts are skipped, never raised on.
    """
    found: list[tuple[str, dict[str, Any]]] = []
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            for handler in group["hooks"]:
                if _is_hookman_handler(handler):
                    described = dict(handler)
                    if "matcher" in group:
                        described["matcher"] = group["matcher"]
                    found.append((event, described))
    return found


_EntryKey = tuple[str, str]  # (event, kind)


def _entries_by_key(entries: Sequence[HookmanEntry]) -> dict[_EntryKey, HookmanEntry]:
    by_key: dict[_EntryKey, HookmanEntry] = {}
    for entry in entries:
        key = (entry.event, entry.kind)
        if key in by_key:
            raise ValueError(f"two {entry.kind} hookman entries for {entry.event}")
        by_key[key] = entry
    return by_key


def _update_existing(
    hooks: dict[str, Any], wanted: dict[_EntryKey, HookmanEntry]
) -> set[_EntryKey]:
    placed: set[_EntryKey] = set()
    for event in list(hooks):
        groups = hooks[event]
        emptied_groups: list[int] = []
        for group_index, group in enumerate(list(groups)):
            handlers = group.get("hooks")
            if not isinstance(handlers, list):
                continue
            had_handlers = bool(handlers)
            kept = _update_group(event, group, handlers, wanted, placed, groups)
            if had_handlers and not kept:
                emptied_groups.append(group_index)
        for group_index in reversed(emptied_groups):
            del groups[group_index]
        if emptied_groups and not groups:
            del hooks[event]
    return placed


def _update_group(
    event: str,
    group: dict[str, Any],
    handlers: list[Any],
    wanted: dict[_EntryKey, HookmanEntry],
    placed: set[_EntryKey],
    groups: list[Any],
) -> list[Any]:
    """Update or drop the hookman handlers of one group; returns the handlers it keeps."""
    owned = all(_is_hookman_handler(handler) for handler in handlers)
    kept: list[Any] = []
    for handler in handlers:
        if not _is_hookman_handler(handler):
            kept.append(handler)
            continue
        key = (event, hookman_handler_kind(handler))
        entry = wanted.get(key)
        if entry is None or key in placed:
            continue
        placed.add(key)
        if owned and len(handlers) == 1:
            _set_matcher(group, entry.matcher)
            _update_handler(handler, entry)
            kept.append(handler)
        elif group.get("matcher") == entry.matcher:
            _update_handler(handler, entry)
            kept.append(handler)
        else:
            # Changing a shared group's matcher would change when its other handlers run.
            groups.append(entry.group())
    handlers[:] = kept
    return kept


def _set_matcher(group: dict[str, Any], matcher: str | None) -> None:
    if matcher is None:
        group.pop("matcher", None)
    else:
        group["matcher"] = matcher


def _update_handler(handler: dict[str, Any], entry: HookmanEntry) -> None:
    wanted = entry.handler()
    if (handler.get("type") == HTTP_TYPE) != entry.is_http:
        # The other form (a switch to or from the server): hookman's keys of the old form go,
        # the new form's come first, and keys a user added stay after them.
        others = {
            key: value
            for key, value in handler.items()
            if key not in _COMMAND_KEYS and key not in _HTTP_KEYS
        }
        handler.clear()
        handler.update(wanted)
        handler.update(others)
        return
    for key in _HTTP_KEYS if entry.is_http else _COMMAND_KEYS:
        if key in wanted:
            handler[key] = wanted[key]
        else:
            handler.pop(key, None)


def _is_hookman_handler(handler: Any) -> bool:
    if not isinstance(handler, dict):
        return False
    command = handler.get("command")
    if isinstance(command, str) and is_hookman_command(command):
        return True
    return hookman_http_event(handler) is not None


def _handler_is_async(handler: dict[str, Any]) -> bool:
    """Whether one of hookman's handlers is an async entry: `--async` in its command, or
    `?async=1` on its url (the server answers `{}` at once, the hooks run on)."""
    command = handler.get("command")
    if isinstance(command, str) and hookman_command_is_async(command):
        return True
    return hookman_http_event(handler) is not None and _url_is_async(handler["url"])


def _url_is_async(url: str) -> bool:
    try:
        return SERVE_ASYNC_QUERY in urlsplit(url).query.split("&")
    except ValueError:
        return False


def hookman_handler_is_async(handler: Any) -> bool:
    """Whether one of hookman's handlers (either form) is an async entry."""
    return isinstance(handler, dict) and _handler_is_async(handler)


def hookman_handler_is_sentinel(handler: Any) -> bool:
    """Whether one of hookman's handlers is a sentinel (always a command)."""
    if not isinstance(handler, dict):
        return False
    command = handler.get("command")
    return isinstance(command, str) and hookman_command_is_sentinel(command)


def hookman_handler_kind(handler: Any) -> str:
    """BLOCKING, ASYNC or SENTINEL: which of an event's entries one of hookman's handlers is."""
    if hookman_handler_is_sentinel(handler):
        return SENTINEL
    return ASYNC if hookman_handler_is_async(handler) else BLOCKING


def _check_shape(hooks: Any) -> None:
    """Raise unless `hooks` has the shape hookman walks: object -> arrays -> objects."""
    if not isinstance(hooks, dict):
        _malformed("hooks", "an object", hooks)
    for event, groups in hooks.items():
        event_path = f"hooks{_key_path(event)}"
        if not isinstance(groups, list):
            _malformed(event_path, "an array", groups)
        for index, group in enumerate(groups):
            group_path = f"{event_path}[{index}]"
            if not isinstance(group, dict):
                _malformed(group_path, "an object", group)
            if "hooks" in group and not isinstance(group["hooks"], list):
                _malformed(f"{group_path}.hooks", "an array", group["hooks"])


def _key_path(key: str) -> str:
    return f".{key}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else f"[{_quoted(key)}]"


def _quoted(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _malformed(json_path: str, expected: str, found: Any) -> None:
    raise HookmanError(
        f"settings.local.json has {json_kind(found)} at {json_path} where Claude Code expects "
        f"{expected}, so hookman will not edit it.",
        "fix that part of .claude/settings.local.json by hand (or remove it), then run the "
        "command again.",
    )


def _command_words(command: str) -> list[str]:
    if "hookman" not in command:  # every form hookman recognises names it: skip the split
        return []
    try:
        return list(shell_words(command))
    except ValueError:
        return command.split()


@functools.lru_cache(maxsize=1024)
def shell_words(command: str, *, comments: bool = False) -> tuple[str, ...]:
    """`shlex.split(command, comments=comments)`, fast for the plain commands most are.

    shlex reads a character at a time (about 35 us a command); a printable ASCII command with
    no quote, backslash (or, with `comments`, `#`) splits the same at its spaces. Cached:
    recognising one command asks for its words several times. Raises ValueError as shlex does.
    """
    specials = _SHELL_SPECIALS_WITH_COMMENTS if comments else _SHELL_SPECIALS
    if command.isascii() and command.isprintable() and not specials.intersection(command):
        return tuple(command.split())
    return tuple(shlex.split(command, comments=comments))


def _event_word_index(words: list[str]) -> int | None:
    """Where the event word is (it may be past the end) in a hookman command; None for a
    foreign one. The launcher form: `sh <.../hookman-run.sh> EVENT`; the older forms:
    `... -c <code naming hookman> run EVENT`, `-m hookman run EVENT`, `hookman run EVENT`."""
    for index, word in enumerate(words):
        if index >= 1 and _base_name(word) == LAUNCHER_NAME:
            if index + 1 < len(words) and words[index + 1] == "]":
                continue  # `[ -f L ]`, the test before `sh L EVENT`
            return index + 1
        if word != "run" or index == 0:
            continue
        if index >= 2 and words[index - 2 : index] == ["-m", "hookman"]:
            return index + 1
        if index >= 2 and words[index - 2] == "-c" and "hookman" in words[index - 1]:
            return index + 1
        if _base_name(words[index - 1]) in ("hookman", "hookman.exe"):
            return index + 1
    return None


def _own_words(words: list[str]) -> list[str]:
    """The words of the command's first pipeline (before a `;`, `&&` or `||` fallback)."""
    own: list[str] = []
    for word in words:
        if word in ("||", "&&"):
            break
        if word.endswith(";"):
            own.append(word[:-1])
            break
        own.append(word)
    return own


def _base_name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]
