"""`hookman completions SHELL`: print the completion script hookman ships (the top-level
`completions/` of the repository, `hookman/completions` in the wheel)."""

from __future__ import annotations

import difflib
import os
import sys

from hookman import shipped_dir
from hookman.commands.options import Argument, cli_command
from hookman.errors import HookmanError

FILE_NAMES = {"bash": "hookman.bash", "zsh": "_hookman", "fish": "hookman.fish"}


@cli_command(
    "completions",
    Argument("shell", "SHELL", show_default=False, complete="shells", help="bash, zsh or fish."),
    help="Print the shell completion script for bash, zsh or fish.",
    examples=(
        "hookman completions bash > ~/.local/share/bash-completion/completions/hookman",
        "hookman completions zsh > ~/.zfunc/_hookman",
        "hookman completions fish > ~/.config/fish/completions/hookman.fish",
    ),
)
def print_completions(shell: str) -> int:
    name = FILE_NAMES.get(shell)
    if name is None:
        close = difflib.get_close_matches(shell, list(FILE_NAMES), n=1)
        guess = f"did you mean {close[0]}? " if close else ""
        raise HookmanError(
            f"hookman has no completions for {shell!r}.",
            f"{guess}use one of: {', '.join(f'`hookman completions {s}`' for s in FILE_NAMES)}.",
            exit_code=2,
        )
    directory = shipped_dir("completions")
    try:
        if directory is None:
            raise FileNotFoundError("no completions directory")
        with open(os.path.join(directory, name), encoding="utf-8") as handle:
            sys.stdout.write(handle.read())
    except OSError as error:
        raise HookmanError(
            f"the {shell} completion script is missing from this hookman install ({error}).",
            "reinstall hookman.",
        ) from None
    return 0
