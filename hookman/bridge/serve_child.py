"""The warm server's child: one request run by the runner's own code.

The server (hookman/serve/) forks a child per request; the child calls `run_request`, which
runs the same `_Run` as `hookman run EVENT --manifest PATH` (dispatch, conformance, the
fail-closed rules, the project-changed and drift checks, the deadlines, the firing log),
with the payload from the request instead of stdin, and its one answer line written to
`answer_fd` (a pipe the server reads) instead of the client's stdout. The child never
returns: it ends with os._exit, as the launched runner does."""

from __future__ import annotations

import os
import signal
import sys

from hookman.bridge import server_death
from hookman.bridge.manifest_reader import PROJECT_DIR_VARIABLE
from hookman.bridge.run_command import EXIT_NO_ANSWER, _Run

_RESET_SIGNALS = ("SIGCHLD", "SIGTERM", "SIGINT", "SIGHUP", "SIGPIPE")


def run_request(
    event: str,
    manifest_path: str,
    payload: bytes,
    answer_fd: int,
    *,
    run_async: bool,
    received_at: float,
    project_dir: str | None,
    server_fds: tuple[int, ...] = (),
) -> None:
    """In the freshly forked child: become a process group of its own (the server kills the
    whole group at its hard deadline), take the answer pipe as stdout, and run."""
    code = EXIT_NO_ANSWER
    try:
        _become_own_process(answer_fd, server_fds)
        client_environment(project_dir, payload)
        code = run_event(
            event, manifest_path, payload, received_at=received_at, run_async=run_async
        )
    except BaseException:  # the server answers for a child that could not
        code = EXIT_NO_ANSWER
    finally:
        os._exit(code)


def run_event(
    event: str,
    manifest_path: str,
    payload: bytes,
    *,
    received_at: float,
    run_async: bool = False,
) -> int:
    """One event by the runner's own `_Run`, its answer line on fd 1; the exit code a
    launched runner would end with. A warm worker (hookman/serve/worker_loop.py) calls this
    once per event; the run's deadline is disarmed when it returns."""
    run = _Run(event, manifest_path, run_async)
    run.raw_payload = payload
    run.received_at = received_at
    try:
        return run.execute()
    except BaseException:
        return EXIT_NO_ANSWER
    finally:
        if run.deadline is not None:
            run.deadline.cancel()


def become_own_process(server_fds: tuple[int, ...], *, keep: int) -> int:
    """A warm worker's start: as a per-event child's, with fd 1 on /dev/null between events
    and `keep` (its socket to the server) left open. Returns the /dev/null descriptor."""
    _become_own_process(
        os.open(os.devnull, os.O_WRONLY), tuple(fd for fd in server_fds if fd != keep)
    )
    return os.open(os.devnull, os.O_WRONLY)


def _become_own_process(answer_fd: int, server_fds: tuple[int, ...]) -> None:
    try:
        os.setsid()
    except OSError:
        pass
    signal.set_wakeup_fd(-1)
    for name in _RESET_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL if name != "SIGPIPE" else signal.SIG_IGN)
    server_death.arm()  # a server killed outright takes this run's group with it
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(answer_fd, 1)
    os.set_inheritable(1, True)
    if null > 2:
        os.close(null)
    for descriptor in (answer_fd, *server_fds):  # its sockets, its lock, other children's pipes
        if descriptor > 2:
            try:
                os.close(descriptor)
            except OSError:
                pass
    sys.stdout = sys.stderr = sys.__stderr__  # nothing of the server's buffers reaches fd 1


def client_environment(project_dir: str | None, payload: bytes) -> None:
    """What a command entry's process has from the client: CLAUDE_PROJECT_DIR (from the
    entry's header; absent, the foreign-project check cannot tell), and the session's
    working directory (the payload's `cwd`)."""
    if project_dir:
        os.environ[PROJECT_DIR_VARIABLE] = project_dir
    else:
        os.environ.pop(PROJECT_DIR_VARIABLE, None)
    if b'"cwd"' not in payload:
        return
    from hookman.bridge import lean_json

    try:
        cwd = lean_json.loads(payload.decode("utf-8")).get("cwd")
        if isinstance(cwd, str) and cwd:
            os.chdir(cwd)
    except (ValueError, UnicodeDecodeError, AttributeError, OSError, RecursionError):
        pass
