"""From the project's enabled hooks and the target client version to the hookman entries
settings.local.json needs, and the events held back because that client does not know them.

Pure: no I/O. Rules (docs/claude-code-facts.md: entries, matchers, timeouts):
- one entry per Claude Code event some enabled hook needs and the client may receive;
- a tool event's matcher names exactly the tools asked for, none when a hook wants all;
- async hooks (`async = true`) get a second entry per event, marked `async: true`, which
  Claude Code does not wait for; the blocking entry serves only the other hooks, and the
  guarded events (PreToolUse, ...) of async hooks too: an async guard could not deny;
- timeout 30 s per event, raised to the largest hook `timeout` on it; SessionEnd always gets
  an explicit one (5 s default, at most Claude Code's 60 s cap);
- the runner's deadline stays below the timeout by max(1 s, 10 %);
- when no written event can deliver a `send_message` text (an additionalContext that does
  not start a turn: Stop's does), a UserPromptSubmit entry is added so queued texts still
  reach the model (async runs queue their texts too, so their entries count as needing it);
- with `prompt_gate` (a project's Claude Code entries), a project with any entry also gets
  a blocking UserPromptSubmit entry: the runner stops the prompt there when the project moved
  on since install (ARCHITECTURE.md, "The prompt gate"), since a guard added by a pull may
  have no entry that reaches it;
- and, for the calls a pull made during a session may leave unguarded until the next prompt,
  a sentinel per guarded event the client knows (PreToolUse, PreSkillShellCommand): its
  matcher reaches every tool the event's blocking entry does not (all, with no such entry;
  none is needed where that entry reaches all), and its command runs the guarded entry only
  when a file install read is newer than install's stamp (project/sentinel.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from hookman.bridge.entry_timeout import DEADLINE_MARGIN_FRACTION, DEADLINE_MIN_MARGIN_S
from hookman.bridge.protocol import PROMPT_GATE_EVENT
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion
from hookman.project.config import HookSpec
from hookman.project.serve_paths import ServePlan

_EXACT_NAME = re.compile(r"[A-Za-z0-9_]+")
_JS_REGEX_SYNTAX = re.compile(r"[\\^$.*+?()\[\]{}|/]")

DEFAULT_TIMEOUT_S = 30
SESSION_END_EVENT = "SessionEnd"
SESSION_END_DEFAULT_TIMEOUT_S = 5
CONTEXT_FALLBACK_EVENT = "UserPromptSubmit"
TOOL_CALL = "tool_call"


class PlannedEntry(NamedTuple):  # not a dataclass: those compile methods at every start
    """One hookman entry to write for a Claude Code event."""

    event: str
    matcher: str | None
    tools: tuple[str, ...] | None  # the tool names the matcher covers; None = all tools
    timeout: int | float
    deadline: float


@dataclass(frozen=True)
class InstallPlan:
    """The entries to write for the enabled hooks, and what is held back."""

    entries: dict[str, PlannedEntry]  # catalog order
    held_back: dict[str, str]  # event -> first client version that knows it
    claude_events: dict[str, tuple[str, ...]]  # hook name -> Claude Code events serving it
    inert_events: dict[str, tuple[str, ...]]  # hook name -> names no client knows
    never_sent: tuple[str, ...]  # hooks whose events Claude Code never sends
    context_fallback: bool  # the UserPromptSubmit entry exists only to deliver messages
    # the UserPromptSubmit entry exists only as the prompt gate (no hook or message needs it)
    prompt_gate_only: bool = False
    # hook name -> the timeout it asked for, where SessionEnd's cap gives it less
    session_end_capped: dict[str, int | float] = field(default_factory=dict)
    async_entries: dict[str, PlannedEntry] = field(default_factory=dict)  # catalog order
    # guarded event -> its sentinel (the tools its blocking entry does not reach); catalog order
    sentinels: dict[str, PlannedEntry] = field(default_factory=dict)
    # hook name -> guarded events its raw guard handlers miss (a tool_call guard gets all)
    partial_guards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # async hook name -> the guarded events it still serves from the blocking entry
    kept_blocking: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The user opted in to the warm hook server: which blocking entries reach it, and why
    # the others stay command entries (project/serve_paths.py); None: all are command entries.
    serve: ServePlan | None = None

    def hook_entries(self) -> dict[str, PlannedEntry]:
        """The entries the hooks (and their messages) need: all but a gate-only one."""
        if not self.prompt_gate_only:
            return self.entries
        return {event: entry for event, entry in self.entries.items() if event != PROMPT_GATE_EVENT}


def plan_install(
    hooks: Sequence[HookSpec],
    version: ClientVersion | None,
    *,
    prompt_gate: bool = False,
) -> InstallPlan:
    """Plan the entries for the enabled hooks among `hooks` (in dispatch order); with
    `prompt_gate`, a project's UserPromptSubmit gate too (a plugin serves no one project)."""
    enabled = [hook for hook in hooks if hook.enabled]
    claude_events: dict[str, tuple[str, ...]] = {}
    inert: dict[str, tuple[str, ...]] = {}
    never_sent: list[str] = []
    for hook in enabled:
        served = [
            event
            for subscription in hook.events
            for event in event_catalog.claude_events_for(subscription, hook.tools.get(subscription))
        ]
        claude_events[hook.name] = tuple(dict.fromkeys(served))
        unknown = tuple(e for e in hook.events if not event_catalog.is_known_event(e))
        if unknown:
            inert[hook.name] = unknown
        sent = any(event_catalog.claude_events_serving(name) for name in hook.events)
        if hook.events and not sent and not unknown:
            never_sent.append(hook.name)

    held_back: dict[str, str] = {}
    guarded = frozenset(event_catalog.guarded_events())
    # An async hook's guarded events stay blocking: Claude Code never reads an async answer,
    # so a guard there could not deny.
    entries = _entries_for(
        enabled, version, held_back, lambda hook, event: not hook.is_async or event in guarded
    )
    async_entries = _entries_for(
        enabled, version, held_back, lambda hook, event: hook.is_async and event not in guarded
    )
    kept_blocking = {
        hook.name: kept
        for hook in enabled
        if hook.is_async
        and (kept := tuple(e for e in claude_events[hook.name] if e in guarded and e in entries))
    }
    held_back = {e: held_back[e] for e in event_catalog.claude_events() if e in held_back}

    context_fallback = bool(entries or async_entries) and not any(
        event_catalog.is_message_channel(event) for event in entries
    )
    if context_fallback and event_catalog.may_write(CONTEXT_FALLBACK_EVENT, version):
        entries[CONTEXT_FALLBACK_EVENT] = _entry(CONTEXT_FALLBACK_EVENT, None, [])
        entries = _in_catalog_order(entries)
    else:
        context_fallback = False
    prompt_gate_only = (
        prompt_gate
        and bool(entries or async_entries)
        and PROMPT_GATE_EVENT not in entries
        and event_catalog.may_write(PROMPT_GATE_EVENT, version)
    )
    if prompt_gate_only:
        entries[PROMPT_GATE_EVENT] = _entry(PROMPT_GATE_EVENT, None, [])
        entries = _in_catalog_order(entries)
    session_end_capped = {
        hook.name: hook.timeout
        for hook in enabled
        if SESSION_END_EVENT in (own := async_entries if hook.is_async else entries)
        and SESSION_END_EVENT in claude_events[hook.name]
        and hook.timeout is not None
        and hook.timeout > own[SESSION_END_EVENT].timeout
    }
    partial_guards = {
        hook.name: missing for hook in enabled if (missing := _missed_guarded_events(hook, version))
    }
    sentinels = _sentinels(entries, version) if prompt_gate and (entries or async_entries) else {}
    return InstallPlan(
        sentinels=sentinels,
        entries=entries,
        partial_guards=partial_guards,
        held_back=held_back,
        claude_events=claude_events,
        inert_events=inert,
        never_sent=tuple(never_sent),
        context_fallback=context_fallback,
        prompt_gate_only=prompt_gate_only,
        session_end_capped=session_end_capped,
        async_entries=async_entries,
        kept_blocking=kept_blocking,
    )


def _entries_for(
    hooks: Sequence[HookSpec],
    version: ClientVersion | None,
    held_back: dict[str, str],
    serves: Callable[[HookSpec, str], bool],
) -> dict[str, PlannedEntry]:
    """One entry per Claude Code event these hooks need (where `serves(hook, event)`) and
    the client may receive, in catalog order; the events it may not receive go into
    `held_back`."""
    wanted_tools: dict[str, set[str] | None] = {}
    timeouts: dict[str, list[float]] = {}
    for hook in hooks:
        for subscription in hook.events:
            tools = hook.tools.get(subscription)
            for event in event_catalog.claude_events_for(subscription, tools):
                if not serves(hook, event):
                    continue
                _add_tools(wanted_tools, event, event_catalog.event_tools(event, tools))
                if hook.timeout is not None:
                    timeouts.setdefault(event, []).append(hook.timeout)
    entries: dict[str, PlannedEntry] = {}
    for event in event_catalog.claude_events():
        if event not in wanted_tools:
            continue
        if not event_catalog.may_write(event, version):
            held_back[event] = str(event_catalog.since(event))
            continue
        entries[event] = _entry(event, wanted_tools[event], timeouts.get(event, []))
    return entries


def _sentinels(
    entries: dict[str, PlannedEntry], version: ClientVersion | None
) -> dict[str, PlannedEntry]:
    """The sentinel of each guarded event the client knows whose blocking entry (if any) does
    not reach every tool: its matcher is the complement of that entry's, its timeout that
    entry's (the runner takes the smallest of an event's entries for its deadline)."""
    found: dict[str, PlannedEntry] = {}
    for event in event_catalog.guarded_events():
        blocking = entries.get(event)
        if not event_catalog.may_write(event, version):
            continue
        if blocking is None:
            found[event] = _entry(event, None, [])
        elif blocking.tools is not None:  # else it reaches every tool already
            matcher = complement_matcher(blocking.tools)
            found[event] = blocking._replace(matcher=matcher, tools=None)
    return found


def _missed_guarded_events(hook: HookSpec, version: ClientVersion | None) -> tuple[str, ...]:
    """The guarded events the client sends for the tools a raw guard handler (e.g.
    `pi.on("PreToolUse")`) asks for, which it does not listen to, and which this client
    knows. A `tool_call` guard is served by every guarded event, so it misses none."""
    guarded = event_catalog.guarded_events()
    raw = [event for event in hook.events if event in guarded]
    if not raw or TOOL_CALL in hook.events:
        return ()
    asked = [hook.tools.get(event) for event in raw]
    tools = None if None in asked else [name for names in asked for name in names or ()]
    return tuple(
        event
        for event in guarded
        if event not in raw
        and event_catalog.event_tools(event, tools) != ()
        and event_catalog.may_write(event, version)
    )


def timeout_for(event: str, hook_timeouts: Sequence[float]) -> int | float:
    """The Claude Code `timeout` (seconds) for the hookman entry of `event`."""
    largest = max(hook_timeouts, default=0.0)
    if event == SESSION_END_EVENT:
        cap = event_catalog.session_end_budget_cap_s()
        seconds = min(cap, max(SESSION_END_DEFAULT_TIMEOUT_S, largest))
    else:
        seconds = max(DEFAULT_TIMEOUT_S, largest)
    return int(seconds) if float(seconds).is_integer() else float(seconds)


def deadline_for(timeout: float) -> float:
    """The runner's own deadline: below Claude Code's timeout by max(1 s, 10 %)."""
    margin = max(DEADLINE_MIN_MARGIN_S, DEADLINE_MARGIN_FRACTION * timeout)
    return math.floor(max(timeout - margin, 0.0) * 1000) / 1000  # ms, rounded down


def _in_catalog_order(entries: dict[str, PlannedEntry]) -> dict[str, PlannedEntry]:
    return {event: entries[event] for event in event_catalog.claude_events() if event in entries}


def _add_tools(wanted: dict[str, set[str] | None], event: str, tools: Sequence[str] | None) -> None:
    narrows = event_catalog.matcher_field(event) == event_catalog.TOOL_MATCHER_FIELD
    if not narrows or tools is None:
        wanted[event] = None
        return
    if event in wanted and wanted[event] is None:
        return
    wanted.setdefault(event, set()).update(tools)  # type: ignore[union-attr]


def _entry(
    event: str,
    tools: set[str] | None,
    hook_timeouts: Sequence[float],
) -> PlannedEntry:
    timeout = timeout_for(event, hook_timeouts)
    names = tuple(sorted(tools)) if tools is not None else None
    matcher = exact_matcher(names) if names else None
    return PlannedEntry(
        event=event,
        matcher=matcher,
        tools=names if matcher is not None else None,
        timeout=timeout,
        deadline=deadline_for(timeout),
    )


def exact_matcher(tool_names: Iterable[str]) -> str | None:
    """The narrowest matcher for exactly these tools, or None (no matcher) for all tools.

    No names, or `*` among them, means every tool. Plain names use Claude Code's exact-list
    syntax (`Bash|Edit`). Any other character makes some client versions read the matcher as
    an unanchored regex, so those lists become an anchored, escaped regex (`^(?:a\\.b|c)$`).
    """
    names = list(dict.fromkeys(tool_names))
    if not names or event_catalog.ALL_TOOLS in names:
        return None
    if "" in names:
        raise ValueError("a tool name cannot be empty")
    if all(_EXACT_NAME.fullmatch(name) for name in names):
        return "|".join(names)
    alternatives = "|".join(_JS_REGEX_SYNTAX.sub(r"\\\g<0>", name) for name in names)
    return f"^(?:{alternatives})$"


def covers(matcher: str | None, tools: tuple[str, ...] | None) -> bool:
    """Whether an entry of `matcher` runs a hook for all of `tools` (None: every tool):
    every tool for none, "" or `*`; else each tool install's matcher names (matcher_names)
    or the matcher matches as the client reads it (matcher_matches: `.*` edited in by hand
    covers all; `(?i)Bash|Read`, no JavaScript regex, covers nothing)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if tools is None:  # every tool: a regex that matches each known one and an MCP tool
        probes = [*event_catalog.known_tool_names(), _MCP_PROBE]
        return not _EXACT_LIST.fullmatch(matcher) and all(
            matcher_matches(matcher, name) for name in probes
        )
    written = matcher.startswith(_ANCHORED_START) and matcher.endswith(_ANCHORED_END)
    named = matcher_names(matcher) if written else []  # install's form, read back exactly
    return all(tool in named or matcher_matches(matcher, tool) for tool in tools)


def matcher_matches(matcher: object, tool: str | None) -> bool:
    """Whether an entry's matcher matches `tool` as Claude Code reads it (None: no tool
    named, as on an event without one; docs/claude-code-facts.md, "Matchers"): no matcher,
    "" or `*`: every tool; only letters, digits, `_`, `|`, `,`, `-` and spaces: a list of
    exact names (exact_names); anything else: a JavaScript regex, tested unanchored
    (install writes anchored ones: exact_matcher). Python's `re` stands in for it; a
    pattern whose meaning differs there (`(?i)`, `\\A`, `(?P<n>`...) is taken to match
    nothing, so a hand-edited matcher is never said to cover what the client skips."""
    if matcher in (None, "", "*"):
        return True
    if tool is None or not isinstance(matcher, str):
        return False
    names = exact_names(matcher)
    if names is not None:
        return tool in names
    if _NOT_JAVASCRIPT.search(matcher):
        return False
    try:
        return re.search(matcher, tool) is not None
    except (re.error, RecursionError):
        return False


def exact_names(matcher: str) -> list[str] | None:
    """The names of a matcher Claude Code reads as an exact list (split on `|` or `,`,
    trimmed), or None when it reads it as a regex."""
    if not _EXACT_LIST.fullmatch(matcher):
        return None
    return [name.strip() for name in re.split(r"[|,]", matcher)]


_EXACT_LIST = re.compile(r"[A-Za-z0-9_|, -]+")
# Python regex syntax JavaScript lacks or reads otherwise: inline flags and other `(?`
# groups than lookarounds and non-capturing ones, \A \Z, possessive quantifiers
_NOT_JAVASCRIPT = re.compile(r"\(\?(?![:=!]|<[=!])|\\[AZ]|[*+?}]\+")
_MCP_PROBE = "mcp__hookman_probe__any_tool"


def matcher_names(matcher: str) -> list[str]:
    """The tool names of a matcher install writes (exact_matcher):
    `Bash|Edit`, or, for a name with any other character, `^(?:a\\.b|Edit)$` with each
    regex character escaped. Another matcher (edited by hand) gives what its `|` parts say."""
    if not (matcher.startswith(_ANCHORED_START) and matcher.endswith(_ANCHORED_END)):
        return matcher.split("|")
    names, current, escaped = [], [], False
    for char in matcher[len(_ANCHORED_START) : -len(_ANCHORED_END)]:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "|":
            names.append("".join(current))
            current = []
        else:
            current.append(char)
    names.append("".join(current))
    return names


_ANCHORED_START, _ANCHORED_END = "^(?:", ")$"


def complement_matcher(tool_names: Iterable[str]) -> str:
    """A matcher for every tool but these: `^(?!(?:Bash|Edit)$).*`, a JavaScript regex that
    Claude Code tests unanchored and Copilot CLI anchors (the trailing `.*` serves it)."""
    alternatives = "|".join(_JS_REGEX_SYNTAX.sub(r"\\\g<0>", name) for name in tool_names)
    return f"^(?!(?:{alternatives})$).*"
