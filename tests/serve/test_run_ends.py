"""The server hears the end of a warm worker's run without waking for it where nothing waits
(serve/server.py): once the run's answer went out, the worker's socket is no longer watched;
the end is collected when the project's next request comes or at the loop's next tick. A
request never starts a second worker, nor waits in the queue, for a run that has ended
unheard; a request that waits keeps the worker watched. Driven in process, with socket pairs
for the workers and the client."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator

import pytest

from hookman.serve.server import Connection, Server, bind_listener
from hookman.serve.worker_frame import DONE
from hookman.serve.workers import Worker

MANIFEST = "/state/projects/p/manifest.json"


class _Pair:
    """A worker the server holds (its end) and the worker's own end, which the test speaks
    for."""

    def __init__(self, server: Server, *, answered: float | None) -> None:
        ours, self.theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours.setblocking(False)
        self.worker = Worker(2**22 + 1, ours, MANIFEST, time.monotonic())  # no such process
        self.worker.idle_since = None  # running (its answer given at `answered`)
        self.worker.answered_at = answered
        server.workers.add(self.worker)

    def ended(self) -> None:
        self.theirs.sendall(DONE.pack(0, 0))

    def frame_received(self) -> bool:
        self.theirs.setblocking(False)
        try:
            data, fds, _flags, _address = socket.recv_fds(self.theirs, 1 << 17, 1)
        except BlockingIOError:
            return False
        for descriptor in fds:  # the answer pipe's write end
            os.close(descriptor)
        return bool(data) and len(fds) == 1


@pytest.fixture
def server() -> Iterator[Server]:
    listener = bind_listener(0)
    served = Server(listener, b"0" * 64)
    served.workers.limit = 1  # never a worker of its own: the test's pair is the only one
    yield served
    for worker in served.workers.all():
        served.workers.drop(worker)
    for connection in list(served.connections.values()):
        connection.sock.close()
    listener.close()


def _request(server: Server) -> tuple[Connection, socket.socket]:
    client, ours = socket.socketpair()
    ours.setblocking(False)
    connection = Connection(ours, time.monotonic())
    connection.event = "PreToolUse"
    connection.guarded = True
    server.connections[ours.fileno()] = connection
    return connection, client


def test_a_run_that_ended_unheard_takes_the_next_request(server: Server) -> None:
    pair = _Pair(server, answered=time.monotonic() - 5)  # long past FINISHING_S
    pair.ended()  # while the server did not watch its socket
    connection, _client = _request(server)
    assert server._to_worker(connection, MANIFEST, b"{}", 5.0)
    assert connection.worker is pair.worker  # not queued behind a run that ended
    assert pair.frame_received()


def test_a_request_queued_behind_a_running_worker_watches_it(server: Server) -> None:
    pair = _Pair(server, answered=time.monotonic())  # answered, still logging
    assert not pair.worker.watched
    connection, _client = _request(server)
    assert server._to_worker(connection, MANIFEST, b"{}", 5.0)
    assert connection.worker is None and connection.state == "queued"
    assert pair.worker.watched  # its end wakes the loop, which gives it the queued request
    pair.ended()
    server._read_worker(pair.worker.sock.fileno())
    assert connection.worker is pair.worker
    assert pair.frame_received()


def test_the_tick_collects_an_ended_run_and_watches_a_running_one(server: Server) -> None:
    ended = _Pair(server, answered=time.monotonic() - 5)
    ended.ended()
    running = _Pair(server, answered=time.monotonic() - 5)
    server._tick(time.monotonic())
    assert not ended.worker.busy and not ended.worker.watched
    assert running.worker.busy and running.worker.watched


def test_an_answer_leaves_its_worker_watched_while_a_request_waits(server: Server) -> None:
    pair = _Pair(server, answered=None)
    pair.worker.watched = True
    server.selector.register(pair.worker.sock, 1, "worker")
    answered, client = _request(server)
    answered.worker = pair.worker
    pair.worker.connection = answered
    answered.answer += b"{}\n"
    waiting, _other = _request(server)
    server._queue(waiting, MANIFEST, b"{}", 5.0)
    server._answer_early(answered)
    assert client.recv(4096).endswith(b"{}")  # the answer went out
    assert pair.worker.watched  # the queued request moves when the run ends

    server.queues.clear()
    second, second_client = _request(server)
    second.worker = pair.worker
    pair.worker.connection = second
    second.answer += b"{}\n"
    server._answer_early(second)
    assert second_client.recv(4096).endswith(b"{}")
    assert not pair.worker.watched  # nothing waits: no wakeup for the run's end
