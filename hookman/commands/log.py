"""`hookman log`: the firing log, one line per event hookman handled, filtered by project,
session, agent (`main` = the main agent) and event; `--follow` keeps printing new lines."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from hookman import paths
from hookman.bridge.firing_log import parse_lines, read_records
from hookman.bridge.manifest_reader import ManifestError, read_manifest
from hookman.cli.output import console, escape, print_json
from hookman.errors import HookmanError
from hookman.project import find_project_dir

MAIN_AGENT = "main"
POLL_SECONDS = 0.5
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


def show_log(
    *,
    follow: bool = False,
    lines: int = 20,
    session: str | None = None,
    agent: str | None = None,
    event: str | None = None,
    project: Path | None = None,
    json_output: bool = False,
    follow_seconds: float | None = None,
) -> int:
    """Print the last `lines` matching records (all projects unless --project is given).

    `follow_seconds` bounds --follow (tests); by default it runs until interrupted.
    """
    if lines < 0:
        raise HookmanError("-n must be 0 or more.", "use -n 50 for the last 50 lines.", exit_code=2)
    project_dir = find_project_dir(project) if project is not None else None
    log_path = _log_path(project_dir)
    record_filter = RecordFilter(
        project=str(project_dir) if project_dir else None,
        session=session,
        agent=agent,
        event=event,
    )
    records = [record for record in read_records(log_path) if record_filter.matches(record)]
    recent = records[-lines:] if lines else []
    if json_output and not follow:
        print_json(recent)
        return 0
    for record in recent:
        _print_record(record, json_output)
    if not follow and not recent:
        console().print(f"no matching lines in {escape(log_path)}.")
    if follow:
        _follow(log_path, record_filter, json_output, follow_seconds)
    return 0


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
    log_path: str, record_filter: RecordFilter, json_output: bool, seconds: float | None
) -> None:
    """Poll the file for appended lines; start over when it was rotated."""
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
                    _print_record(record, json_output)
    except KeyboardInterrupt:
        return


def _file_state(path: str) -> tuple[tuple[int, int] | None, int]:
    try:
        stat = os.stat(path)
    except OSError:
        return None, 0
    return (stat.st_dev, stat.st_ino), stat.st_size


def format_record(record: dict[str, Any]) -> str:
    """One plain line: time, event, outcome, duration, session/agent, hooks."""
    session = str(record.get("session") or "-")[:8]
    agent = record.get("agent_id") or MAIN_AGENT
    hooks = ",".join(str(name) for name in record.get("hooks") or []) or "-"
    duration = record.get("duration_ms")
    took = f"{duration:.0f}ms" if isinstance(duration, (int, float)) else "?"
    event = f"{record.get('event', '?')} (async)" if record.get("async") else record.get("event")
    return (
        f"{record.get('time', '?')}  {event or '?'}  {record.get('outcome', '?')}  "
        f"{took}  session {session}  agent {agent}  hooks {hooks}"
    )


def _print_record(record: dict[str, Any], json_output: bool) -> None:
    if json_output:
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    out = console()
    line = escape(format_record(record))
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
