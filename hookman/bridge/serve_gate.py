"""The prompt gate's check of the warm server (ARCHITECTURE.md, "The prompt gate"): a project
whose entries reach the server (the manifest's "serve": {"port": PORT}) has, at each prompt,
hookman's own server on that port or nothing.

- hookman's server (it proves it holds this user's secret): the prompt goes on;
- nothing listens, or hookman's port keeper does (the server ended; serve/keeper.py): the
  server is started in the background (not waited for; the prompt goes on, and a guarded call
  that comes before it answers is denied, by the keeper or by the client's
  `onFailure: "block"`);
- another process listens (no proof, or a wrong one): the prompt stops, naming the port and,
  where /proc shows it, the process. An impostor answering `{}` would otherwise let every
  guarded call through.

Lean: the standard library only; no socket module, no hashlib (serve_proof.py)."""

from __future__ import annotations

import os
import sys

from hookman.bridge.serve_proof import (
    KEPT,
    NOTHING,
    OTHER,
    UNRESPONSIVE_FIX,
    check_identity,
    own_holder,
    read_port,
    read_secret,
    serve_dir,
    server_elsewhere,
    unresponsive_problem,
)

# Seconds the gate waits for the identity answer: hookman's server answers without a fork
# (well under a millisecond), so more means something else holds the port.
IDENTITY_TIMEOUT_S = 1.0
LOG_NAME = "server.log"
# The lean entry the background server runs (hookman/serve/daemon.py; the same code
# `hookman serve start` and `hookman serve run` run), importing hookman from where the
# runner found it.
DAEMON_CODE = (
    "import sys; sys.path.append({root!r}); from hookman.serve.daemon import main; sys.exit(main())"
)
# Isolated and without the site, as the launcher starts the runner: neither the starting
# session's working directory (`-c` puts it first on sys.path) nor its PYTHONPATH can hold
# the `hookman` the server imports (a project's own `hookman/` package would be the server
# of every project). The server reads the site once its own modules are in (serve/lifecycle).
DAEMON_FLAGS = ("-I", "-S")


def own_root() -> str:
    """The directory this process imported hookman from (the server's sys.path entry)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def daemon_code() -> str:
    """`python -c` code that runs the server, importing hookman from where this process
    found it (as the launcher does)."""
    return DAEMON_CODE.format(root=own_root())


def daemon_argv(*words: str) -> list[str]:
    """The server's command line: this interpreter, isolated, the lean entry, `words`."""
    return [sys.executable, *DAEMON_FLAGS, "-c", daemon_code(), *words]


def serve_problem(port: int) -> tuple[str, str] | None:
    """What is wrong on the project's server port: (the problem, for the log; the reason the
    prompt is stopped, for the user), or None."""
    identity = check_identity(port, read_secret(), IDENTITY_TIMEOUT_S)
    if identity.state == NOTHING:
        elsewhere = _server_elsewhere(port)
        if elsewhere is not None:
            return elsewhere
    if identity.state in (NOTHING, KEPT):  # KEPT: hookman's keeper holds the port for it
        start_server()
        return None
    if identity.state != OTHER:
        return None
    own = own_holder(port)
    if own is not None:
        problem = unresponsive_problem(own, port)
        return problem, (
            f"hookman stopped this prompt because {problem}; until it answers, this project's "
            f"guarded tool calls are denied and its other hooks do not run. Run "
            f"{UNRESPONSIVE_FIX}; `hookman serve status` says more."
        )
    from hookman.bridge.port_holder import port_holder

    holder = port_holder(port)
    who = f"another process ({holder})" if holder else "another process"
    problem = (
        f"{who} holds port {port}, where this project's hooks expect hookman's server "
        f"({identity.detail})"
    )
    return problem, serve_stop_reason(problem)


def serve_stop_reason(problem: str) -> str:
    return (
        f"hookman stopped this prompt because {problem}: its answers could let guarded tool "
        f"calls through. Stop that process, or choose another port (`hookman serve enable "
        f"--port N`, then `hookman install` in the project); `hookman serve status` says more."
    )


def _server_elsewhere(port: int) -> tuple[str, str] | None:
    """Nothing listens on the project's port while hookman's server runs on another one (a
    port recorded after it started, an install made for another port): no server can start
    on this port while that one holds the lock, so the project's guarded calls would reach
    nothing, or another process that takes the port."""
    found = server_elsewhere(port)  # (None on this port: stopping, or just started)
    if found is None:
        return None
    pid, listening = found
    where = f"port {listening}" if listening is not None else "another port"
    problem = (
        f"hookman's server runs on {where} (pid {pid}), not on port {port}, where this "
        f"project's hooks post"
    )
    recorded = read_port()
    if recorded == port:
        fix = f"`hookman serve stop` then `hookman serve start` moves it to port {port}"
    else:
        fix = "`hookman install` in the project moves its hooks to the server's port"
    reason = (
        f"hookman stopped this prompt because {problem}, so its guarded tool calls would "
        f"reach no server, or another process that takes the port. {fix[0].upper()}{fix[1:]}."
    )
    return problem, reason


def start_server() -> bool:
    """Start the server in the background, in a session of its own, its output in its log;
    a second start while one runs leaves at once (the server's lock). Never waits."""
    directory = serve_dir()
    try:
        from hookman.bridge.private_dir import make_private_dir

        directory, problem = make_private_dir(directory)
        if problem is not None:
            return False
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        log = os.open(os.path.join(directory, LOG_NAME), flags, 0o600)
    except OSError:
        return False
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_")}
    try:
        os.posix_spawn(
            sys.executable,
            daemon_argv(),
            environment,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, log, 1),
                (os.POSIX_SPAWN_DUP2, log, 2),
            ],
            setsid=True,
        )
    except (OSError, AttributeError, NotImplementedError):
        return False
    finally:
        os.close(log)
    return True
