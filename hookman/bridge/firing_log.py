"""The firing log: one JSON line per event handled, size-capped with rotation.

`firing.jsonl` grows to MAX_BYTES, then becomes `firing.jsonl.1` (the older `.1` becomes
`.2`; KEEP_OLD files are kept). Lines are single appends, so concurrent runners interleave
whole lines.
"""

from __future__ import annotations

import json
import os

MAX_BYTES = 5 * 1024 * 1024
KEEP_OLD = 2
MAX_OUTPUT_CHARS = 4000


def append_record(log_path: str, record: dict[str, object]) -> None:
    output = record.get("output")
    if isinstance(output, str) and len(output) > MAX_OUTPUT_CHARS:
        record = {**record, "output": output[:MAX_OUTPUT_CHARS] + "... [truncated]"}
    line = (json.dumps(record, ensure_ascii=False, default=repr) + "\n").encode("utf-8", "replace")
    directory = os.path.dirname(log_path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    _rotate_if_full(log_path, len(line))
    descriptor = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(descriptor, line)
    finally:
        os.close(descriptor)


def _rotate_if_full(log_path: str, incoming: int) -> None:
    try:
        size = os.stat(log_path).st_size
    except OSError:
        return
    if size + incoming <= MAX_BYTES:
        return
    try:
        for number in range(KEEP_OLD - 1, 0, -1):
            older = f"{log_path}.{number}"
            if os.path.exists(older):
                os.replace(older, f"{log_path}.{number + 1}")
        os.replace(log_path, f"{log_path}.1")
    except OSError:
        pass  # another runner rotated first


def log_files(log_path: str) -> list[str]:
    """The log's files that exist, oldest first."""
    candidates = [f"{log_path}.{number}" for number in range(KEEP_OLD, 0, -1)] + [log_path]
    return [path for path in candidates if os.path.isfile(path)]


def read_records(log_path: str) -> list[dict[str, object]]:
    """Every readable record, oldest first; lines that are not JSON objects are skipped."""
    records: list[dict[str, object]] = []
    for path in log_files(log_path):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                records.extend(parse_lines(handle.read().splitlines()))
        except OSError:
            continue
    return records


def parse_lines(lines: list[str]) -> list[dict[str, object]]:
    records = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records
