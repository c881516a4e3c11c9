"""What the server and a warm worker (serve/worker_loop.py) say to each other over their
socket pair.

A request: one frame, `!I` (the length of the rest), then `!dHH` (when the request arrived,
time.monotonic(); the event's length; the project directory's length), the event, the
project directory and the payload's bytes; sent in one sendmsg together with the write end
of a pipe made for this request alone (SCM_RIGHTS), on which the runner writes its answer
line, so no answer of one event can ever be read as another's.
A run's end: two bytes, the runner's exit code and whether the worker now ends (RETIRING)."""

from __future__ import annotations

import struct

_LENGTH = struct.Struct("!I")
_HEAD = struct.Struct("!dHH")
DONE = struct.Struct("!BB")
FRAME_LIMIT = 64 * 1024  # a larger payload runs in a child forked for it
SOCKET_BUFFER = 4 * FRAME_LIMIT
RETIRING = 1


def encode_request(
    event: str, project_dir: str | None, payload: bytes, received_at: float
) -> bytes:
    event_bytes = event.encode("utf-8")
    project = (project_dir or "").encode("utf-8", "surrogateescape")
    body = _HEAD.pack(received_at, len(event_bytes), len(project)) + event_bytes + project + payload
    return _LENGTH.pack(len(body)) + body


def frame_length(prefix: bytes) -> int:
    """The length of the frame's rest, from its first four bytes."""
    return int(_LENGTH.unpack_from(prefix)[0])


def decode_request(body: bytes) -> tuple[str, str | None, bytes, float]:
    """(event, project directory or None, payload, received_at) of a frame's rest."""
    received_at, event_length, project_length = _HEAD.unpack_from(body)
    start = _HEAD.size
    event = body[start : start + event_length].decode("utf-8")
    start += event_length
    project = body[start : start + project_length].decode("utf-8", "surrogateescape")
    start += project_length
    return event, project or None, body[start:], float(received_at)
