"""A warm worker: a process forked from the server's warm image for one installed manifest,
that runs that project's events one after the other, each in process, by the runner's own
code (bridge/serve_child.run_event: the same `_Run` a per-event child runs).

Each event is run as a fresh process would run it: a fresh `_Run` reads the manifest, the
project-changed and drift checks and the hooks as they are now; every module the event
imported is forgotten afterwards (serve/leftovers.py), so an edited hook or sibling module
is imported anew at the next event, and its garbage is collected (the hooks' finalizers run
then, after the answer, never inside the next event). Then the worker checks what the event may
have left behind (leftovers.py) and ends when anything differs, after a number of events,
or when the server closes its socket (idle, stopping): the next event then gets a fresh
worker. The answer goes to the pipe the server sent with the request; the end of the run
(the runner's exit code) on the socket pair. A worker never returns: it ends with os._exit."""

from __future__ import annotations

import contextlib
import gc
import os
import socket

from hookman.bridge import server_death
from hookman.bridge.run_command import EXIT_NO_ANSWER
from hookman.bridge.serve_child import become_own_process, client_environment, run_event
from hookman.serve.leftovers import Baseline, environment
from hookman.serve.worker_frame import (
    DONE,
    FRAME_LIMIT,
    RETIRING,
    decode_request,
    frame_length,
)

EVENT_LIMIT = 500  # events one worker runs before it ends (a fresh fork takes over)
_LENGTH_SIZE = 4


def serve_worker(
    manifest_path: str,
    control: socket.socket,
    server_fds: tuple[int, ...],
    *,
    event_limit: int = EVENT_LIMIT,
    say: object = None,
) -> None:
    try:
        null = become_own_process(server_fds, keep=control.fileno())
        control.setblocking(True)
        _register_capture_fork_hook()
        _close_in_forks(control.fileno())
        server_death.adopt_descendants()
        baseline = Baseline()
        gc.freeze()  # kept for the worker's life: each event's collect walks only its own
        for count in range(1, event_limit + 1):
            request = _receive(control)
            if request is None:
                break
            body, answer_fd = request
            code, problem = _run(manifest_path, body, answer_fd, null, baseline)
            retiring = problem is not None or count >= event_limit
            if problem is not None and callable(say):
                say(f"a warm worker ends: after its last event {problem}")
            control.sendall(DONE.pack(code & 0xFF, RETIRING if retiring else 0))
            if retiring:
                break
    except BaseException:  # the server answers for a run that gave no answer
        os._exit(EXIT_NO_ANSWER)
    os._exit(0)


def _receive(control: socket.socket) -> tuple[bytes, int] | None:
    """The next request's frame and its answer pipe; None when the server closed the socket
    or sent something that is not one whole frame with one descriptor."""
    data, fds, _flags, _address = socket.recv_fds(control, _LENGTH_SIZE + FRAME_LIMIT + 1024, 1)
    if len(data) < _LENGTH_SIZE or len(fds) != 1:
        for descriptor in fds:
            os.close(descriptor)
        return None
    wanted = frame_length(data[:_LENGTH_SIZE])
    body = bytearray(data[_LENGTH_SIZE:])
    while len(body) < wanted:
        chunk = control.recv(wanted - len(body))
        if not chunk:
            os.close(fds[0])
            return None
        body += chunk
    return bytes(body), fds[0]


def _run(
    manifest_path: str, body: bytes, answer_fd: int, null: int, baseline: Baseline
) -> tuple[int, str | None]:
    event, project_dir, payload, received_at = decode_request(body)
    worker_pid = os.getpid()
    os.dup2(answer_fd, 1)
    os.close(answer_fd)
    try:
        client_environment(project_dir, payload)
        environ = environment()
        cwd = os.getcwd()
        code = run_event(event, manifest_path, payload, received_at=received_at)
        if os.getpid() != worker_pid:  # a hook's fork (without exec) came back here: it
            os._exit(0)  # must never take a request or say a run ended
    finally:
        os.dup2(null, 1)  # the pipe's last copy here: the server reads the answer's end
    baseline.restore_runner_state()
    baseline.drop_new_modules()
    collect_garbage()  # before the check: a finalizer may leave something behind too
    problem = baseline.problem(environ, cwd)
    if problem is None:
        try:
            os.chdir(baseline.cwd)
        except OSError:
            problem = "the server's working directory is gone"
    return code, problem


def collect_garbage() -> None:
    """Collect what the event's dropped modules leave (a module, its functions and their
    globals form cycles): any finalizer of the hooks' objects runs now, after the answer
    went out and before the run's end is said, under the server's deadline for this run
    (serve/workers.py kills a worker still running past it), never inside the next event,
    whose answer it would delay."""
    gc.collect()


def _close_in_forks(descriptor: int) -> None:
    """A process a hook forks without exec (a daemon it leaves, however it detaches) never
    holds the worker's socket to the server, on which it could take a later event's request
    and answer it. Exec'd programs never get it (not inheritable); a grandchild's descriptor
    of the same number is another file, so only the worker's own children close it."""
    worker = os.getpid()

    def close_in_child() -> None:
        if os.getppid() == worker:
            with contextlib.suppress(OSError):
                os.close(descriptor)

    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=close_in_child)


def _register_capture_fork_hook() -> None:
    """The output capture registers its fork hook once per process, at its first start:
    done here, before the baseline, so that the first event changes nothing of it."""
    from hookman.bridge import capture

    if not capture._fork_hook_registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=capture._detach_in_child)
        capture._fork_hook_registered = True
