"""`hookman run EVENT`: the runner Claude Code invokes. hookman/__main__.py routes it to
hookman/bridge/run_command.py before the CLI layer loads; the CLI sees it only for
`hookman run --help` and usage errors. Declared here, like every command."""

from __future__ import annotations

from hookman.bridge.protocol import MANIFEST_FLAG
from hookman.commands.options import Argument, Option, cli_command


@cli_command(
    "run",
    Argument("event", "EVENT", complete="events", help="The Claude Code event name."),
    Option(
        MANIFEST_FLAG,
        metavar="FILE",
        complete="files",
        passthrough=True,
        help="The project's runner manifest (the launcher passes it).",
    ),
    rest="args",
    help="""The runner Claude Code invokes (`hookman install` writes it into the settings).

    Reads the event payload on stdin and prints one answer on stdout.""",
    examples=("hookman run PreToolUse --manifest FILE < payload.json",),
)
def run(event: str, args: list[str] | None = None) -> int:
    """Run the hooks for `event` (`args`: the runner's own options, `--manifest FILE`)."""
    from hookman.bridge.run_command import main

    return main([event, *(args or [])])
