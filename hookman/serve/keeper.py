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
- a server that starts on that port: over the Unix socket `handoff-PORT` in the private serve
  directory (this user's processes only), in two steps: the keeper sends the listening socket,
  the server forks a keeper of its own and only then says it took it; the keeper then leaves.
  A server that does not say so (it refused the socket, failed or died) leaves the port with
  the keeper. The port is never free in between.

The server tends its keeper: one that ended (`hookman serve disable`, killed on its own) is
forked anew once the port is needed again. The port is needed while the user opts in, and
after the user opted out (`hookman serve disable`, or the `use` file removed) for as long as a
project's entries still post to it (serve/posting.py: a project installed before the opt-out
and not since), whose guarded calls it then denies naming `hookman install`. The keeper leaves
once the port is not needed (it looks once a second) and on SIGTERM.
The newest keeper's pid is in `keeper.pid`."""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import signal
import socket
import stat
import struct

from hookman.serve import wire
from hookman.serve.answers import (
    EMPTY,
    moved_body,
    moved_reason,
    stopped_body,
    stopped_reason,
    turned_off_body,
    turned_off_reason,
)
from hookman.serve.server import Connection, Server

KEPT_NOTICE = "the hook server was not running: hookman's port keeper denied"
HANDOFF_PREFIX = "handoff-"  # + PORT: the Unix socket a starting server takes the port through
PID_NAME = wire.KEEPER_PID_NAME
LOG_NAME = "server.log"
HANDOFF_TIMEOUT_S = 2.0  # for each step of a handoff but the last
CONFIRM_TIMEOUT_S = 10.0  # how long a keeper waits for the server to say it took the port
_OFFER = b"O"
_TAKEN = b"T"


# -- the server's side -----------------------------------------------------------------------


class Keeper:
    """The server's handle on its keeper: forks it, and forks a new one when it ended while
    the user opts in (its pipe's write end is one of the descriptors every child closes)."""

    def __init__(self, listener: socket.socket) -> None:
        self.listener = listener
        self.pid = 0
        self.alive = -1  # the write end of the keeper's pipe
        self.fork()

    def fork(self) -> None:
        self.alive, self.pid = fork_keeper(self.listener)

    def descriptors(self) -> tuple[int, ...]:
        return (self.alive,) if self.alive >= 0 else ()

    def tend(self) -> None:
        """At the server's tick: a keeper that ended is let go of, and forked anew while the
        user opts in (`serve disable` ended it; `serve enable` again; killed on its own)."""
        if self.pid and _reader_gone(self.alive):
            os.close(self.alive)
            self.alive, self.pid = -1, 0  # (its zombie is reaped by the server's waitpid(-1))
        if not self.pid and port_needed(int(self.listener.getsockname()[1])):
            with contextlib.suppress(OSError):
                self.fork()


def _reader_gone(write_end: int) -> bool:
    """Whether the keeper ended: its pipe's read end, which only the keeper holds, is closed
    (the write end reports an error). Not its pid: the server's waitpid(-1) may have reaped
    it, and its number may be a new worker's by now."""
    poller = select.poll()
    poller.register(write_end, select.POLLERR | select.POLLHUP)
    try:
        return bool(poller.poll(0))
    except OSError:
        return True


def fork_keeper(listener: socket.socket) -> tuple[int, int]:
    """Fork a keeper for `listener`: (the write end of its pipe, which the server holds until
    it ends, its pid)."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        raise
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
    return write_end, pid


class Handoff:
    """The listening socket a keeper offered, held until the server says it took it."""

    def __init__(self, listener: socket.socket, channel: socket.socket) -> None:
        self.listener = listener
        self._channel = channel

    def confirm(self) -> None:
        """Tell the keeper the port is taken (it leaves); call once a keeper of this process
        holds the port too."""
        with contextlib.suppress(OSError):
            self._channel.sendall(_TAKEN)
        self._channel.close()


def take_port(port: int) -> Handoff | None:
    """The listening socket of `port` from this user's keeper of that port, not yet
    confirmed (Handoff.confirm); None when no keeper offers it. A socket that is not that
    port's listening one is refused, and the keeper keeps the port."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(HANDOFF_TIMEOUT_S)
    try:
        _connect_relative(client, wire.serve_dir(), _handoff_name(port))
        client.sendall(f"{port}\n".encode("ascii"))
        message, fds, _flags, _address = socket.recv_fds(client, 16, 1)
    except OSError:
        client.close()
        return None
    listener = _listening_socket(fds, port) if message == _OFFER else None
    if listener is None:
        for descriptor in fds:
            with contextlib.suppress(OSError):
                os.close(descriptor)
        client.close()
        return None
    return Handoff(listener, client)


def _listening_socket(fds: list[int], port: int) -> socket.socket | None:
    if len(fds) != 1:
        return None
    try:
        listener = socket.socket(fileno=fds[0])
    except OSError:  # not a socket
        return None
    try:
        address = listener.getsockname()
        accepting = getattr(socket, "SO_ACCEPTCONN", None)
        listening = accepting is None or listener.getsockopt(socket.SOL_SOCKET, accepting)
        kind = listener.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE)
    except OSError:
        listener.detach()
        return None
    if (
        listener.family != socket.AF_INET
        or kind != socket.SOCK_STREAM
        or address != (wire.HOST, port)
        or not listening
    ):
        listener.detach()
        return None
    return listener


# -- the keeper's side -----------------------------------------------------------------------


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
    if not port_needed(int(listener.getsockname()[1])):
        return
    keep_port(listener)


def port_needed(port: int) -> bool:
    """Whether the port must stay this user's: the user opts in, or a project's entries
    still post to it (serve/posting.py)."""
    if wire.opted_in():
        return True
    from hookman.serve.posting import posting_projects

    return bool(posting_projects(port))


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
    for descriptor in range(3, max(1024, *keep) + 1):
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
    server = KeptServer(listener, secret)
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    _write_pid(os.getpid())
    server._say(f"the server ended: hookman keeps port {server.port} until it runs again")
    try:
        server.serve_forever()
    finally:
        server.close_handoff()
        _remove_pid()


class KeptServer(Server):
    """The server's loop with no hook run: a guarded event denied, any other `{}`; the
    identity proof marked kept; the port handed to a starting server."""

    def __init__(self, listener: socket.socket, secret: bytes) -> None:
        super().__init__(listener, secret, log=True)
        self.identity_extra = {wire.KEPT_LABEL: True}
        self.workers.limit = 0
        self.handoff: socket.socket | None = None
        self._handoff_inode = 0
        self._tend_handoff()

    def _run_hooks(
        self,
        connection: Connection,
        manifest_path: str,
        payload: bytes,
        run_async: bool,
        seconds: float,
    ) -> None:
        if not connection.guarded or run_async:
            self._respond(connection, 200, EMPTY)
            return
        recorded = wire.read_port()
        event = connection.event
        if recorded is not None and recorded != self.port:  # the server moved to another port
            self._log_answer(connection, KEPT_NOTICE, moved_reason(event, self.port, recorded))
            self._respond(connection, 200, moved_body(event, self.port, recorded))
        elif not wire.opted_in():  # kept for the projects whose entries still post here
            self._log_answer(connection, KEPT_NOTICE, turned_off_reason(event))
            self._respond(connection, 200, turned_off_body(event))
        else:
            self._log_answer(connection, KEPT_NOTICE, stopped_reason(event))
            self._respond(connection, 200, stopped_body(event))

    def _dispatch(self, key: selectors.SelectorKey, events: int) -> None:
        if key.data == "handoff":
            self._hand_off()
        else:
            super()._dispatch(key, events)

    def _tick(self, now: float) -> None:
        """At the loop's tick (once a second): leave when the user opted out or a running
        server holds the port; bind the handoff socket again where it is gone."""
        super()._tick(now)
        if self.stopping:
            return
        if not port_needed(self.port):
            self._say(f"you opted out and no project posts to port {self.port}: hookman lets it go")
            self.stop()
            return
        if _superseded(self.listener):
            self._say(
                f"a running server and its own keeper hold port {self.port}: this keeper leaves"
            )
            self.stop()
            return
        self._tend_handoff()

    def _tend_handoff(self) -> None:
        """Bind the handoff socket again when its file is gone or is not the one bound (a
        serve directory that was not private when the keeper began, an unlinked or planted
        file): a starting server must always be able to take the port."""
        path = os.path.join(wire.serve_dir(), _handoff_name(self.port))
        try:
            info = os.lstat(path)
            ours = stat.S_ISSOCK(info.st_mode) and info.st_ino == self._handoff_inode
            if self.handoff is not None and ours:
                return
        except OSError:
            pass
        self.close_handoff()
        bound = _handoff_socket(self.port)
        if bound is not None:
            self.handoff, self._handoff_inode = bound
            self.selector.register(self.handoff, selectors.EVENT_READ, "handoff")

    def close_handoff(self) -> None:
        if self.handoff is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(self.handoff)
            self.handoff.close()
            self.handoff = None

    def _hand_off(self) -> None:
        """A process of this user asks for the port: offer the listening socket; leave only
        once it says it took it (it holds the port with a keeper of its own by then)."""
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
                if _read_line(peer) != str(self.port).encode("ascii"):
                    return
                socket.send_fds(peer, [_OFFER], [self.listener.fileno()])
                peer.settimeout(CONFIRM_TIMEOUT_S)
                taken = peer.recv(1) == _TAKEN
            except OSError:
                return
        if taken:
            self._say("a starting server took the port")
            self.stop()


def _superseded(listener: socket.socket) -> bool:
    """Whether a running server and a newer keeper hold this very listening socket (where
    /proc shows a process's descriptors): this keeper was left behind (its offer was taken by
    a server that ended before it said so, and a later server took the port from another
    keeper) and would only answer "not running" for the running server on the connections it
    accepts. A server on another port, a stale or reused pid, a planted pid or port file, or
    no /proc: it stays (the port is never left free)."""
    server = wire.live_pid(wire.SERVER_PID_NAME)
    newer = keeper_pid()
    if server is None or newer is None or newer == os.getpid():
        return False
    from hookman.bridge.port_holder import holds_socket

    try:
        inode = {str(os.fstat(listener.fileno()).st_ino)}
    except OSError:
        return False
    return holds_socket(str(server), inode) and holds_socket(str(newer), inode)


def _read_line(peer: socket.socket, limit: int = 16) -> bytes:
    data = b""
    while not data.endswith(b"\n") and len(data) < limit:
        chunk = peer.recv(limit - len(data))
        if not chunk:
            break
        data += chunk
    return data.strip()


def _handoff_name(port: int) -> str:
    return f"{HANDOFF_PREFIX}{port}"


def _handoff_socket(port: int) -> tuple[socket.socket, int] | None:
    """The keeper's Unix socket in the private serve directory and its file's inode (bound
    by a relative name: the directory's path may pass the 104-108 bytes an address holds)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    name = _handoff_name(port)
    try:
        with _in_directory(wire.serve_dir()):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name)
            server.bind(name)
            inode = os.lstat(name).st_ino
        server.listen(4)
        server.setblocking(False)
    except OSError:
        server.close()
        return None
    return server, inode


def _connect_relative(client: socket.socket, directory: str, name: str) -> None:
    with _in_directory(directory):
        client.connect(name)


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
    """The newest keeper's pid from its file, when that process still runs."""
    return wire.live_pid(PID_NAME)


def _write_pid(pid: int) -> None:
    with contextlib.suppress(OSError):
        wire.write_pid(PID_NAME, pid)


def _remove_pid() -> None:
    wire.remove_own_pid(PID_NAME)
