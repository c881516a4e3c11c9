"""Per-session state under the manifest's state_dir (ARCHITECTURE.md, "Per-project state"):
the send_message queue, append_entry records and set_status texts.

Appends are single small writes in append mode; status.json is replaced atomically; the
queue is claimed by renaming it away. Claiming races with appending (a runner that opened the
queue just before another renamed it would append to the claimed file after it was read),
so queue writers and the claimer take a lock on the file (flock) and a writer whose file was
claimed meanwhile appends to the new queue instead. The runner checks the state directory
before any of this (private_dir.py); the files are still opened without following a symlink
or waiting on a FIFO (state_file.py).
"""

from __future__ import annotations

import os
import time

from hookman.bridge import lean_json
from hookman.bridge.state_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_MAX_NAME = 100
UNKNOWN_SESSION = "unknown"


def session_dir_name(session_id: object) -> str:
    """A file-name-safe form of a session id (`..`, `/` and friends cannot escape)."""
    if not isinstance(session_id, str) or not session_id:
        return UNKNOWN_SESSION
    name = "".join(char if char in _SAFE else "_" for char in session_id)[:_MAX_NAME]
    return UNKNOWN_SESSION if set(name) <= {"."} else name


def now_iso() -> str:
    seconds = time.time()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return f"{stamp}.{int(seconds % 1 * 1000):03d}Z"


class SessionState:
    """The files of one session of one project."""

    def __init__(self, state_dir: str, session_id: object) -> None:
        self.directory = os.path.join(state_dir, "sessions", session_dir_name(session_id))

    @property
    def queue_path(self) -> str:
        return os.path.join(self.directory, "queue.jsonl")

    @property
    def entries_path(self) -> str:
        return os.path.join(self.directory, "entries.jsonl")

    @property
    def status_path(self) -> str:
        return os.path.join(self.directory, "status.json")

    def enqueue_messages(self, texts: list[str], event: str) -> None:
        if texts:
            stamp = now_iso()
            lines = [_json_line({"time": stamp, "event": event, "text": text}) for text in texts]
            os.makedirs(self.directory, exist_ok=True)
            _append_to_queue(self.queue_path, "".join(lines).encode("utf-8", "replace"))

    def drain_messages(self) -> list[str]:
        """Take every queued text, oldest first; the queue is empty afterwards."""
        claimed = f"{self.queue_path}.{os.getpid()}.draining"
        try:
            os.replace(self.queue_path, claimed)
        except OSError:
            return []
        try:
            lines = _read_claimed(claimed).decode("utf-8", "replace").splitlines()
        finally:
            _remove_quietly(claimed)
        texts = []
        for line in lines:
            try:
                record = lean_json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("text"), str):
                texts.append(record["text"])
        return texts

    def append_entry(self, custom_type: object, data: object, event: str) -> None:
        record = {"time": now_iso(), "event": event, "custom_type": custom_type, "data": data}
        self._append(self.entries_path, _json_line(record))

    def read_statuses(self) -> dict[str, str]:
        return read_status_file(self.status_path)

    def write_statuses(self, statuses: dict[str, str]) -> None:
        os.makedirs(self.directory, exist_ok=True)
        temporary = f"{self.status_path}.{os.getpid()}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with open(open_regular(temporary, flags), "w", encoding="utf-8") as handle:
            handle.write(lean_json.dumps(statuses, ensure_ascii=False, sort_keys=True))
        os.replace(temporary, self.status_path)

    def _append(self, path: str, text: str) -> None:
        os.makedirs(self.directory, exist_ok=True)
        descriptor = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            os.write(descriptor, text.encode("utf-8", "replace"))
        finally:
            os.close(descriptor)


def _append_to_queue(path: str, data: bytes) -> None:
    """Append under the queue's lock, to the file that is the queue when the lock is held."""
    lock = _flock()
    while True:
        descriptor = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            if lock is not None:
                lock(descriptor)
                if not _is_current(descriptor, path):
                    continue  # claimed while we waited: the queue is a new file now
            os.write(descriptor, data)
            return
        finally:
            os.close(descriptor)  # releases the lock


def _read_claimed(path: str) -> bytes:
    """The claimed queue's bytes, once any writer that opened it before the claim is done."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        lock = _flock()
        if lock is not None:
            lock(descriptor)
        chunks = []
        while chunk := os.read(descriptor, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _is_current(descriptor: int, path: str) -> bool:
    try:
        on_disk = os.stat(path)
    except OSError:
        return False
    opened = os.fstat(descriptor)
    return (opened.st_dev, opened.st_ino) == (on_disk.st_dev, on_disk.st_ino)


def _flock() -> Callable[[int], None] | None:
    """An exclusive-lock function, or None where there is no flock (imported lazily: the
    module costs most of a millisecond, and most runs never touch a queue)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return None
    return lambda descriptor: fcntl.flock(descriptor, fcntl.LOCK_EX)


def read_status_file(path: str) -> dict[str, str]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = lean_json.loads(handle.read())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(key): value for key, value in data.items() if isinstance(value, str)}


def _json_line(record: dict[str, object]) -> str:
    return lean_json.dumps(record, ensure_ascii=False, default=repr) + "\n"


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
