"""`hookman log`: the firing log of the current project (`--all`: every project) as a room
view, a summary per session and agent with counts by event and outcome and the last denies,
followed by the most recent lines; filtered by session, agent (`main` = the main agent) and
event. `--follow` keeps the view live on a terminal and streams new lines when piped;
`--json` prints the records themselves (`FiringRecordJson`, hookman/json_shapes.py)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hookman import paths
from hookman.bridge.firing_log import line_needle, parse_lines, read_records, tail_records
from hookman.bridge.manifest_reader import ManifestError, read_manifest
from hookman.commands.log_room import (
    MAIN_AGENT,
    agent_of,
    build_rooms,
    refusal_text,
    unique_prefixes,
)
from hookman.commands.options import JSON, PROJECT, Option, cli_command
from hookman.errors import HookmanError
from hookman.output import console, escape, print_json
from hookman.project.location import find_project_dir

POLL_SECONDS = 0.5
MAX_SESSIONS = 5
SESSION_CHARS = 8
LIVE_TAIL = 10
_OUTCOME_STYLE = {
    "ok": "green",
    "denied": "yellow",
    "blocked": "yellow",
    "errors": "red",
    "failed-closed": "red",
    "timeout": "red",
    "internal-error": "red",
    "no-manifest": "red",
}


class RecordFilter:
    def __init__(
        self,
        *,
        project: str | None = None,
        session: str | None = None,
        agent: str | None = None,
        event: str | None = None,
    ) -> None:
        self.project = project
        self.session = session
        self.agent = agent
        self.event = event

    def matches(self, record: dict[str, Any]) -> bool:
        if self.project is not None and record.get("project") != self.project:
            return False
        if self.session is not None and not str(record.get("session") or "").startswith(
            self.session
        ):
            return False
        if self.agent is not None and (record.get("agent_id") or MAIN_AGENT) != self.agent:
            return False
        return self.event is None or record.get("event") == self.event


@cli_command(
    "log",
    Option(
        "--follow",
        "-f",
        flag=True,
        help="Stay open: a live view on a terminal, new lines when piped.",
    ),
    Option(
        "-n", "--lines", metavar="N", type="int", show_default=True, help="How many recent lines."
    ),
    Option("--session", metavar="ID", help="Only this session (a prefix)."),
    Option("--agent", metavar="ID", help="Only this agent id ('main' for the main agent)."),
    Option("--event", metavar="EVENT", complete="events", help="Only this event."),
    Option(
        "--all",
        dest="all_projects",
        flag=True,
        help="Every project's lines, not only this project's.",
    ),
    PROJECT,
    JSON,
    help="""The firing log as a room: per session and agent, counts by event and outcome, the
    last denies, then the latest lines (this project; --all for every project).""",
    examples=("hookman log -n 50", "hookman log --follow --event PreToolUse"),
)
def show_log(
    *,
    follow: bool = False,
    lines: int = 20,
    session: str | None = None,
    agent: str | None = None,
    event: str | None = None,
    project: Path | None = None,
    all_projects: bool = False,
    json_output: bool = False,
    follow_seconds: float | None = None,
) -> int:
    """Show the current project's firing log (every project's with `all_projects`).

    `--json` prints the last `lines` matching records (`FiringRecordJson`) as a JSON array
    (with --follow: one record per line, then each new one). `follow_seconds` bounds
    --follow (tests); by default it runs until interrupted.
    """
    if lines < 0:
        raise HookmanError("-n must be 0 or more.", "use -n 50 for the last 50 lines.", exit_code=2)
    if all_projects and project is not None:
        raise HookmanError(
            "--all shows every project, so it cannot be combined with --project.",
            "drop one of them: `hookman log --all` or `hookman log --project DIR`.",
            exit_code=2,
        )
    project_dir = None if all_projects else find_project_dir(project)
    log_path = _log_path(project_dir)
    record_filter = RecordFilter(
        project=str(project_dir) if project_dir else None,
        session=session,
        agent=agent,
        event=event,
    )
    needle = line_needle(str(project_dir)) if project_dir else ""
    if json_output:  # the last lines alone: read from the end of the log
        recent = tail_records(log_path, lines, record_filter.matches, needle)
        if not follow:
            print_json(recent)
            return 0
        for record in recent:
            _print_record(record, json_output=True)
        _follow(log_path, record_filter, follow_seconds, _streamer(json_output=True))
        return 0
    scope = f"project {project_dir}" if project_dir else "all projects"
    if follow and not console().is_terminal:
        for record in tail_records(log_path, lines, record_filter.matches, needle):
            _print_record(record, json_output=False)
        _follow(log_path, record_filter, follow_seconds, _streamer(json_output=False))
        return 0
    # The room counts every matching line; a project's are found without parsing the others.
    records = [r for r in read_records(log_path, needle) if record_filter.matches(r)]
    if follow:
        _follow_live(records, lines, scope, log_path, record_filter, follow_seconds)
        return 0
    recent = records[-lines:] if lines else []
    _print_room(records, recent, scope, log_path, show_all_hint=project_dir is not None)
    return 0


def _print_room(
    records: list[dict[str, Any]],
    recent: list[dict[str, Any]],
    scope: str,
    log_path: str,
    *,
    show_all_hint: bool,
) -> None:
    out = console()
    if not records:
        out.print(f"no matching lines for {escape(scope)} in {escape(log_path)}.", highlight=False)
        if show_all_hint:
            out.print("  `hookman log --all` shows every project.", highlight=False)
        return
    recent_sessions = [_session_of(record) for record in recent]
    for line in room_lines(records, scope, also_shown=recent_sessions):
        out.print(line, highlight=False)
    if recent:
        shown = {room.session for room in build_rooms(records)[-MAX_SESSIONS:]}
        prefixes = unique_prefixes([*shown, *recent_sessions], SESSION_CHARS)
        out.print(f"\n[bold]last {len(recent)} lines[/]", highlight=False)
        for record in recent:
            _print_record(record, json_output=False, session=prefixes[_session_of(record)])


def room_lines(
    records: list[dict[str, Any]], scope: str, *, also_shown: Iterable[str] = ()
) -> list[str]:
    """The room view as rich markup lines: a header, then per session its client (Claude
    Code, Codex CLI), its agents' counts and its last denies. Only the most recent sessions
    are shown in full, each by a prefix of its id unique among those shown (and
    `also_shown`, the sessions of the lines printed after it)."""
    rooms = build_rooms(records)
    shown = rooms[-MAX_SESSIONS:]
    lines = [
        f"[bold]{escape(scope)}[/]: {_count(len(records), 'event')} in "
        f"{_count(len(rooms), 'session')}"
    ]
    if len(rooms) > len(shown):
        lines.append(
            f"[dim]{len(rooms) - len(shown)} older sessions not shown "
            "(`hookman log --session ID` shows one)[/]"
        )
    sessions = unique_prefixes([*(room.session for room in shown), *also_shown], SESSION_CHARS)
    for room in shown:
        lines.append("")
        lines.append(
            f"[bold]session {escape(sessions[room.session])}[/]  "
            f"{escape(' + '.join(room.clients))}  "
            f"{escape(_clock(room.first_time))} - {escape(_clock(room.last_time))}  "
            f"{_count(room.total, 'event')}"
        )
        labels = _agent_labels(room.agents)
        width = max(len(label) for label in labels.values())
        for name, activity in room.agents.items():
            counts = "  ".join(
                f"{escape(event)} {_styled_counts(outcomes)}"
                for event, outcomes in activity.events.items()
            )
            lines.append(f"  {escape(labels[name].ljust(width))}  {counts}")
        if room.refusals:
            lines.append("  [bold]last denies[/]")
        for record in room.refusals:
            outcome = str(record.get("outcome"))
            lines.append(
                f"    {escape(_clock(str(record.get('time') or '')))}  "
                f"{escape(labels[agent_of(record)])}  {escape(str(record.get('event')))}  "
                f"[{_OUTCOME_STYLE.get(outcome, 'yellow')}]{escape(outcome)}[/]  "
                f"{escape(_one_line(refusal_text(record)))}"
            )
    return lines


def _styled_counts(outcomes: Any) -> str:
    total = sum(outcomes.values())
    parts = ", ".join(
        f"{count} [{_OUTCOME_STYLE.get(outcome, 'default')}]{escape(outcome)}[/]"
        for outcome, count in outcomes.most_common()
    )
    return f"{total} ({parts})"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _agent_labels(agents: Iterable[str]) -> dict[str, str]:
    """Each agent's label: `main`, or `agent` and a prefix of its id unique in the room."""
    names = list(agents)
    prefixes = unique_prefixes((name for name in names if name != MAIN_AGENT), SESSION_CHARS)
    return {name: name if name == MAIN_AGENT else f"agent {prefixes[name]}" for name in names}


def _clock(time_text: str) -> str:
    """`2026-11-30T05:00:00.000Z` -> `2026-11-30 05:00:00`."""
    return time_text[:19].replace("T", " ") if time_text else "?"


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _streamer(*, json_output: bool) -> Callable[[dict[str, Any]], None]:
    return lambda record: _print_record(record, json_output=json_output)


def _follow_live(
    records: list[dict[str, Any]],
    lines: int,
    scope: str,
    log_path: str,
    record_filter: RecordFilter,
    seconds: float | None,
) -> None:
    """The room view, redrawn in place as records arrive (rich Live), on a terminal."""
    from rich.console import Group
    from rich.live import Live
    from rich.text import Text

    seen = list(records)

    def view() -> Group:
        if not seen:
            parts = [Text(f"no lines yet for {scope} in {log_path}; waiting...")]
        else:
            parts = [Text.from_markup(line) for line in room_lines(seen, scope)]
        tail = seen[-min(lines, LIVE_TAIL) :] if lines else []
        if tail:
            parts.append(Text.from_markup(f"\n[bold]last {len(tail)} lines[/]"))
            parts.extend(Text(format_record(record)) for record in tail)
        return Group(*parts)

    with Live(view(), console=console(), auto_refresh=False) as live:

        def add(record: dict[str, Any]) -> None:
            seen.append(record)
            live.update(view(), refresh=True)

        _follow(log_path, record_filter, seconds, add)


def _log_path(project_dir: Path | None) -> str:
    if project_dir is not None:
        try:
            manifest = read_manifest(str(paths.manifest_path(project_dir)))
        except ManifestError:
            pass
        else:
            if manifest.log_path:
                return manifest.log_path
    return str(paths.firing_log_path())


def _follow(
    log_path: str,
    record_filter: RecordFilter,
    seconds: float | None,
    on_record: Callable[[dict[str, Any]], None],
) -> None:
    """Poll the file for appended lines and hand each matching record to `on_record`;
    start over when the file was rotated."""
    identity, offset = _file_state(log_path)
    ends_at = None if seconds is None else time.monotonic() + seconds
    try:
        while ends_at is None or time.monotonic() < ends_at:
            remaining = POLL_SECONDS if ends_at is None else ends_at - time.monotonic()
            time.sleep(max(0.0, min(POLL_SECONDS, remaining)))
            current_identity, size = _file_state(log_path)
            if current_identity != identity or size < offset:
                identity, offset = current_identity, 0
            if size <= offset:
                continue
            with open(log_path, "rb") as handle:
                handle.seek(offset)
                chunk = handle.read()
            complete = chunk[: chunk.rfind(b"\n") + 1]
            offset += len(complete)
            for record in parse_lines(complete.decode("utf-8", "replace").splitlines()):
                if record_filter.matches(record):
                    on_record(record)
    except KeyboardInterrupt:
        return


def _file_state(path: str) -> tuple[tuple[int, int] | None, int]:
    try:
        stat = os.stat(path)
    except OSError:
        return None, 0
    return (stat.st_dev, stat.st_ino), stat.st_size


def format_record(record: dict[str, Any], *, session: str | None = None) -> str:
    """One plain line: time, event, outcome, duration, session/agent, hooks. `session`: the
    session's id as shown (a prefix unique among those on screen; default its first
    SESSION_CHARS characters)."""
    session = session or _session_of(record)[:SESSION_CHARS]
    agent = record.get("agent_id") or MAIN_AGENT
    hooks = ",".join(str(name) for name in record.get("hooks") or []) or "-"
    duration = record.get("duration_ms")
    took = f"{duration:.0f}ms" if isinstance(duration, (int, float)) else "?"
    event = f"{record.get('event', '?')} (async)" if record.get("async") else record.get("event")
    return (
        f"{record.get('time', '?')}  {event or '?'}  {record.get('outcome', '?')}  "
        f"{took}  session {session}  agent {agent}  hooks {hooks}"
    )


def _session_of(record: dict[str, Any]) -> str:
    return str(record.get("session") or "-")


def _print_record(record: dict[str, Any], *, json_output: bool, session: str | None = None) -> None:
    if json_output:
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    out = console()
    line = escape(format_record(record, session=session))
    outcome = str(record.get("outcome", ""))
    style = _OUTCOME_STYLE.get(outcome)
    if style:
        line = line.replace(f"  {escape(outcome)}  ", f"  [{style}]{escape(outcome)}[/]  ", 1)
    out.print(line, highlight=False)
    for error in record.get("errors") or []:
        if isinstance(error, dict):
            text = f"    ! {error.get('hook')} ({error.get('event')}): {error.get('error')}"
            out.print(escape(text.rstrip()), highlight=False)
    for notice in record.get("notices") or []:
        out.print(escape(f"    note: {notice}"), highlight=False)
    output = record.get("output")
    if isinstance(output, str) and output.strip():
        for output_line in output.rstrip("\n").splitlines()[:5]:
            out.print(escape(f"    > {output_line}"), highlight=False)
