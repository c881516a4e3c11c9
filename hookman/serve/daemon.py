"""The server's lean entry (`python -c "...; from hookman.serve.daemon import main; main()"`):
what `hookman serve start` and the prompt gate's on-demand start run in the background, and
what `hookman serve run` execs into (`--foreground [--port N]`), so that the process every
child is forked from holds no CLI (typer, click). In the background a second server of the
same user leaves quietly (the one running keeps serving) and any other failure is one line
in the server's log; in the foreground each is hookman's one sentence and hint."""

from __future__ import annotations

import os
import sys

from hookman.errors import HookmanError, out_of_descriptors
from hookman.serve.lifecycle import run

MAX_INHERITED_FD = 1024


FOREGROUND = "--foreground"


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    foreground = FOREGROUND in words
    port = _port(words)
    # Whatever the starting process left open (a client's pipe a hook process inherited)
    # must not stay open for the server's life.
    os.closerange(3, MAX_INHERITED_FD)
    try:
        return _run(port, foreground)
    except HookmanError as error:
        if foreground:
            hint = f"\n  hint: {error.hint}" if error.hint else ""
            sys.stderr.write(f"hookman: {error.message}{hint}\n")
        else:
            hint = f" ({error.hint})" if error.hint else ""
            sys.stderr.write(f"hookman serve: {error.message}{hint}\n")
        return error.exit_code


def _run(port: int | None, foreground: bool) -> int:
    try:
        return run(port, quiet_when_running=not foreground)
    except OSError as error:
        limit = out_of_descriptors(error)
        if limit is None:
            raise
        raise limit from None


def foreground_words(port: int | None) -> list[str]:
    return [FOREGROUND, *(["--port", str(port)] if port else [])]


def _port(words: list[str]) -> int | None:
    if "--port" in words:
        index = words.index("--port") + 1
        if index < len(words) and words[index].isdigit():
            return int(words[index])
    return None
