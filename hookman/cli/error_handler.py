"""Turns every failure of a command into one clear line plus a hint and an exit code.

HookmanError carries the user-facing sentence. Anything else is a bug: the user gets one line
naming the crash log; `--debug` prints the traceback instead.
"""

from __future__ import annotations

import datetime
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

import typer

from hookman import __version__
from hookman.errors import HookmanError, out_of_descriptors
from hookman.output import print_error

BROKEN_PIPE_EXIT = 141  # what a shell reports for a process ended by SIGPIPE


def run_command(debug: bool, command: Callable[..., int | None], *args: Any, **kwargs: Any) -> None:
    try:
        code = command(*args, **kwargs)
    except HookmanError as error:
        if debug:
            traceback.print_exc()
        print_error(error.message, error.hint)
        raise typer.Exit(error.exit_code) from None
    except KeyboardInterrupt:
        print_error("interrupted.")
        raise typer.Exit(130) from None
    except BrokenPipeError:  # `hookman list | head -1`: the reader has all it wanted
        silence_stdout()
        raise typer.Exit(BROKEN_PIPE_EXIT) from None
    except (typer.Exit, typer.Abort):
        raise
    except Exception as error:  # a bug: keep the traceback for the report, not the screen
        limit = out_of_descriptors(error)
        if limit is not None:  # the user's limit, not a bug
            print_error(limit.message, limit.hint)
            raise typer.Exit(limit.exit_code) from None
        if debug:
            traceback.print_exc()
            raise typer.Exit(1) from None
        log_path = _write_crash_log(error)
        where = f" (details in {log_path})" if log_path else ""
        print_error(
            f"internal error: {type(error).__name__}: {error}{where}.",
            "run again with `hookman --debug ...` to see the traceback, and report it.",
        )
        raise typer.Exit(1) from None
    raise typer.Exit(code or 0)


def silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush into a closed pipe does
    not print "Exception ignored ... BrokenPipeError" (the recipe of Python's signal docs)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _write_crash_log(error: BaseException) -> str | None:
    try:
        from hookman.paths import log_dir

        directory = log_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "crash.log"
        stamp = datetime.datetime.now(datetime.timezone.utc).isoformat()
        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"--- {stamp} hookman {__version__} python {sys.version.split()[0]}\n")
            handle.write(f"argv: {sys.argv!r}\n{text}\n")
        return str(path)
    except OSError:
        return None
