"""The server's warm workers (serve/worker_loop.py), per installed manifest: forked on demand
from the server's warm image, at most `limit` per project (beyond that a request runs in a
child forked for it, as without workers), ended when idle too long. The server never waits
on a worker: its socket is non-blocking and watched by the server's selector.

`HOOKMAN_SERVE_WORKERS` (read when the server starts): the most workers per project; 0 turns
them off (every event in a child forked for it). Unset: the number of CPUs (at most 16)."""

from __future__ import annotations

import contextlib
import os
import socket

from hookman.serve.worker_frame import SOCKET_BUFFER

WORKERS_VARIABLE = "HOOKMAN_SERVE_WORKERS"
IDLE_S = 300.0  # a worker idle this long ends
FINISHING_S = 0.5  # how long a worker that answered is waited for, at most (Workers.finishing)
DEFAULT_LIMIT_CAP = 16  # unset: one per CPU, at most this many per project


def worker_limit() -> int:
    text = os.environ.get(WORKERS_VARIABLE, "").strip()
    if text.isdigit():
        return min(int(text), 64)
    return min(max(os.cpu_count() or 1, 1), DEFAULT_LIMIT_CAP)


class Worker:
    __slots__ = (
        "answered_at",
        "connection",
        "deadline",
        "idle_since",
        "inbox",
        "manifest",
        "pid",
        "sock",
        "watched",
    )

    def __init__(self, pid: int, sock: socket.socket, manifest: str, now: float) -> None:
        self.pid = pid
        self.sock = sock
        self.manifest = manifest
        self.connection: object = None  # the connection waiting for this worker's run's end
        self.idle_since: float | None = now  # None: running an event
        self.answered_at: float | None = None  # its run's answer went out; it logs and ends it
        self.deadline = 0.0  # its run's hard deadline (time.monotonic()), answered or not
        self.inbox = bytearray()
        # Registered with the server's selector. Not once its run's answer went out: the end
        # of that run is collected when the project's next request comes, or at the loop's
        # next tick (one wakeup less per event).
        self.watched = False

    @property
    def busy(self) -> bool:
        return self.idle_since is None


class Workers:
    """The live workers by manifest, by pid and by socket descriptor."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.by_manifest: dict[str, list[Worker]] = {}
        self.by_fd: dict[int, Worker] = {}
        self.by_pid: dict[int, Worker] = {}

    def idle(self, manifest: str) -> Worker | None:
        for worker in self.by_manifest.get(manifest, ()):
            if not worker.busy:
                return worker
        return None

    def finishing(self, manifest: str, now: float, waiting: int) -> bool:
        """Whether more than `waiting` workers of the project have given their run's answer
        within FINISHING_S and only log and end the run now: a request waits for one of them
        (free in a fraction of a millisecond) rather than start a worker of its own, which
        would share the CPUs with it and run colder. One stuck after its answer stops being
        waited for after FINISHING_S."""
        answered = 0
        for worker in self.by_manifest.get(manifest, ()):
            since = worker.answered_at
            if worker.busy and since is not None and now - since <= FINISHING_S:
                answered += 1
        return answered > waiting

    def can_start(self, manifest: str) -> bool:
        return len(self.by_manifest.get(manifest, ())) < self.limit

    def add(self, worker: Worker) -> None:
        self.by_manifest.setdefault(worker.manifest, []).append(worker)
        self.by_fd[worker.sock.fileno()] = worker
        self.by_pid[worker.pid] = worker

    def fds(self) -> list[int]:
        return list(self.by_fd)

    def drop(self, worker: Worker) -> None:
        """Take the worker out of the pool and close its socket (a live worker reads the
        end of its socket and ends); its pid is reaped by the server."""
        listed = self.by_manifest.get(worker.manifest)
        if listed is not None and worker in listed:
            listed.remove(worker)
            if not listed:
                del self.by_manifest[worker.manifest]
        descriptor = worker.sock.fileno()
        if descriptor >= 0 and self.by_fd.get(descriptor) is worker:
            del self.by_fd[descriptor]
        with contextlib.suppress(OSError):
            worker.sock.close()

    def unwaited_past_deadline(self, now: float) -> list[Worker]:
        """The workers whose run still runs past its hard deadline while no request waits
        for it (it gave its answer, or its client left): a hook's code that hangs after the
        answer (a replaced stream's flush, a finalizer) would hold the worker for ever."""
        return [
            worker
            for worker in self.by_fd.values()
            if worker.busy and worker.connection is None and worker.deadline < now
        ]

    def idle_past(self, now: float, seconds: float = IDLE_S) -> list[Worker]:
        return [
            worker
            for worker in self.by_fd.values()
            if worker.idle_since is not None and now - worker.idle_since > seconds
        ]

    def all(self) -> list[Worker]:
        return list(self.by_fd.values())

    def unwatched(self, manifest: str | None = None) -> list[Worker]:
        """The workers whose run's end is not watched for (of one project, or all)."""
        pool = self.by_fd.values() if manifest is None else self.by_manifest.get(manifest, ())
        return [worker for worker in pool if not worker.watched]


def socket_pair() -> tuple[socket.socket, socket.socket]:
    """(the server's end, the worker's end), with room for a whole request frame."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.suppress(OSError):
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        theirs.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKET_BUFFER)
    return ours, theirs
