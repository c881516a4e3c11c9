"""The firing log as a room: who (each session's main agent and subagents) did what (counts
by event and outcome) and what was refused (the last denies and blocks). Pure: records in,
summary out; `hookman log` renders it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

MAIN_AGENT = "main"
# Which client a record's session belongs to: its `agent` field (written by Codex CLI's
# entries, `--agent codex`), absent for Claude Code's.
CLIENT_NAMES = {"codex": "Codex CLI"}
CLAUDE_CODE = "Claude Code"
REFUSED_OUTCOMES = frozenset({"denied", "blocked", "failed-closed"})
LAST_REFUSALS = 3


@dataclass
class AgentActivity:
    """One agent of a session: how often each event fired, and with which outcomes."""

    agent: str
    events: dict[str, Counter[str]] = field(default_factory=dict)  # event -> outcome counts

    @property
    def total(self) -> int:
        return sum(sum(outcomes.values()) for outcomes in self.events.values())


@dataclass
class SessionRoom:
    session: str
    first_time: str
    last_time: str
    agents: dict[str, AgentActivity] = field(default_factory=dict)  # main first, then by arrival
    clients: list[str] = field(default_factory=list)  # Claude Code, Codex CLI: by arrival
    refusals: list[dict[str, Any]] = field(default_factory=list)  # the last few, oldest first

    @property
    def total(self) -> int:
        return sum(agent.total for agent in self.agents.values())


def agent_of(record: dict[str, Any]) -> str:
    return str(record.get("agent_id") or MAIN_AGENT)


def client_of(record: dict[str, Any]) -> str:
    """The client whose entry wrote the record (Claude Code unless it says otherwise)."""
    agent = record.get("agent")
    if not agent:
        return CLAUDE_CODE
    return CLIENT_NAMES.get(str(agent), str(agent))


def unique_prefixes(ids: Iterable[str], minimum: int) -> dict[str, str]:
    """Each id cut to its shortest prefix of at least `minimum` characters that no other of
    `ids` starts with (the whole id when another one starts with all of it). Codex CLI's
    session ids are time-ordered (UUIDv7): sessions of one day share their first characters."""
    distinct = list(dict.fromkeys(ids))
    prefixes: dict[str, str] = {}
    for one in distinct:
        length = minimum
        for other in distinct:
            if other != one:
                length = max(length, _common_length(one, other) + 1)
        prefixes[one] = one[:length]
    return prefixes


def _common_length(first: str, second: str) -> int:
    length = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        length += 1
    return length


def build_rooms(records: Iterable[dict[str, Any]]) -> list[SessionRoom]:
    """One room per session, ordered by its last activity (the most recent last)."""
    rooms: dict[str, SessionRoom] = {}
    for record in records:
        session = str(record.get("session") or "-")
        time = str(record.get("time") or "")
        room = rooms.get(session)
        if room is None:
            room = rooms[session] = SessionRoom(session, time, time)
        room.last_time = max(room.last_time, time)
        room.first_time = min(room.first_time, time) if room.first_time else time
        client = client_of(record)
        if client not in room.clients:
            room.clients.append(client)
        agent = agent_of(record)
        activity = room.agents.get(agent)
        if activity is None:
            activity = room.agents[agent] = AgentActivity(agent)
        event = str(record.get("event") or "?")
        if record.get("async"):
            event += " (async)"
        outcome = str(record.get("outcome") or "?")
        activity.events.setdefault(event, Counter())[outcome] += 1
        if outcome in REFUSED_OUTCOMES:
            room.refusals = [*room.refusals, record][-LAST_REFUSALS:]
    for room in rooms.values():
        if MAIN_AGENT in room.agents:  # the main agent first, subagents in order of arrival
            room.agents = {MAIN_AGENT: room.agents.pop(MAIN_AGENT), **room.agents}
    return sorted(rooms.values(), key=lambda room: room.last_time)


def refusal_text(record: dict[str, Any]) -> str:
    """Why a call was refused: the reason the agent read, else the error that closed it."""
    reason = record.get("reason")
    if isinstance(reason, str) and reason:
        return reason
    for error in record.get("errors") or []:
        if isinstance(error, dict):
            return f"{error.get('hook')}: {error.get('error')}"
    return "(no reason recorded)"
