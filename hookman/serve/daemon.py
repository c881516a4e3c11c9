"""The server's lean entry (`python -c "...; from hookman.serve.daemon import main; main()"`):
what `hookman serve start` and the prompt gate's on-demand start run in the background,
without the CLI (typer) in the process every child is forked from. A second server of the
same user leaves quietly (the one running keeps serving); any other failure is one line in
the server's log."""

from __future__ import annotations

import os
import sys

from hookman.errors import HookmanError
from hookman.serve.lifecycle import run

MAX_INHERITED_FD = 1024


def main(argv: list[str] | None = None) -> int:
    del argv
    # Whatever the starting process left open (a client's pipe a hook process inherited)
    # must not stay open for the server's life.
    os.closerange(3, MAX_INHERITED_FD)
    try:
        return run(quiet_when_running=True)
    except HookmanError as error:
        hint = f" ({error.hint})" if error.hint else ""
        sys.stderr.write(f"hookman serve: {error.message}{hint}\n")
        return 1
