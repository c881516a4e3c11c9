"""Per-session state under the manifest's state_dir (ARCHITECTURE.md, "Per-project state"):
the send_message queue, append_entry records and set_status texts.

Appends are single small writes in append mode, so concurrent runners need no lock;
status.json is replaced atomically; the queue is claimed by renaming it away.
"""

from __future__ import annotations

import json
import os
import time

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
            self._append(self.queue_path, "".join(lines))

    def drain_messages(self) -> list[str]:
        """Take every queued text, oldest first; the queue is empty afterwards."""
        claimed = f"{self.queue_path}.{os.getpid()}.draining"
        try:
            os.replace(self.queue_path, claimed)
        except OSError:
            return []
        try:
            with open(claimed, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        finally:
            _remove_quietly(claimed)
        texts = []
        for line in lines:
            try:
                record = json.loads(line)
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
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(statuses, handle, ensure_ascii=False, sort_keys=True)
        os.replace(temporary, self.status_path)

    def _append(self, path: str, text: str) -> None:
        os.makedirs(self.directory, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(descriptor, text.encode("utf-8", "replace"))
        finally:
            os.close(descriptor)


def read_status_file(path: str) -> dict[str, str]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(key): value for key, value in data.items() if isinstance(value, str)}


def _json_line(record: dict[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False, default=repr) + "\n"


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
