"""Entry point for both `hookman` and `python -m hookman`.

Routes the commands that must start fast to their lean code before the CLI layer (typer)
loads: `run` (Claude Code invokes it on every event), `statusline` (on every status
update), `__complete` (the shell completion scripts, on TAB), a bare `--version`, and the
reading commands typed most (`list`, `doctor`) when their options are plain
(cli/lean_commands.py).
Everything else, and any lean command given arguments it does not handle (`--help`), goes
to typer in hookman/cli/app.py.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    code = _command(argv)
    return code if argv is not None else _ended(code)


def _ended(code: int) -> int:
    """In hookman's own process: a command that ran the project's hooks in it (`fire`,
    `doctor --probe`) ends once its output is written, as the runner does. The interpreter's
    own exit would run the hooks' finalizers and atexit jobs, which may never return."""
    rehearsal = sys.modules.get("hookman.rehearsal.rehearse")
    if rehearsal is None or not rehearsal.hooks_ran_here():
        return code
    import contextlib
    import os

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that left, a closed stream
            stream.flush()
    os._exit(code)


def _command(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    first = args[0] if args else None
    if first == "run" and args[1:] not in (["--help"], ["-h"]):
        from hookman.bridge.run_command import main as run_main

        return run_main(args[1:])
    if argv is None and first not in _LEAN_STARTS:  # a management command's own process
        from hookman.cli.bytecode_cache import keep_bytecode

        keep_bytecode()
    if first == "statusline":
        from hookman.commands.statusline import lean_main

        code = lean_main(args[1:])
        if code is not None:
            return code
    elif first == "install":  # a repeated bare install that nothing changed since
        from hookman.install.unchanged import lean_main as install_main

        code = install_main(args[1:])
        if code is not None:
            return code
    elif first == "__complete":
        from hookman.cli.complete_words import main as complete_main

        return complete_main(args[1:])
    elif first in ("list", "doctor"):  # cli/lean_commands.py LEAN_COMMANDS
        from hookman.cli.lean_commands import main as lean_main

        code = lean_main(first, args[1:])
        if code is not None:
            return code
    elif args == ["--version"]:
        from hookman import __version__

        sys.stdout.write(f"hookman {__version__}\n")
        return 0
    from hookman.cli.app import main as cli_main

    return cli_main(args)


# Commands whose start is measured in milliseconds, left as they are (no cache directory
# looked at): the status line on every update, TAB completion, `--version`.
_LEAN_STARTS = ("statusline", "__complete", "--version")


if __name__ == "__main__":
    sys.exit(main())
