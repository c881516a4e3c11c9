"""Claude Code's `statusLine` setting for `hookman statusline`: the value hookman writes
(`hookman statusline --install`) and how hookman's is recognised (uninstall, doctor).

Claude Code runs the command with its own PATH, which often lacks the virtual environment
hookman is installed in; a bare `hookman statusline` then prints nothing. So the command
names this interpreter by its absolute path: `'/abs/python' -m hookman statusline`.
"""

from __future__ import annotations

import os
import shlex
import sys
from typing import Any, NamedTuple

from hookman.project.settings_entries import shell_words

STATUS_LINE_KEY = "statusLine"
STATUSLINE_WORD = "statusline"


class StatusLineCommand(NamedTuple):
    """What a hookman statusLine command runs: the interpreter (None for a `hookman`
    program named by path or bare name) and the program word as written."""

    interpreter: str | None
    program: str


def status_line_value(python: str | None = None) -> dict[str, Any]:
    """The statusLine hookman writes: this interpreter (by absolute path) running hookman's
    status line."""
    interpreter = os.path.abspath(python or sys.executable)
    return {"type": "command", "command": f"{shlex.quote(interpreter)} -m hookman statusline"}


def hookman_status_line(value: Any) -> StatusLineCommand | None:
    """What a statusLine value runs when it is hookman's (`PY -m hookman statusline ...` or a
    program named `hookman` then `statusline`); None otherwise."""
    if not isinstance(value, dict) or not isinstance(value.get("command"), str):
        return None
    try:
        words = list(shell_words(value["command"]))
    except ValueError:
        return None
    if len(words) >= 4 and words[1:4] == ["-m", "hookman", STATUSLINE_WORD]:
        return StatusLineCommand(words[0], words[0])
    if len(words) >= 2 and os.path.basename(words[0]) == "hookman" and words[1] == STATUSLINE_WORD:
        return StatusLineCommand(None, words[0])
    return None
