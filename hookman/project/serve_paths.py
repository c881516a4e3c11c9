"""Which of a project's Claude Code entries reach the warm hook server (`hookman serve`) and
which stay command entries, and why: data, no I/O (the caller says whether the user opted in
and which port the server has).

The rules (ARCHITECTURE.md, "The warm hook server's entries"):
- nothing reaches the server unless the user opted in (`hookman serve enable`) and the target
  client has `type: "http"` hooks (catalog `hook_types.http.since`);
- an observe-only (not guarded) event gets an http entry without `onFailure`: a server that
  is down, killed or hung loses its hooks' run at most, never blocks;
- a guarded event (PreToolUse, ...) gets one only where the client has `onFailure` (catalog
  `hook_fields.onFailure.since`): `"onFailure": "block"` makes any failure of the server path
  block the tool; elsewhere it stays a command entry, which fails closed by itself;
- UserPromptSubmit always stays a command entry: it is the prompt gate, which also checks the
  server's identity and starts it when nothing listens;
- an async entry (observe-only hooks with `async = true`) goes to the server as an
  observe-only one does, its url marked `?async=1`: the server answers `{}` at once and the
  hooks run on in its child (http hooks have no `async` key: the client waits for that `{}`);
- a project whose agents include GitHub Copilot CLI keeps command entries: Copilot runs the
  same settings file, and its reading of http entries was never measured (one entry its
  schema refuses disables every hook of the file, hookman's guard included);
- SessionStart and Setup keep command entries: the client skips http entries there;
- where the installed manifest's path holds `$NAME` or `${NAME}` (hookman's state directory
  under such a name), every entry stays a command: the client expands it in the header, with
  no escape, and the server would get another manifest path.
An unknown target version gets no http entry (it may be older than http hooks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from hookman.bridge.protocol import PROMPT_GATE_EVENT
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, parse_version

HTTP_TYPE = "http"
ON_FAILURE = "onFailure"
BLOCK = "block"

# Why an entry takes its path (the commands word them: commands/serve_wording.py).
OBSERVE_ONLY = "observe-only"  # server: not guarded, a failure loses the run at most
GUARD_BLOCKS = "guard-blocks"  # server: guarded, with onFailure block
PROMPT_GATE = "prompt-gate"  # command: UserPromptSubmit is the prompt gate
NO_ON_FAILURE = "no-on-failure"  # command: guarded, and the client lacks onFailure
NO_HTTP = "no-http"  # command: the client lacks http hooks
NO_HTTP_EVENT = "no-http-event"  # command: the client skips http entries on this event
VERSION_UNKNOWN = "version-unknown"  # command: the target version is not known
COPILOT = "copilot"  # command: GitHub Copilot CLI runs the same file
DOLLAR_PATH = "dollar-in-path"  # command: the manifest's path would be expanded in the header
SERVER_REASONS = frozenset({OBSERVE_ONLY, GUARD_BLOCKS})
# What Claude Code expands in an http entry's header values (catalog http_hooks.request
# header_env_expansion: `$NAME`, `${NAME}`, no escape).
_EXPANDED = re.compile(r"\$\{?[A-Za-z_]")


class EntryPath(NamedTuple):
    """How one blocking entry reaches hookman: the server (http) or the launcher (command)."""

    event: str
    server: bool
    reason: str  # one of the constants above
    on_failure: str | None = None  # "block" on a guarded event that reaches the server


class ServePlan(NamedTuple):
    """The path of each blocking entry (catalog order) for a user who opted in, and of each
    async entry (`async_paths`: answered `{}` at once by the server, the hooks run on)."""

    port: int
    paths: dict[str, EntryPath]
    http_since: str | None  # the first client version with http hooks
    on_failure_since: str | None  # the first client version with onFailure
    async_paths: dict[str, EntryPath] = {}  # noqa: RUF012 (a NamedTuple default, never mutated)

    def reaches_server(self) -> bool:
        every = [*self.paths.values(), *self.async_paths.values()]
        return any(path.server for path in every)

    def server_events(self) -> list[str]:
        return [event for event, path in self.paths.items() if path.server]

    def command_events(self) -> list[str]:
        return [event for event, path in self.paths.items() if not path.server]


def opted_in() -> bool:
    """Whether the user opted in to the warm server (hookman/serve/wire.py, which is light
    now: its HMAC needs neither hashlib nor hmac)."""
    from hookman.serve.wire import opted_in as user_opted_in

    return user_opted_in()


def http_since() -> str | None:
    """The first Claude Code version with `type: "http"` hooks (catalog data)."""
    types = event_catalog.claude_code_catalog().get("hook_types", {})
    since = types.get(HTTP_TYPE, {}).get("since") if isinstance(types, dict) else None
    return since if isinstance(since, str) else None


def http_unsupported_events() -> frozenset[str]:
    """The events whose http entries the client skips (SessionStart, Setup: catalog
    `http_hooks.unsupported_events`, measured): the hooks behind one would never run."""
    facts = event_catalog.claude_code_catalog().get("http_hooks", {})
    events = facts.get("unsupported_events") if isinstance(facts, dict) else None
    return frozenset(events) if isinstance(events, list) else frozenset()


def on_failure_since() -> str | None:
    """The first Claude Code version whose hook entries read `onFailure` (catalog data:
    `http_hooks.on_failure_since`, measured with http entries; else `hook_fields`, else the
    command entries' fields, which list it too)."""
    catalog = event_catalog.claude_code_catalog()
    http = catalog.get("http_hooks")
    measured = http.get("on_failure_since") if isinstance(http, dict) else None
    if isinstance(measured, str):
        return measured
    for section in ("hook_fields", "command_hook_fields"):
        fields = catalog.get(section)
        found = fields.get(ON_FAILURE) if isinstance(fields, dict) else None
        if isinstance(found, dict) and isinstance(found.get("since"), str):
            return str(found["since"])
    return None


def _has(since: str | None, version: ClientVersion) -> bool:
    return since is not None and parse_version(since) <= version


def plan_paths(
    events: Iterable[str],
    version: ClientVersion | None,
    port: int,
    *,
    agents: Iterable[str] = (),
    async_events: Iterable[str] = (),
    manifest_path: str = "",
) -> ServePlan:
    """The path of each of the blocking entries `events` (and of the async entries
    `async_events`, never guarded) for a user who opted in; `manifest_path` is what the
    entries' X-Hookman-Manifest header would carry."""
    guarded = frozenset(event_catalog.guarded_events())
    http, on_failure = http_since(), on_failure_since()
    copilot = "copilot" in set(agents)
    expands = header_expands(manifest_path)

    def path(event: str, guarded_here: frozenset[str]) -> EntryPath:
        if expands and event != PROMPT_GATE_EVENT:
            return EntryPath(event, False, DOLLAR_PATH)
        return _path(event, version, guarded_here, http, on_failure, copilot=copilot)

    paths = {event: path(event, guarded) for event in events}
    async_paths = {event: path(event, frozenset()) for event in async_events}
    return ServePlan(port, paths, http, on_failure, async_paths)


def header_expands(value: str) -> bool:
    """Whether Claude Code would change this header value (a `$NAME` or `${NAME}` in it),
    so that the server would get another manifest path than the one written."""
    return _EXPANDED.search(value) is not None


def _path(
    event: str,
    version: ClientVersion | None,
    guarded: frozenset[str],
    http: str | None,
    on_failure: str | None,
    *,
    copilot: bool,
) -> EntryPath:
    if event == PROMPT_GATE_EVENT:
        return EntryPath(event, False, PROMPT_GATE)
    if copilot:
        return EntryPath(event, False, COPILOT)
    if version is None:
        return EntryPath(event, False, VERSION_UNKNOWN)
    if not _has(http, version):
        return EntryPath(event, False, NO_HTTP)
    if event in http_unsupported_events():
        return EntryPath(event, False, NO_HTTP_EVENT)
    if event not in guarded:
        return EntryPath(event, True, OBSERVE_ONLY)
    if not _has(on_failure, version):
        return EntryPath(event, False, NO_ON_FAILURE)
    return EntryPath(event, True, GUARD_BLOCKS, BLOCK)


def serve_section(plan: ServePlan | None) -> dict[str, Any] | None:
    """The installed manifest's `"serve"` value ({"port": PORT}) when an entry reaches the
    server, else None (the key is then left out)."""
    if plan is None or not plan.reaches_server():
        return None
    return {"port": plan.port}


def paths_json(plan: ServePlan | None) -> dict[str, Any] | None:
    """The plan as JSON (install's `serve` key): the port and each event's path and reason."""
    if plan is None:
        return None
    return {
        "port": plan.port,
        "events": {
            event: {
                "path": "server" if path.server else "command",
                "reason": path.reason,
                **({} if path.on_failure is None else {ON_FAILURE: path.on_failure}),
            }
            for event, path in plan.paths.items()
        },
        "async_events": {
            event: {"path": "server" if path.server else "command", "reason": path.reason}
            for event, path in plan.async_paths.items()
        },
    }


def reasons_by_path(plan: ServePlan) -> Mapping[str, list[str]]:
    """reason -> the events taking that path for it, in catalog order (async entries
    marked `(async)`)."""
    grouped: dict[str, list[str]] = {}
    for event, path in plan.paths.items():
        grouped.setdefault(path.reason, []).append(event)
    for event, path in plan.async_paths.items():
        grouped.setdefault(path.reason, []).append(f"{event} (async)")
    return grouped
