"""The firing log: one JSON line per event handled, size-capped with rotation.

`firing.jsonl` grows to MAX_BYTES, then becomes `firing.jsonl.1` (the older `.1` becomes
`.2`; KEEP_OLD files are kept). Lines are single appends, so concurrent runners interleave
whole lines. Rotation happens under a lock with the size checked again inside it, so runners
that find the log full at the same moment rotate it once, not once each (which would push a
fresh, nearly empty file into `.1` and drop history early). The free-form texts of a record
are capped, so one line never outgrows the cap. The log is only written in a directory no
other user can write (private_dir.py), and never through a symlink or into a FIFO.
"""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.private_dir import make_private_dir
from hookman.bridge.state_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_BYTES = 5 * 1024 * 1024
KEEP_OLD = 2
MAX_OUTPUT_CHARS = 4000  # per free-form text of a record (output, each error, each notice)
TRUNCATED = "... [truncated]"
LOCK_SUFFIX = ".lock"


def append_record(log_path: str, record: Mapping[str, object]) -> None:
    record = _capped(record)
    line = (lean_json.dumps(record, ensure_ascii=False, default=repr) + "\n").encode(
        "utf-8", "replace"
    )
    directory, problem = make_private_dir(os.path.dirname(os.path.abspath(log_path)))
    if problem:  # another user could plant a symlink or a FIFO there: no line at all
        raise OSError(problem)
    log_path = os.path.join(directory, os.path.basename(log_path))
    _rotate_if_full(log_path, len(line))
    descriptor = open_regular(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        os.write(descriptor, line)
    finally:
        os.close(descriptor)


def _capped(record: Mapping[str, object]) -> dict[str, object]:
    capped = dict(record)
    if "output" in record:
        capped["output"] = _cut(record["output"])
    for key in ("errors", "notices"):
        items = record.get(key)
        if isinstance(items, list):
            capped[key] = [
                {name: _cut(value) for name, value in item.items()}
                if isinstance(item, dict)
                else _cut(item)
                for item in items
            ]
    return capped


def _cut(value: object) -> object:
    if isinstance(value, str) and len(value) > MAX_OUTPUT_CHARS:
        return value[:MAX_OUTPUT_CHARS] + TRUNCATED
    return value


def _is_full(log_path: str, incoming: int) -> bool:
    try:
        return os.stat(log_path).st_size + incoming > MAX_BYTES
    except OSError:
        return False


def _rotate_if_full(log_path: str, incoming: int) -> None:
    if not _is_full(log_path, incoming):
        return
    try:
        import fcntl  # only here: rotation is rare, and the module costs most of a millisecond
    except ImportError:  # pragma: no cover - Windows: rotate unlocked
        _rotate(log_path)
        return
    try:
        descriptor = open_regular(f"{log_path}{LOCK_SUFFIX}", os.O_WRONLY | os.O_CREAT)
    except OSError:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if _is_full(log_path, incoming):  # not rotated by another runner meanwhile
            _rotate(log_path)
    finally:
        os.close(descriptor)


def _rotate(log_path: str) -> None:
    try:
        for number in range(KEEP_OLD - 1, 0, -1):
            older = f"{log_path}.{number}"
            if os.path.exists(older):
                os.replace(older, f"{log_path}.{number + 1}")
        os.replace(log_path, f"{log_path}.1")
    except OSError:
        pass  # the log stays as it is; the next append tries again


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
            record = lean_json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records
