"""`hookman serve run/start/stop/status/enable/disable`: the warm per-user hook server
(docs/serve.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookman.commands.options import JSON, Group, Option, cli_command
from hookman.output import console, escape, print_json

if TYPE_CHECKING:
    from typing import TypedDict

    from rich.console import Console

    class ServeStatusJson(TypedDict):
        running: bool
        pid: int | None
        port: int
        version: str | None
        opted_in: bool
        problem: str | None
        kept: bool


GROUP = Group(
    "serve",
    help="The warm hook server: one process answers every project's hooks.",
    examples=("hookman serve enable", "hookman serve status"),
)
NEXT_INSTALL = "run `hookman install` in each project so its entries reach the server"


@cli_command(
    "serve run",
    Option(
        "--port", metavar="N", type="int", help="Port on 127.0.0.1 (default: the recorded one)."
    ),
    help="Run the hook server in the foreground (for systemd, launchd or a terminal).",
    examples=("hookman serve run",),
)
def run(*, port: int | None = None) -> int:
    """Serve until stopped (SIGTERM or Ctrl-C): this process becomes the server's lean entry
    (hookman/serve/daemon.py), so the image every child is forked from holds no CLI."""
    import os
    import sys

    from hookman.bridge.serve_gate import daemon_argv
    from hookman.serve.daemon import foreground_words

    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, daemon_argv(*foreground_words(port)))


@cli_command(
    "serve start",
    help="Start the hook server in the background (nothing to do when it runs).",
    examples=("hookman serve start",),
)
def start() -> int:
    """Start the server in a session of its own; return once it proves its identity."""
    from hookman.serve.lifecycle import start as start_server

    pid, port, already = start_server()
    shown = f" (pid {pid})" if pid else ""
    if already:
        console().print(f"the hook server already runs on port {port}{shown}")
    else:
        console().print(f"started the hook server on port {port}{shown}")
    return 0


@cli_command(
    "serve stop",
    help="Stop the hook server (guarded calls of projects using it are denied until it runs).",
    examples=("hookman serve stop",),
)
def stop() -> int:
    from hookman.serve.lifecycle import listening_port
    from hookman.serve.lifecycle import stop as stop_server

    port = listening_port()
    pid = stop_server()
    out = console()
    if pid is None:
        out.print("the hook server is not running")
    else:
        out.print(f"stopped the hook server (pid {pid})")
        _say_kept(out, port)
        from hookman.serve.wire import opted_in

        if opted_in():
            out.print(
                "it starts again at the next prompt of a project using it, or `hookman serve start`"
            )
        else:
            out.print(OPTED_OUT)
    return 0


def _say_kept(out: Console, port: int | None) -> None:
    """Who holds the stopped server's port: hookman's keeper (serve/keeper.py, proven by the
    identity check), another process, or nothing."""
    from hookman.serve.lifecycle import port_keeper, serve_port

    kept = port or serve_port()
    keeper = port_keeper(kept)
    if keeper.kept:
        shown = f" (pid {keeper.pid})" if keeper.pid is not None else ""
        out.print(
            f"hookman keeps port {kept}{shown} so that no other process answers for the "
            "server: guarded calls are denied until it runs again"
        )
    elif keeper.detail:
        out.print(
            f"port {kept} is not hookman's: {escape(keeper.detail)}; a project whose entries "
            "post there gets that process's answers: run `hookman install` in it"
        )


@cli_command(
    "serve status",
    JSON,
    help="Whether the hook server runs, where, and whether you opted in.",
    examples=("hookman serve status --json",),
)
def status(*, json_output: bool = False) -> int:
    """Exit 0 when the server runs, 1 when it does not (or another process holds its port)."""
    from hookman.bridge.serve_proof import UNRESPONSIVE_FIX
    from hookman.serve.lifecycle import status as server_status

    found = server_status()
    said = found.unusable or found.elsewhere  # the server cannot be proven, or runs elsewhere
    if json_output:
        shown: ServeStatusJson = {
            "running": found.running,
            "pid": found.pid if found.running else None,
            "port": found.port,
            "version": found.version,
            "opted_in": found.opted_in,
            "problem": (
                said.message if said is not None else found.unresponsive or found.detail or None
            ),
            "kept": found.kept,  # hookman's port keeper holds the port (serve/keeper.py)
        }
        print_json(shown)
        return 0 if found.running else 1
    out = console()
    opted = "on" if found.opted_in else "off (`hookman serve enable` turns it on)"
    if found.running:
        shown_pid = f", pid {found.pid}" if found.pid else ""
        out.print(f"the hook server runs on port {found.port} (hookman {found.version}{shown_pid})")
    elif said is not None:
        out.print(escape(said.message))
        out.print(escape(said.hint or ""))
    elif found.unresponsive:
        out.print(f"the hook server does not answer: {escape(found.unresponsive)}")
        out.print(f"run {UNRESPONSIVE_FIX}")
    elif found.detail:
        out.print(f"the hook server is not running: {escape(found.detail)}")
        out.print(
            "stop that process, or choose another port: `hookman serve enable --port N`, then "
            "`hookman install` in each project"
        )
    else:
        out.print(f"the hook server is not running (port {found.port})")
        if found.kept:
            shown_pid = f" (pid {found.pid})" if found.pid else ""
            out.print(
                f"hookman keeps the port{shown_pid} so that no other process answers for the "
                "server: guarded calls are denied until it runs again"
            )
        if found.opted_in:
            out.print(
                "start it with `hookman serve start` "
                "(the next prompt of a project using it also does)"
            )
    out.print(f"opt-in: {opted}")
    if not found.opted_in and (found.running or _once_opted_in()):
        out.print(OPTED_OUT)
    return 0 if found.running else 1


def _once_opted_in() -> bool:
    """Whether the user ever opted in (`serve enable` records the port; disable keeps it)."""
    from hookman.serve import wire

    return wire.read_port() is not None


# What status adds when the user opted out: a project installed before `serve disable` and
# not since keeps entries that reach the server, and its next prompt starts it again.
OPTED_OUT = (
    "projects installed since `hookman serve disable` run command entries; one whose entries "
    "still reach the server starts it at its next prompt: run `hookman install` there (then "
    "`hookman serve stop`)"
)


@cli_command(
    "serve enable",
    Option(
        "--port",
        metavar="N",
        type="int",
        help="Port on 127.0.0.1 to record (default: kept, or per user).",
    ),
    help="Opt in: projects' entries reach the hook server where the client allows it.",
    examples=("hookman serve enable", "hookman serve enable --port 47400"),
)
def enable(*, port: int | None = None) -> int:
    from hookman.serve.lifecycle import enable as enable_server

    enabled = enable_server(port)
    out = console()
    out.print(f"the hook server is on for your projects (port {enabled.port})")
    if enabled.must_move:
        _move(out, enabled.running_on, enabled.port)
    out.print(f"next: {NEXT_INSTALL}")
    return 0


def _move(out: Console, old: int | None, new: int) -> None:
    """The running server listens on `old` (None: it does not say): stop it and start it on
    the new recorded port (its keeper stays on `old` and denies the guarded calls of projects
    still installed for it, naming `hookman install`)."""
    from hookman.serve.lifecycle import start as start_server
    from hookman.serve.lifecycle import stop as stop_server

    stop_server()
    pid, _port, _already = start_server()
    shown = f" (pid {pid})" if pid else ""
    origin = f" from port {old}" if old is not None else ""
    out.print(f"moved the hook server{origin} to port {new}{shown}")
    if old is not None:
        out.print(
            f"hookman keeps port {old} until you opt out: guarded calls of projects still "
            "installed for it are denied, naming `hookman install`"
        )


@cli_command(
    "serve disable",
    help="Opt out: projects' entries go back to commands at their next install.",
    examples=("hookman serve disable",),
)
def disable() -> int:
    from hookman.serve.lifecycle import disable as disable_server
    from hookman.serve.lifecycle import running_pid

    disabled = disable_server()
    out = console()
    off = "the hook server is off for your projects"
    out.print(off if disabled.was_on else "the hook server was not on")
    stop = "; then `hookman serve stop`" if running_pid() is not None else ""
    if not disabled.posting:
        out.print(f"no project's entries post to port {disabled.port}: hookman lets it go")
        if stop:
            out.print("next: `hookman serve stop`")
        return 0
    count = len(disabled.posting)
    out.print(
        f"{count} {'project' if count == 1 else 'projects'} still "
        f"{'posts' if count == 1 else 'post'} to port {disabled.port}: hookman keeps the port, "
        "so that no other process answers their guarded calls, until each is installed again:"
    )
    for project in disabled.posting:
        out.print(f"  {escape(project)}")
    out.print(f"next: run `hookman install` in each so its entries are commands again{stop}")
    return 0
