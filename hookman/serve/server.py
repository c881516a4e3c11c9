"""The warm server's loop: one thread, a selector over the listening socket, the connections,
the children's answer pipes and a wakeup pipe for SIGCHLD.

Per request: read it without blocking (a read deadline per connection: a client that sends
slowly is cut off, never waited for), check the project's token (401 otherwise), fork a child
that runs the runner's own code (bridge/serve_child.py) and keep the connection until the
child ends or its hard deadline passes; then answer (serve/answers.py). The parent never
blocks on a child, so a hook that hangs stalls only its own request."""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import selectors
import signal
import socket
import sys
import time
from typing import Any, Protocol

from hookman import __version__
from hookman.bridge import lean_json
from hookman.bridge.firing_log import append_record
from hookman.bridge.served_record import served_record
from hookman.serve import wire
from hookman.serve.answers import (
    EMPTY,
    child_body,
    failure_body,
    failure_reason,
    status_problem,
)
from hookman.serve.http_request import BAD, COMPLETE, Request, RequestReader
from hookman.serve.manifest_facts import ManifestFacts
from hookman.serve.worker_frame import DONE, FRAME_LIMIT, RETIRING, encode_request
from hookman.serve.workers import Worker, Workers, socket_pair, worker_limit

READ_DEADLINE_S = 10.0  # from accept to the request's last byte
WRITE_DEADLINE_S = 10.0
CONNECTION_LIMIT = 512
BACKLOG = 128
RECV_SIZE = 256 * 1024
NONCE_LIMIT = 128
SECRET_CHECK_S = 1.0  # how often the secret's file is read again (it is replaced rarely)
# How often the loop reaps, collects runs' ends without being woken for them, and tends the
# port keeper (serve/keeper.py: the keeper's own loop looks at the opt-in then).
TICK_S = 1.0
REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    411: "Length Required",
    413: "Content Too Large",
    431: "Request Header Fields Too Large",
    503: "Service Unavailable",
}
_READING, _WAITING, _WRITING = "reading", "waiting", "writing"
_QUEUED = "queued"  # for a worker of its project
# Once told to stop, how long the runs under way may take before their process groups are
# killed (each hook's own processes too) and their requests answered: `hookman serve stop`
# kills the server itself after lifecycle.STOP_WAIT_S (5 s), which would leave them running.
STOP_GRACE_S = 2.0
# How long a request waits for a busy worker of its project before a child is forked for
# it (a worker that hangs holds its requests no longer than this), and how many may wait.
QUEUE_WAIT_S = 0.25
QUEUE_LIMIT = 256
# Linux: accept a connection only once its first bytes came (TCP_DEFER_ACCEPT). A client that
# connects and then writes (Claude Code does) would otherwise wake the loop twice per
# request: for the connection, then for its data. Every client of the server speaks first;
# one that sends nothing is accepted after this many seconds, and read as any other.
DEFER_ACCEPT_S = 5


class Tended(Protocol):
    """What the loop asks of the port keeper it tends (serve/keeper.py Keeper)."""

    def tend(self) -> None: ...

    def descriptors(self) -> tuple[int, ...]: ...


class Connection:
    __slots__ = (
        "answer",
        "child",
        "deadline",
        "event",
        "guarded",
        "head_checked",
        "manifest",
        "out",
        "pending",
        "pipe",
        "project_dir",
        "reader",
        "received_at",
        "sock",
        "state",
        "status",
        "watched",
        "worker",
    )

    def __init__(self, sock: socket.socket, now: float) -> None:
        self.sock = sock
        self.reader = RequestReader()
        self.head_checked = False  # the token is checked once the head is read (_may_ask)
        self.state = _READING
        self.deadline = now + READ_DEADLINE_S
        self.received_at = now
        self.child = 0
        self.pipe = -1
        self.answer = bytearray()
        self.status: int | None = None
        self.event = ""
        self.guarded = False
        self.out = b""
        self.watched = False  # registered with the selector
        self.worker: Worker | None = None  # the warm worker running its event
        self.pending: tuple[str, bytes, float] | None = None  # queued: manifest, payload, s
        self.project_dir: str | None = None  # its hooks' CLAUDE_PROJECT_DIR (_handle)
        self.manifest = ""  # the installed manifest its headers name (token checked)


class Server:
    def __init__(self, listener: socket.socket, secret: bytes, log: object = None) -> None:
        self.listener = listener
        defer_accept(listener)  # bound here or handed over by the port keeper
        self.port = int(listener.getsockname()[1])  # what the identity proof is bound to
        self.secret = secret
        self.selector = selectors.DefaultSelector()
        self.manifests = ManifestFacts()
        self.connections: dict[int, Connection] = {}  # by socket fd
        self.by_pipe: dict[int, Connection] = {}
        self.by_child: dict[int, Connection | None] = {}  # None: an async child, unanswered
        self.stopping = False
        self.extra_fds: tuple[int, ...] = ()  # the lock file: closed in every child
        self._wake_read, self._wake_write = os.pipe()
        for descriptor in (self._wake_read, self._wake_write):
            os.set_blocking(descriptor, False)
        self._log = log
        self._secret_checked = time.monotonic()
        self.workers = Workers(worker_limit())
        self.queues: dict[str, collections.deque[Connection]] = {}
        self.identity_extra: dict[str, object] = {}  # more of the identity answer (the keeper's)
        self.keeper: Tended | None = None  # the port keeper it tends (serve/keeper.py)
        self._reap_due = False  # SIGCHLD woke the loop: a child or worker may have ended
        self._stop_by: float | None = None  # stopping: when the runs under way are cut off
        self._last_tick = time.monotonic()
        self._accept_paused = False  # no descriptor left: the listener rests until a tick

    # -- the loop ------------------------------------------------------------------------

    def serve_forever(self) -> None:
        self.listener.setblocking(False)
        self.selector.register(self.listener, selectors.EVENT_READ, "listen")
        self.selector.register(self._wake_read, selectors.EVENT_READ, "wake")
        signal.signal(signal.SIGCHLD, _ignore)
        signal.set_wakeup_fd(self._wake_write, warn_on_full_buffer=False)
        while not (self.stopping and not self.by_child and not self.connections):
            for key, events in self.selector.select(self._timeout()):
                self._guarded_step(self._dispatch, key, events)
            now = time.monotonic()
            if now - self._last_tick >= TICK_S:  # (a lost SIGCHLD is reaped at the next tick)
                self._last_tick = now
                self._reap_due = True
                self._guarded_step(self._tick, now)
            if self._reap_due:
                self._reap_due = False
                self._guarded_step(self._reap)
            self._guarded_step(self._expire, now)

    def _guarded_step(self, step: Any, *args: Any) -> None:
        """One step of the loop; a failure is logged and the loop goes on (the requests it
        touched are answered by their deadlines: a deny on a guarded event)."""
        try:
            step(*args)
        except Exception as error:
            self._say(f"the server's loop failed once: {type(error).__name__}: {error}")

    def stop(self) -> None:
        """Stop taking requests; the loop ends once those under way are answered."""
        if not self.stopping:
            self.stopping = True
            self._stop_by = time.monotonic() + STOP_GRACE_S
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(self.listener)
            self.listener.close()
            for worker in self.workers.all():
                if not worker.busy:
                    self._drop_worker(worker)
                else:
                    self._watch_worker(worker)  # dropped when its run ends

    def _timeout(self) -> float:
        if self._stop_by is not None:
            return max(0.0, min(self._stop_by - time.monotonic(), 1.0))
        if not self.connections:  # idle: once a tick (SIGCHLD wakes it for a child's end)
            return TICK_S
        soonest = min(connection.deadline for connection in self.connections.values())
        return max(0.0, min(soonest - time.monotonic(), 1.0))

    def _dispatch(self, key: selectors.SelectorKey, events: int) -> None:
        data = key.data
        if data == "listen":
            self._accept()
        elif data == "wake":
            _drain(self._wake_read)
            self._reap_due = True
        elif data == "pipe":
            self._read_pipe(key.fd)
        elif data == "worker":
            self._read_worker(key.fd)
        else:
            connection = self.connections.get(key.fd)
            if connection is None or connection.sock is not key.fileobj:
                return  # closed earlier in this round (its number may be another's now)
            try:
                if events & selectors.EVENT_WRITE:
                    self._write(connection)
                else:
                    self._read(connection)
            except Exception as error:
                self._broken(connection, error)

    def _broken(self, connection: Connection, error: Exception) -> None:
        """A request the server itself failed on (a planted manifest, no descriptor left):
        a 500, which the client reads as a failed request (a guard with onFailure block
        denies), and the loop goes on for every other agent."""
        self._say(f"a request failed in the server: {type(error).__name__}: {error}")
        try:
            if connection.state == _WRITING or connection.out:
                self._close(connection)
            elif connection.event:  # token checked: a guarded event's deny says why
                self._unwatch(connection)
                self._answer_failed(connection, f"could not be run ({type(error).__name__})")
            else:
                self._unwatch(connection)
                self._respond(connection, 500, _error_body("the hook server failed on it"))
        except Exception:
            with contextlib.suppress(Exception):
                self._close(connection)

    # -- connections ---------------------------------------------------------------------

    def _accept(self) -> None:
        for _ in range(64):
            try:
                sock, _address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # EMFILE and the like
                if error.errno in (errno.EMFILE, errno.ENFILE) and self._make_room():
                    continue  # an idle connection without a head let go of its descriptor
                self._pause_accepting(error)
                return
            if len(self.connections) >= CONNECTION_LIMIT and not self._make_room():
                sock.close()
                continue
            sock.setblocking(False)
            connection = Connection(sock, time.monotonic())
            self.connections[sock.fileno()] = connection
            self._first_read(connection)

    def _pause_accepting(self, error: OSError) -> None:
        """Accepting failed with every connection a request under way (no descriptor left):
        the listener would stay readable and the loop spin on it, so new connections wait
        in the kernel's queue until the next tick (TICK_S) tries again."""
        if self._accept_paused:
            return
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(self.listener)
        self._accept_paused = True
        self._say(f"accept failed: {error}; new connections wait for the next second")

    def _resume_accepting(self) -> None:
        if self._accept_paused and not self.stopping:
            self._accept_paused = False
            self.selector.register(self.listener, selectors.EVENT_READ, "listen")

    def _first_read(self, connection: Connection) -> None:
        """Read what the client sent with its connection (an agent writes its request at
        once): a whole request is handled without the selector; otherwise the connection is
        watched for the rest."""
        try:
            self._read(connection)
        except Exception as error:
            self._broken(connection, error)
            return
        if connection.state == _READING and connection.sock.fileno() >= 0:
            self.selector.register(connection.sock, selectors.EVENT_READ, "conn")
            connection.watched = True

    def _make_room(self) -> bool:
        """At the limit, let go of the connection that has waited longest without sending a
        whole head (it proved nothing yet): idle connections, which need no token, never
        shut out an agent's request. False when every one is a request under way."""
        idle = [c for c in self.connections.values() if c.reader.request is None]
        if not idle:
            return False
        self._close(min(idle, key=lambda connection: connection.received_at))
        return True

    def _read(self, connection: Connection) -> None:
        try:
            data = connection.sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._close(connection)
            return
        if not data:
            self._close(connection)
            return
        state = connection.reader.feed(data)
        if not connection.head_checked and connection.reader.request is not None:
            connection.head_checked = True
            if not _is_hook_request(connection.reader.request):
                self._handle(connection)  # answered from its head, its body never waited for
                return
            if not self._may_ask(connection.reader.request):
                self._refuse_token(connection)  # before its body is read, however large
                return
        if state == COMPLETE:
            self._handle(connection)
        elif state == BAD:
            self._bad(connection)

    def _may_ask(self, request: Request) -> bool:
        """Whether a hook request carries its project's token (the identity check and
        paths the server does not serve need none: they are answered from their head)."""
        if not _is_hook_request(request):
            return True
        self._refresh_secret()
        manifest_path = request.header(wire.MANIFEST_HEADER)
        authorization = request.header(wire.TOKEN_HEADER)
        return bool(manifest_path) and wire.token_matches(
            self.secret, manifest_path or "", authorization
        )

    def _refuse_token(self, connection: Connection) -> None:
        self._respond(connection, 401, _error_body("this request's token is not this project's"))

    def _bad(self, connection: Connection) -> None:
        reader = connection.reader
        request = reader.request
        if request is not None and reader.status == 413 and request.method == "POST":
            event = _hook_event(request.path)
            manifest_path = request.header(wire.MANIFEST_HEADER)
            if event and manifest_path and self._may_ask(request):  # a guard denies, saying why
                facts = self.manifests.for_event(manifest_path, event, False)
                if facts.guarded:
                    body = failure_body(
                        event, True, f"could not take the payload: {reader.problem}"
                    )
                    self._respond(connection, 200, body)
                    return
        self._respond(connection, reader.status, _error_body(reader.problem))

    def _handle(self, connection: Connection) -> None:
        request = connection.reader.request
        assert request is not None
        if request.path == wire.IDENTITY_PATH and request.method == "GET":
            self._refresh_secret()
            self._identity(connection, request.query)
            return
        event = _hook_event(request.path)
        if event is None:
            self._respond(connection, 404, _error_body("hookman serves /v1/hook/EVENT"))
            return
        if request.method != "POST":
            self._respond(connection, 405, _error_body("hook requests are POSTs"))
            return
        manifest_path = request.header(wire.MANIFEST_HEADER)
        if not connection.head_checked or not manifest_path:  # its token: checked with its head
            self._refuse_token(connection)
            return
        self._unwatch(connection)  # nothing more to read: answered when the child ends
        run_async = wire.ASYNC_QUERY in request.query.split("&")
        facts = self.manifests.for_event(manifest_path, event, run_async)
        connection.event = event
        connection.guarded = facts.guarded
        connection.manifest = manifest_path
        sent = request.header(wire.PROJECT_HEADER)
        connection.project_dir = sent or facts.project_dir  # the installed project's else
        self._run_hooks(connection, manifest_path, request.body, run_async, facts.seconds)

    def _run_hooks(
        self,
        connection: Connection,
        manifest_path: str,
        payload: bytes,
        run_async: bool,
        seconds: float,
    ) -> None:
        """Run the project's hooks on the payload; the connection is answered with the run."""
        if run_async:
            self._respond(connection, 200, EMPTY)  # the client does not wait for these
        elif self._to_worker(connection, manifest_path, payload, seconds):
            return
        self._fork(connection, manifest_path, payload, run_async, seconds)

    def _refresh_secret(self) -> None:
        """Take the secret again when its file changed (made anew after it was removed):
        the entries install writes from then on carry tokens of the new one."""
        now = time.monotonic()
        if now < self._secret_checked + SECRET_CHECK_S:
            return
        self._secret_checked = now
        current = wire.read_secret()
        if current is not None and current != self.secret:
            self.secret = current
            self._say("the secret changed: requests are checked against the new one")

    def _identity(self, connection: Connection, query: str) -> None:
        nonce = ""
        for part in query.split("&"):
            name, _, value = part.partition("=")
            if name == "nonce":
                nonce = value
        if not nonce or len(nonce) > NONCE_LIMIT or not all(c in "0123456789abcdef" for c in nonce):
            self._respond(connection, 400, _error_body("the identity check needs ?nonce=HEX"))
            return
        proof = wire.identity_proof(self.secret, nonce, self.port)
        answer = {wire.IDENTITY_LABEL: __version__, "proof": proof, **self.identity_extra}
        self._respond(connection, 200, lean_json.dumps(answer).encode("utf-8"))

    # -- children ------------------------------------------------------------------------

    def _fork(
        self,
        connection: Connection,
        manifest_path: str,
        payload: bytes,
        run_async: bool,
        seconds: float,
    ) -> None:
        project_dir = connection.project_dir
        read_end, write_end = os.pipe()
        server_fds = (*self._fds(), read_end)
        try:
            pid = os.fork()
        except OSError as error:
            os.close(read_end)
            os.close(write_end)
            if not run_async:
                self._answer_failed(connection, f"could not start ({error.strerror})")
            return
        if pid == 0:
            from hookman.bridge.serve_child import run_request

            run_request(
                connection.event,
                manifest_path,
                payload,
                write_end,
                run_async=run_async,
                received_at=connection.received_at,
                project_dir=project_dir,
                server_fds=server_fds,
            )
        os.close(write_end)
        if run_async:
            os.close(read_end)
            self.by_child[pid] = None
            return
        self.by_child[pid] = connection
        self._wait_on(connection, pid, read_end, seconds)

    def _wait_on(self, connection: Connection, pid: int, read_end: int, seconds: float) -> None:
        os.set_blocking(read_end, False)
        connection.child = pid
        connection.pipe = read_end
        connection.state = _WAITING
        connection.deadline = connection.received_at + seconds
        self.by_pipe[read_end] = connection
        self.selector.register(read_end, selectors.EVENT_READ, "pipe")

    # -- warm workers (serve/workers.py, serve/worker_loop.py) ---------------------------

    def _to_worker(
        self, connection: Connection, manifest_path: str, payload: bytes, seconds: float
    ) -> bool:
        """Hand the request to an idle worker of the project (one forked now when the
        project has fewer than the limit); False when none can take it: then a child is
        forked for it."""
        if not self.workers.limit or self.stopping:
            return False
        project = connection.project_dir
        frame = encode_request(connection.event, project, payload, connection.received_at)
        if len(frame) > FRAME_LIMIT:
            return False
        worker = self.workers.idle(manifest_path)
        if worker is None:
            for unwatched in self.workers.unwatched(manifest_path):
                self._collect(unwatched)  # a run that ended since its answer went out
            worker = self.workers.idle(manifest_path)
        if worker is None:
            waiting = len(self.queues.get(manifest_path, ()))
            finishing = self.workers.finishing(manifest_path, time.monotonic(), waiting)
            if finishing or not self.workers.can_start(manifest_path):
                for unwatched in self.workers.unwatched(manifest_path):
                    self._watch_worker(unwatched)  # the queue moves when its run ends
                return self._queue(connection, manifest_path, payload, seconds)
            worker = self._start_worker(manifest_path)
            if worker is None:
                return False
        return self._send(worker, connection, frame, seconds)

    def _queue(
        self, connection: Connection, manifest_path: str, payload: bytes, seconds: float
    ) -> bool:
        """Every worker of the project is busy: wait for one, at most QUEUE_WAIT_S (then
        a child is forked for the request, _expire)."""
        queue = self.queues.setdefault(manifest_path, collections.deque())
        if len(queue) >= QUEUE_LIMIT:
            return False
        connection.state = _QUEUED
        connection.pending = (manifest_path, payload, seconds)
        connection.deadline = min(time.monotonic() + QUEUE_WAIT_S, connection.received_at + seconds)
        queue.append(connection)
        return True

    def _next_queued(self, manifest_path: str) -> None:
        """A worker of the project is free (or may be started): give it the next request
        that waits."""
        queue = self.queues.get(manifest_path)
        while queue:
            connection = queue.popleft()
            if connection.state != _QUEUED or connection.pending is None:
                continue  # answered or gone meanwhile
            _, payload, seconds = connection.pending
            connection.pending = None
            connection.state = _WAITING
            if not self._to_worker(connection, manifest_path, payload, seconds):
                self._fork(connection, manifest_path, payload, False, seconds)
            break
        if not queue:
            self.queues.pop(manifest_path, None)

    def _send(self, worker: Worker, connection: Connection, frame: bytes, seconds: float) -> bool:
        try:
            read_end, write_end = os.pipe()
        except OSError:  # no descriptor left now: the worker stays idle
            return False
        try:
            sent = socket.send_fds(worker.sock, [frame], [write_end])
        except OSError:
            sent = -1
        os.close(write_end)
        if sent != len(frame):  # gone, or it took part of it: it is ended, a child runs this
            os.close(read_end)
            self._drop_worker(worker, kill=True)
            return False
        worker.idle_since = None
        worker.answered_at = None
        worker.deadline = connection.received_at + seconds
        worker.connection = connection
        connection.worker = worker
        self._wait_on(connection, worker.pid, read_end, seconds)
        return True

    def _start_worker(self, manifest_path: str) -> Worker | None:
        try:
            ours, theirs = socket_pair()
        except OSError:
            return None
        server_fds = (*self._fds(), ours.fileno())
        try:
            pid = os.fork()
        except OSError:
            ours.close()
            theirs.close()
            return None
        if pid == 0:
            from hookman.serve.worker_loop import serve_worker

            serve_worker(manifest_path, theirs, server_fds, say=self._say if self._log else None)
        theirs.close()
        ours.setblocking(False)
        worker = Worker(pid, ours, manifest_path, time.monotonic())
        self.workers.add(worker)
        self.by_child[pid] = None
        self._watch_worker(worker)
        return worker

    def _watch_worker(self, worker: Worker) -> None:
        if not worker.watched and worker.sock.fileno() >= 0:
            self.selector.register(worker.sock, selectors.EVENT_READ, "worker")
            worker.watched = True

    def _unwatch_worker(self, worker: Worker) -> None:
        if worker.watched:
            worker.watched = False
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(worker.sock)

    def _tick(self, now: float) -> None:
        """Once a TICK_S: tend the port keeper; collect the ends of the runs whose answers
        went out (one that has not ended yet is watched from now on)."""
        self._resume_accepting()
        if self.keeper is not None and not self.stopping:
            self.keeper.tend()
        for worker in self.workers.unwatched():
            self._collect(worker)
            if worker.busy and worker.sock.fileno() >= 0:
                self._watch_worker(worker)

    def _read_worker(self, descriptor: int) -> None:
        worker = self.workers.by_fd.get(descriptor)
        if worker is not None:
            self._collect(worker)

    def _collect(self, worker: Worker) -> None:
        """Take what the worker said (the ends of its runs; its socket's end: it ended)."""
        try:
            data = worker.sock.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # it ended: its run's connection is answered when it is reaped
            self._drop_worker(worker)
            return
        worker.inbox += data
        while len(worker.inbox) >= DONE.size and worker.sock.fileno() >= 0:
            code, flags = DONE.unpack_from(worker.inbox)
            del worker.inbox[: DONE.size]
            self._worker_done(worker, code, bool(flags & RETIRING))

    def _worker_done(self, worker: Worker, code: int, retiring: bool) -> None:
        """The worker's run ended with exit code `code`: its connection is answered as a
        child that exited with it would be; the worker takes the next request, or ends."""
        connection = worker.connection
        worker.connection = None
        worker.idle_since = time.monotonic()
        if connection is not None and connection.worker is worker:
            connection.worker = None
            connection.child = 0
            connection.status = code << 8  # the wait status of a process that exited so
            if connection.pipe >= 0:
                _drain_into(connection.pipe, connection.answer)
                self._unregister_pipe(connection)
            self._maybe_answer(connection)
        if retiring or self.stopping:
            self._drop_worker(worker)
        self._next_queued(worker.manifest)

    def _drop_worker(self, worker: Worker, *, kill: bool = False) -> None:
        if kill:
            _kill_group(worker.pid)
        if worker.sock.fileno() >= 0:
            self._unwatch_worker(worker)
        self.workers.drop(worker)

    def _fds(self) -> tuple[int, ...]:
        fds = [self._wake_read, self._wake_write, *self.extra_fds, *self.by_pipe]
        if self.keeper is not None:
            fds.extend(self.keeper.descriptors())
        fds.extend(self.workers.fds())
        fds.extend(self.connections)
        if not self.stopping:
            fds.append(self.listener.fileno())
        selector_fd = getattr(self.selector, "fileno", None)
        if selector_fd is not None:
            fds.append(selector_fd())
        return tuple(fds)

    def _read_pipe(self, descriptor: int) -> None:
        connection = self.by_pipe.get(descriptor)
        if connection is None:
            return
        try:
            data = os.read(descriptor, RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            connection.answer += data
            if connection.answer.endswith(b"\n"):
                self._answer_early(connection)
            return
        self._unregister_pipe(connection)  # closed: the child ended (or gave its fd away)
        self._maybe_answer(connection)

    def _answer_early(self, connection: Connection) -> None:
        """Answer as soon as the child's one answer line is whole (a JSON object and a
        newline: the runner writes nothing after it on that pipe), before it logs and ends:
        the answer is given, as the launcher takes the runner's once it is complete."""
        body = child_body(bytes(connection.answer), 0)
        if body is None:
            return
        if connection.child:
            self.by_child[connection.child] = None  # reaped later; its log line follows
            connection.child = 0
        worker = connection.worker
        if worker is not None:
            worker.answered_at = time.monotonic()
            if not self.queues.get(worker.manifest):  # none waits for the end of its run:
                self._unwatch_worker(worker)  # collected later (_to_worker, _tick)
        self._let_go_of_worker(connection)
        self._unregister_pipe(connection)
        self._respond(connection, 200, body)

    def _reap(self) -> None:
        """Reap every child that ended: the server's children and workers (answered as their
        runs' ends), and any other (the port keeper, told ended by its pipe)."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.by_child.clear()
                return
            except InterruptedError:
                continue
            if pid == 0:
                return
            connection = self.by_child.pop(pid, None)
            worker = self.workers.by_pid.pop(pid, None)
            if worker is not None:  # a warm worker ended: its run's connection, if any
                self._drop_worker(worker)
                self._next_queued(worker.manifest)
                connection = worker.connection
                worker.connection = None
                if connection is not None:
                    connection.worker = None
            if connection is not None and connection.child == pid:
                connection.status = status
                connection.child = 0
                if connection.pipe >= 0:
                    _drain_into(connection.pipe, connection.answer)
                    self._unregister_pipe(connection)
                self._maybe_answer(connection)

    def _maybe_answer(self, connection: Connection) -> None:
        if connection.pipe >= 0 or connection.child or connection.state != _WAITING:
            return
        body = child_body(bytes(connection.answer), connection.status)
        if body is None:
            problem = status_problem(connection.status, bytes(connection.answer))
            self._answer_failed(connection, problem)
            return
        self._respond(connection, 200, body)

    def _answer_failed(self, connection: Connection, problem: str) -> None:
        self._say(f"{connection.event}: the child {problem}")
        reason = failure_reason(connection.event, problem) if connection.guarded else None
        self._log_answer(connection, f"the hook server's run {problem}", reason)
        self._respond(connection, 200, failure_body(connection.event, connection.guarded, problem))

    def _log_answer(self, connection: Connection, notice: str, reason: str | None) -> None:
        """A line in the project's firing log for an answer the server gives itself (no run of
        the runner logged it), written before the answer goes out, so that a client that
        reads the log once answered finds it: `hookman log` shows the deny and why
        ("failed-closed"), or the event whose hooks did not run ("errors")."""
        try:  # the answer matters more than the log line (no descriptor left, a full disk)
            manifest = self.manifests.manifest(connection.manifest) if connection.manifest else None
            if manifest is None or not manifest.log_path:
                return
            request = connection.reader.request
            record = served_record(
                manifest.project_dir,
                connection.event,
                b"" if request is None else request.body,
                notice,
                reason,
                duration_ms=round((time.monotonic() - connection.received_at) * 1000, 1),
            )
            append_record(manifest.log_path, record)
        except Exception as error:
            self._say(f"a line of the firing log was lost: {type(error).__name__}: {error}")

    def _expire(self, now: float) -> None:
        if self._stop_by is not None and now >= self._stop_by:
            self._stop_by = None
            self._cut_off_runs()
        for worker in self.workers.idle_past(now):
            self._drop_worker(worker)
        for worker in self.workers.unwaited_past_deadline(now):
            self._say("a warm worker's run went on past its deadline after its answer: ended")
            self._drop_worker(worker, kill=True)
        for connection in list(self.connections.values()):
            if connection.deadline > now:
                continue
            if connection.state == _QUEUED and connection.pending is not None:
                manifest_path, payload, seconds = connection.pending
                connection.pending = None  # left in its queue, skipped there
                self._fork(connection, manifest_path, payload, False, seconds)
            elif connection.state == _WAITING:
                seconds = connection.deadline - connection.received_at
                self._kill_child(connection)
                self._answer_failed(connection, f"did not finish within {seconds:.1f} s")
            else:
                self._close(connection)  # too slow to send its request, or to take the answer

    def _cut_off_runs(self) -> None:
        """Stopping, past the grace: end every run still under way, its process group (a
        hook's own processes) included, so that none outlives the server; each request
        still waiting is answered as a failed run (a deny on a guarded event)."""
        for connection in list(self.connections.values()):
            if connection.state in (_WAITING, _QUEUED):
                connection.pending = None
                self._kill_child(connection)
                self._answer_failed(connection, "was cut off because the server was stopped")
        for pid in list(self.by_child):  # the workers, and the children of async events
            _kill_group(pid)

    def _kill_child(self, connection: Connection) -> None:
        worker = connection.worker
        if worker is not None:  # never given another request: the next one gets a fresh one
            self._let_go_of_worker(connection)
            self._drop_worker(worker)
        if connection.child:
            _kill_group(connection.child)
            self.by_child[connection.child] = None  # reaped later, answered now
            connection.child = 0
        self._unregister_pipe(connection)

    def _let_go_of_worker(self, connection: Connection) -> None:
        """The connection no longer waits for its worker's run to end (answered, or gone);
        the worker takes requests again once it says the run ended."""
        worker = connection.worker
        if worker is not None:
            if worker.connection is connection:
                worker.connection = None
            connection.worker = None

    def _unregister_pipe(self, connection: Connection) -> None:
        if connection.pipe < 0:
            return
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(connection.pipe)
        self.by_pipe.pop(connection.pipe, None)
        os.close(connection.pipe)
        connection.pipe = -1

    # -- answering -----------------------------------------------------------------------

    def _respond(self, connection: Connection, status: int, body: bytes) -> None:
        head = (
            f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n"
        )
        connection.out = head.encode("ascii") + body
        connection.state = _WRITING
        connection.deadline = time.monotonic() + WRITE_DEADLINE_S
        self._write(connection)

    def _write(self, connection: Connection) -> None:
        if connection.sock.fileno() < 0:
            return
        try:
            sent = connection.sock.send(connection.out)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._close(connection)
            return
        connection.out = connection.out[sent:]
        if not connection.out:
            self._close(connection)
            return
        self._unwatch(connection)
        self.selector.register(connection.sock, selectors.EVENT_WRITE, "conn")
        connection.watched = True

    def _unwatch(self, connection: Connection) -> None:
        if connection.watched:  # (unregistering one that is not costs an error's repr)
            connection.watched = False
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(connection.sock)

    def _close(self, connection: Connection) -> None:
        if connection.state == _WAITING and connection.child:
            # The client is gone: the child runs on to its end (its firing log line).
            self.by_child[connection.child] = None
            connection.child = 0
        self._let_go_of_worker(connection)
        self._unregister_pipe(connection)
        descriptor = connection.sock.fileno()
        if descriptor >= 0:
            self._unwatch(connection)
            self.connections.pop(descriptor, None)
            connection.sock.close()
        connection.state = "closed"

    def _say(self, text: str) -> None:
        if self._log is None:
            return
        try:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
            os.write(2, f"{stamp} hookman serve: {text}\n".encode("utf-8", "replace"))
        except OSError:
            pass


def _is_hook_request(request: Request) -> bool:
    """A hook request (a POST to a hook path): the only kind whose body the server reads,
    and only once its head carried the project's token."""
    return request.method == "POST" and _hook_event(request.path) is not None


def _hook_event(path: str) -> str | None:
    if not path.startswith(wire.HOOK_PATH_PREFIX):
        return None
    event = path[len(wire.HOOK_PATH_PREFIX) :]
    return event if event.isascii() and event.isalnum() and len(event) <= 64 else None


def _error_body(message: str) -> bytes:
    return lean_json.dumps({"error": f"hookman serve: {message}"}).encode("utf-8")


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)  # a child or worker leads its own group
    except OSError:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _ignore(signum: int, frame: object) -> None:
    """SIGCHLD's handler: the wakeup pipe wakes the loop, which reaps."""


def _drain(descriptor: int) -> None:
    try:
        while os.read(descriptor, 4096):
            pass
    except (BlockingIOError, InterruptedError, OSError):
        pass


def _drain_into(descriptor: int, into: bytearray) -> None:
    try:
        while True:
            chunk = os.read(descriptor, RECV_SIZE)
            if not chunk:
                return
            into += chunk
    except (BlockingIOError, InterruptedError, OSError):
        return


def bind_listener(port: int) -> socket.socket:
    """The listening socket on loopback (OSError EADDRINUSE when the port is taken)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if sys.platform != "win32":
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((wire.HOST, port))
        listener.listen(BACKLOG)
    except OSError:
        listener.close()
        raise
    return listener


def defer_accept(listener: socket.socket) -> None:
    """Wake the loop for a connection only once its request's first bytes came (where the
    platform can: Linux); elsewhere, and where it fails, as before."""
    option = getattr(socket, "TCP_DEFER_ACCEPT", None)
    if option is None:
        return
    with contextlib.suppress(OSError):
        listener.setsockopt(socket.IPPROTO_TCP, option, DEFER_ACCEPT_S)


PORT_TAKEN = errno.EADDRINUSE
