"""The port keeper: the server's port stays this user's for as long as the user opts in,
whatever happens to the server.

Claude Code takes a 200 `{}` from whatever listens on an http entry's port as a hook's
success. Were the port free once the server stopped or was killed, another user's process
could take it and answer every guarded call of a running session with `{}` until the next
prompt's gate looked. So the server, once it listens, forks a keeper: a process of its own
session that holds a copy of the listening socket and waits, blocked on a pipe whose only
writer is the server. When the server ends, however it ends (`hookman serve stop`, a crash,
SIGKILL), the pipe closes and the keeper answers on the port itself:

- a guarded event of a project whose token is right: a deny saying the server is not running
  and how it starts again (answers.stopped_body); any other event `{}` (lost, never blocked);
- the identity check: the proof, marked `"kept": true`, so the prompt gate, `serve start`,
  `serve status` and doctor know the server is not running and start it (or say so);
- a server that starts: over a Unix socket in the private serve directory (`handoff`, this
  user's processes only), the keeper gives it the listening socket and leaves; the new server
  forks a keeper of its own. The port is never free between the two.

The keeper leaves when the user opts out (`hookman serve disable`: the `use` file gone) and
on SIGTERM. Its pid is in `keeper.pid`."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import socket
import struct
import time

from hookman.serve import wire
from hookman.serve.answers import EMPTY, stopped_body
from hookman.serve.server import Connection, Server

HANDOFF_NAME = "handoff"  # the Unix socket a starting server takes the port through
PID_NAME = "keeper.pid"
LOG_NAME = "server.log"
OPT_IN_CHECK_S = 1.0
HANDOFF_TIMEOUT_S = 2.0
_TAKEN = b"T"


def fork_keeper(listener: socket.socket) -> int:
    """Fork the keeper for `listener`; return the write end of its pipe, which the server
    holds (non-inheritable, closed in every child it forks) until it ends."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the keeper's own process (tests reach it over the port)
        code = 0
        try:
            os.close(write_end)
            _keeper_process(listener, read_end)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(read_end)
    _write_pid(pid)
    return write_end


def _keeper_process(listener: socket.socket, pipe: int) -> None:
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _own_descriptors(keep=(listener.fileno(), pipe))
    while True:  # until the server (the pipe's only writer) ends
        try:
            if not os.read(pipe, 1):
                break
        except InterruptedError:
            continue
    os.close(pipe)
    if not wire.opted_in():
        return
    keep_port(listener)


def _own_descriptors(keep: tuple[int, ...]) -> None:
    """stdin on /dev/null, stdout and stderr on the server's log (never a terminal or a pipe
    of whoever ran the server in the foreground: they would wait on the keeper), every other
    descriptor but `keep` closed (the server's lock, its connections)."""
    null = os.open(os.devnull, os.O_RDWR)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        log = os.open(os.path.join(wire.serve_dir(), LOG_NAME), flags, 0o600)
    except OSError:
        log = null
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    top = max(3, *keep) + 1
    for descriptor in range(3, max(top, 1024)):
        if descriptor not in keep:
            with contextlib.suppress(OSError):
                os.close(descriptor)


def keep_port(listener: socket.socket) -> None:
    """Answer on the port while the server is not running (KeptServer), until a starting
    server takes the port, the user opts out, or SIGTERM."""
    # No usable secret (removed, or made unusable): the port is still kept, with one no token
    # matches (every hook request a 401: the client blocks guarded calls), until a whole one
    # is made again (the loop reads it again every second).
    secret = wire.read_secret() or os.urandom(wire.SECRET_BYTES).hex().encode("ascii")
    handoff = _handoff_socket()
    server = KeptServer(listener, secret, handoff)
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    _write_pid(os.getpid())
    server._say(f"the server ended: hookman keeps port {server.port} until it runs again")
    try:
        server.serve_forever()
    finally:
        if handoff is not None:
            handoff.close()
        _remove_pid()


class KeptServer(Server):
    """The server's loop with no hook run: a guarded event denied, any other `{}`; the
    identity proof marked kept; the port handed to a starting server."""

    def __init__(self, listener: socket.socket, secret: bytes, handoff: socket.socket | None):
        super().__init__(listener, secret, log=True)
        self.handoff = handoff
        self.identity_extra = {wire.KEPT_LABEL: True}
        self.workers.limit = 0
        self._opt_in_checked = time.monotonic()
        if handoff is not None:
            self.selector.register(handoff, selectors.EVENT_READ, "handoff")

    def _run_hooks(
        self,
        connection: Connection,
        manifest_path: str,
        payload: bytes,
        run_async: bool,
        seconds: float,
    ) -> None:
        if connection.guarded and not run_async:
            self._respond(connection, 200, stopped_body(connection.event))
        else:
            self._respond(connection, 200, EMPTY)

    def _dispatch(self, key: selectors.SelectorKey, events: int) -> None:
        if key.data == "handoff":
            self._hand_off()
        else:
            super()._dispatch(key, events)

    def _expire(self, now: float) -> None:
        super()._expire(now)
        if now - self._opt_in_checked >= OPT_IN_CHECK_S:
            self._opt_in_checked = now
            if not wire.opted_in():
                self._say(f"you opted out: hookman lets port {self.port} go")
                self.stop()

    def _hand_off(self) -> None:
        """A process of this user connected to the handoff socket: give it the listening
        socket, then stop (connections under way are answered first)."""
        if self.handoff is None or self.stopping:
            return
        try:
            peer, _ = self.handoff.accept()
        except OSError:
            return
        with peer:
            if not _same_user(peer):
                return
            peer.settimeout(HANDOFF_TIMEOUT_S)
            try:
                socket.send_fds(peer, [_TAKEN], [self.listener.fileno()])
            except OSError:
                return
        self._say("a starting server took the port")
        self.stop()


def take_port(port: int) -> socket.socket | None:
    """The listening socket of `port` from this user's keeper, or None when no keeper holds
    it (then the port is another process's)."""
    directory = wire.serve_dir()
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(HANDOFF_TIMEOUT_S)
    try:
        _connect_relative(client, directory)
        _message, fds, _flags, _address = socket.recv_fds(client, 16, 1)
    except OSError:
        return None
    finally:
        client.close()
    if len(fds) != 1:
        for descriptor in fds:
            os.close(descriptor)
        return None
    listener = socket.socket(fileno=fds[0])
    try:
        address = listener.getsockname()
        accepting = getattr(socket, "SO_ACCEPTCONN", None)
        listening = accepting is None or listener.getsockopt(socket.SOL_SOCKET, accepting)
    except OSError:
        listener.close()
        return None
    if listener.family != socket.AF_INET or address != (wire.HOST, port) or not listening:
        listener.close()
        return None
    return listener


def _handoff_socket() -> socket.socket | None:
    """The keeper's Unix socket in the private serve directory (bound by a relative name:
    the directory's path may pass the 104-108 bytes a socket address holds)."""
    directory = wire.serve_dir()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with _in_directory(directory):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(HANDOFF_NAME)
            server.bind(HANDOFF_NAME)
        server.listen(4)
        server.setblocking(False)
    except OSError:
        server.close()
        return None
    return server


def _connect_relative(client: socket.socket, directory: str) -> None:
    with _in_directory(directory):
        client.connect(HANDOFF_NAME)


@contextlib.contextmanager
def _in_directory(directory: str):  # type: ignore[no-untyped-def]
    from hookman.bridge.private_dir import private_dir_problem

    problem = private_dir_problem(directory)
    if problem is not None:
        raise OSError(problem)
    previous = os.open(".", os.O_RDONLY)
    try:
        os.chdir(directory)
        yield
    finally:
        os.fchdir(previous)
        os.close(previous)


def _same_user(peer: socket.socket) -> bool:
    """Whether the connecting process is this user's (Linux tells; elsewhere the private
    directory the socket lies in lets no other user reach it)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    try:
        raw = peer.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    except OSError:
        return False
    _pid, uid, _gid = struct.unpack("3i", raw)
    return uid == os.getuid()


def keeper_pid() -> int | None:
    """The keeper's pid from its file, when that process still runs."""
    try:
        with open(os.path.join(wire.serve_dir(), PID_NAME), encoding="ascii") as handle:
            text = handle.read(32).strip()
    except OSError:
        return None
    if not text.isdigit():
        return None
    try:
        os.kill(int(text), 0)
    except ProcessLookupError:
        return None
    except OSError:
        pass
    return int(text)


def _write_pid(pid: int) -> None:
    from hookman.bridge.state_file import replace_file

    with contextlib.suppress(OSError):
        replace_file(os.path.join(wire.serve_dir(), PID_NAME), f"{pid}\n")


def _remove_pid() -> None:
    if keeper_pid() == os.getpid():
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(wire.serve_dir(), PID_NAME))
