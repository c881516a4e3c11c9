"""Running, starting, stopping and choosing the warm server: its files in wire.serve_dir()
(`pid`, `lock`, `server.log`, and wire's `secret`, `port`, `use`), one server per user (the
lock), the port it listens on (the recorded one, else wire.default_port()).

The commands (hookman/commands/serve.py) print; this module returns values and raises
HookmanError with one sentence and a hint."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from hookman.bridge.port_holder import port_holder
from hookman.bridge.serve_gate import daemon_argv
from hookman.bridge.serve_proof import (
    KEPT,
    OURS,
    check_identity,
    own_holder,
    unresponsive_problem,
)
from hookman.errors import HookmanError
from hookman.serve import wire

if TYPE_CHECKING:
    from hookman.serve.keeper import Handoff

LOCK_NAME = "lock"
LOG_NAME = "server.log"
START_WAIT_S = 10.0
STOP_WAIT_S = 5.0
KILL_WAIT_S = 2.0  # how long `stop` waits for a server it killed to be gone
KEEPER_WAIT_S = 3.0  # how long a starting server asks the keeper for the port
UNLIMITED_DESCRIPTORS = 65536  # the soft limit taken when the hard one is unlimited
POLL_S = 0.02
LOG_LIMIT = 1 << 20  # the server's own log is started afresh past this size
STATUS_HINT = "`hookman serve status` shows the server; `hookman serve stop` stops it."


def serve_port() -> int:
    """The port the server listens on: the recorded one, else the per-user default."""
    return wire.read_port() or wire.default_port()


def path_of(name: str) -> str:
    return os.path.join(wire.serve_dir(), name)


def running_pid() -> int | None:
    """The pid in the pid file when that process still runs, else None."""
    return wire.live_pid(wire.SERVER_PID_NAME)


def _running_server() -> tuple[int, int | None] | None:
    """(pid, port or None) of the server that holds the lock (serve_proof.server_listening,
    checked against the lock), or None."""
    from hookman.bridge.serve_proof import server_listening

    found = server_listening()
    return found if found is not None and _a_server_holds_the_lock() else None


def listening_port() -> int | None:
    """The port the running server listens on, or None when none runs (or one of an older
    hookman, which does not say): after `hookman serve enable --port N` it is not the
    recorded one until the server moves."""
    found = _running_server()
    return None if found is None else found[1]


def elsewhere_problem() -> HookmanError | None:
    """The error for a server that runs, but not on the recorded port (a port recorded by
    hand, a move that failed) or without saying where (one of an older hookman) while the
    recorded port has none: `start` cannot start one there while it holds the lock."""
    from hookman.bridge.serve_proof import server_elsewhere

    recorded = serve_port()
    found = server_elsewhere(recorded)
    if found is None or not _a_server_holds_the_lock():
        return None
    pid, listening = found
    hint = f"`hookman serve stop` then `hookman serve start` moves it to port {recorded}."
    if listening is None:
        return HookmanError(
            f"the hook server runs (pid {pid}) but does not answer on the recorded port "
            f"{recorded}.",
            hint,
        )
    return HookmanError(
        f"the hook server runs on port {listening} (pid {pid}), not on the recorded port "
        f"{recorded}.",
        hint,
    )


class Status:
    __slots__ = (
        "detail",
        "elsewhere",
        "kept",
        "opted_in",
        "pid",
        "port",
        "running",
        "unresponsive",
        "unusable",
        "version",
    )

    def __init__(self) -> None:
        self.running = False
        self.kept = False  # hookman's keeper holds the port (the server is not running)
        self.pid: int | None = None
        self.port = serve_port()
        self.version: str | None = None
        self.opted_in = wire.opted_in()
        self.detail = ""  # what holds the port when it is not hookman's server
        self.unresponsive = ""  # hookman's own server or keeper holds it, and did not answer
        self.elsewhere: HookmanError | None = None  # it runs on another port (elsewhere_problem)
        self.unusable: HookmanError | None = None  # the secret cannot be used: nothing is proven


def status() -> Status:
    found = Status()
    secret, problem = wire.secret_state()
    if problem is not None:
        found.unusable = wire.unusable_secret(problem)
    identity = check_identity(found.port, secret)
    found.pid = running_pid()
    if identity.state == OURS:
        found.running = True
        found.version = identity.version
    elif identity.state == KEPT:
        found.kept = True
        found.pid = keeper_of(found.port)
    elif identity.detail:
        own = own_holder(found.port)
        if own is not None:
            found.unresponsive = unresponsive_problem(own, found.port)
        holder = own or port_holder(found.port)
        found.detail = f"{holder or 'another process'} holds the port: {identity.detail}"
    if not found.running:
        found.elsewhere = elsewhere_problem()
    return found


class Enabled(NamedTuple):
    port: int  # the recorded port
    running_on: int | None  # the port a running server listens on (None: none runs, or unsaid)
    must_move: bool  # a server runs, not on the recorded port (or it does not say where)


class PortKeeper(NamedTuple):
    kept: bool  # hookman's keeper holds the port (it proved it with this user's secret)
    pid: int | None  # the keeper's pid
    detail: str  # what holds the port instead ("" when nothing listens)


def port_keeper(port: int) -> PortKeeper:
    """Who holds `port` while the server does not run: hookman's keeper, proven by the
    identity check (whoever listens first is not proof), or another process."""
    identity = check_identity(port, wire.read_secret())
    if identity.state == KEPT:
        return PortKeeper(True, keeper_of(port), "")
    if identity.state == OURS or not identity.detail:
        return PortKeeper(False, None, "")
    holder = port_holder(port)
    return PortKeeper(False, None, f"{holder or 'another process'} holds it: {identity.detail}")


def keeper_of(port: int) -> int | None:
    """The pid of the keeper holding `port`: `keeper.pid` names the newest keeper, which may
    keep another port (the one the server moved to); /proc tells which holds this one."""
    from hookman.bridge.port_holder import port_holders
    from hookman.serve.keeper import keeper_pid

    newest = keeper_pid()
    holders = port_holders(port)
    if not holders or newest in holders:
        return newest  # (no /proc: the pid file decides)
    return holders[0]


def enable(port: int | None = None) -> Enabled:
    """Opt in: make the secret, record the port, write the `use` file. Recorded under the
    server's lock, so that no server starts meanwhile on the port recorded before; where one
    runs (or is starting), where it listens."""
    if port is not None and not 1024 <= port <= 65535:
        raise HookmanError(
            f"{port} is not a port the server can use.",
            "choose one from 1024 to 65535.",
            exit_code=2,
        )
    wire.ensure_secret()
    chosen = port or serve_port()
    lock = _take_lock()
    try:
        runs = lock is None
        running_on = _wait_for_listening() if runs else None
        _write_private(wire.PORT_NAME, f"{chosen}\n")
        _write_private(wire.USE_NAME, "")
    finally:
        if lock is not None:
            os.close(lock)
    return Enabled(chosen, running_on, runs and running_on != chosen and _a_server_holds_the_lock())


def _wait_for_listening(wait: float = START_WAIT_S) -> int | None:
    """The port of the server that holds the lock, once its pid file names it (a starting
    one writes it as soon as it listens, after its `listening` file); None when it ended, or
    runs without saying where (one of an older hookman), or never says in time."""
    from hookman.bridge.serve_proof import server_listening

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = server_listening()
        if found is not None:
            return found[1]
        if not _a_server_holds_the_lock():
            return None  # it ended
        time.sleep(POLL_S)
    return None


class Disabled(NamedTuple):
    was_on: bool
    port: int  # the recorded port
    posting: list[str]  # the projects whose entries still post to it (the port stays kept)


def disable() -> Disabled:
    """Opt out (the `use` file goes; the secret and the port stay). The keeper lets the port
    go unless a project's entries still post to it (serve/posting.py): then it stays, and
    leaves once every such project is installed again."""
    from hookman.serve.posting import posting_projects

    port = serve_port()
    try:
        os.unlink(path_of(wire.USE_NAME))
        was_on = True
    except FileNotFoundError:
        was_on = False
    posting = posting_projects(port)
    if not posting:
        end_keeper()
    return Disabled(was_on, port, posting)


def end_keeper() -> int | None:
    """SIGTERM to this user's port keeper (serve/keeper.py); its pid, or None."""
    from hookman.serve.keeper import keeper_pid

    pid = keeper_pid()
    if pid is None or not wire.names_hookman(pid):
        return None
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        return None
    return pid


def _write_private(name: str, text: str) -> None:
    from hookman.bridge.private_dir import make_private_dir
    from hookman.bridge.state_file import replace_file

    directory, problem = make_private_dir(wire.serve_dir())
    if problem is not None:
        raise HookmanError(f"hookman cannot use {directory}: {problem}.", UNSAFE_HINT)
    replace_file(os.path.join(directory, name), text)


UNSAFE_HINT = "make that directory yours and writable by you alone (`chmod go-w`)."


def start(wait: float = START_WAIT_S) -> tuple[int | None, int, bool]:
    """Start the server in the background, in a session of its own, and return once it
    proves its identity: (pid, port, whether it was already running)."""
    secret = wire.ensure_secret()
    port = serve_port()
    if check_identity(port, secret).state == OURS:
        return running_pid(), port, True
    elsewhere = elsewhere_problem()
    if elsewhere is not None:
        raise elsewhere
    import subprocess

    log = _open_log()
    try:
        process = subprocess.Popen(
            daemon_argv(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            close_fds=True,
        )
    finally:
        os.close(log)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if check_identity(port, secret, timeout=1.0).state == OURS:
            lost = process.poll() is not None  # another start won the lock: it serves
            return running_pid() or process.pid, port, lost
        if process.poll() is not None and not _a_server_holds_the_lock():
            raise HookmanError(_last_log_line() or "the server stopped as it started.", STATUS_HINT)
        # Ours runs, or ours left because another start won the lock: wait for the proof.
        time.sleep(POLL_S)
    raise HookmanError(
        f"the server did not answer on port {port} within {wait:g} s.",
        f"see {path_of(LOG_NAME)}; {STATUS_HINT}",
    )


def _open_log() -> int:
    from hookman.bridge.private_dir import make_private_dir

    directory, problem = make_private_dir(wire.serve_dir())
    if problem is not None:
        raise HookmanError(f"hookman cannot use {directory}: {problem}.", UNSAFE_HINT)
    path = os.path.join(directory, LOG_NAME)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        if os.path.getsize(path) > LOG_LIMIT:
            flags |= os.O_TRUNC
    except OSError:
        pass
    return os.open(path, flags, 0o600)


def _last_log_line() -> str | None:
    try:
        with open(path_of(LOG_NAME), "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 4096))
            lines = handle.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return None
    return lines[-1].split("hookman serve: ", 1)[-1] if lines else None


def stop(wait: float = STOP_WAIT_S) -> int | None:
    """Stop the running server (SIGTERM; SIGKILL past `wait`). Its pid, or None when none
    ran."""
    pid = running_pid()
    if pid is None or not _a_server_holds_the_lock() or not wire.names_hookman(pid):
        return None  # a pid file left by a server that died: its pid may be anyone's now
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return None
    except PermissionError:
        raise HookmanError(
            f"the server's pid file names process {pid}, which hookman may not stop.",
            f"remove {path_of(wire.SERVER_PID_NAME)} if that process is not hookman's server.",
        ) from None
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not _alive(pid):
            return pid
        time.sleep(POLL_S)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + KILL_WAIT_S  # gone, its lock let go: a start may follow
    while _alive(pid) and _a_server_holds_the_lock() and time.monotonic() < deadline:
        time.sleep(POLL_S)
    return pid


def _alive(pid: int) -> bool:
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)  # our own child (a start in this process)
        if reaped:
            return False
    except ChildProcessError:
        pass
    return wire.process_runs(pid)


# -- running in the foreground (`hookman serve run`, and the background server) ----------


def run(port: int | None = None, *, quiet_when_running: bool = False) -> int:
    """Serve until SIGTERM or SIGINT. Refuses while another server of this user runs (the
    lock) and on a port another process holds."""
    from hookman.bridge.private_dir import make_private_dir

    secret = wire.ensure_secret()
    directory, problem = make_private_dir(wire.serve_dir())
    if problem is not None:
        raise HookmanError(f"hookman cannot use {directory}: {problem}.", UNSAFE_HINT)
    lock = _take_lock()
    if lock is None:
        if quiet_when_running:
            return 0
        pid = running_pid()
        raise HookmanError(
            f"a hookman server already runs{f' (pid {pid})' if pid else ''}.", STATUS_HINT
        )
    chosen = port or serve_port()
    _raise_descriptor_limit()
    listener, handoff = _listen(chosen)
    # Its port first: a live pid always names a server whose `listening` file is its own
    # (the prompt gate reads them without the lock).
    _write_private(wire.LISTENING_NAME, f"{chosen}\n")
    _write_pid()
    from hookman.serve.keeper import Keeper
    from hookman.serve.server import Server
    from hookman.serve.warm import read_site, warm_up

    server = Server(listener, secret, log=True)
    server.keeper = Keeper(listener)  # holds the port once this process ends (serve/keeper.py)
    if handoff is not None:
        handoff.confirm()  # the earlier keeper leaves: this process and its keeper hold the port
    server.extra_fds = (lock,)
    warm_up()
    read_site()
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    signal.signal(signal.SIGINT, lambda *_: server.stop())
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    server._say(f"listening on {wire.HOST}:{chosen} (pid {os.getpid()})")
    try:
        server.serve_forever()
    finally:
        _remove_pid()
    server._say("stopped")
    return 0


def _a_server_holds_the_lock() -> bool:
    """Whether a server runs: it holds the lock for as long as it lives (the kernel lets go
    of it when the process ends, however it ends)."""
    descriptor = _take_lock()
    if descriptor is None:
        return True
    os.close(descriptor)
    return False


def _take_lock() -> int | None:
    import fcntl

    descriptor = os.open(path_of(LOCK_NAME), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return None
    return descriptor


def _raise_descriptor_limit() -> None:
    """The soft limit on open descriptors raised to the hard one, as Node (which runs Claude
    Code) does for itself and the command hooks it starts (measured: a child of `node`
    started with a soft limit of 256 reads the hard limit): a low soft limit (256 on macOS)
    would leave the server without descriptors for its connections long before its own
    limit of them."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = UNLIMITED_DESCRIPTORS if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _listen(port: int) -> tuple[Any, Handoff | None]:
    """The listening socket, and the handoff to confirm when a keeper offered it."""
    from hookman.serve.server import bind_listener

    try:
        return bind_listener(port), None
    except OSError as error:
        handoff = _from_keeper(port) if error.errno == errno.EADDRINUSE else None
        if handoff is not None:
            return handoff.listener, handoff
        if error.errno != errno.EADDRINUSE:
            raise HookmanError(
                f"the server cannot listen on {wire.HOST}:{port} ({error.strerror}).",
                "choose another port: `hookman serve enable --port N`, then `hookman install`.",
            ) from None
        holder = port_holder(port)
        if holder is not None and "hookman.serve.daemon" in holder:
            raise HookmanError(
                f"port {port} is held by hookman's own port keeper or server ({holder}), "
                "which did not hand it over.",
                "it may be stopped or busy: try `hookman serve start` again (do not kill it: "
                "the port would be free for any process); `hookman serve disable` lets it go.",
            ) from None
        raise HookmanError(
            f"port {port} is taken by {holder or 'another process'}, so the server cannot "
            f"listen there.",
            "stop that process, or choose another port: `hookman serve enable --port N`, then "
            "`hookman install` in each project.",
        ) from None


def _from_keeper(port: int) -> Handoff | None:
    """The port's listening socket offered by this user's keeper (serve/keeper.py), or None.
    A keeper whose server just ended may not take requests yet: asked again for a moment."""
    from hookman.serve.keeper import keeper_pid, take_port

    deadline = time.monotonic() + KEEPER_WAIT_S
    while True:
        taken = take_port(port)
        if taken is not None or keeper_pid() is None or time.monotonic() >= deadline:
            return taken
        time.sleep(POLL_S)


def _write_pid() -> None:
    wire.write_pid(wire.SERVER_PID_NAME, os.getpid())


def _remove_pid() -> None:
    wire.remove_own_pid(wire.SERVER_PID_NAME)
