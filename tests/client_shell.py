"""A launcher run as a client runs it: by a shell the client has just started.

The launcher's clock (hookman_timer in hookman/project/launcher.sh) counts the time its parent
has run as time the client already spent: its parent is the client's fresh `sh -c`. A test
that ran `sh hookman-run.sh EVENT` straight from pytest made the test process that parent,
and a pytest worker younger than the entry's timeout (a shuffled order runs any test in a
worker's first half minute) left the runner almost no time: timeout(1) killed it, exit 137.
"""

from __future__ import annotations

# `; exit $?` keeps the shell (dash and others exec a -c command's last simple command).
_SHELL = '"$@"; exit $?'


def as_client(*argv: str) -> list[str]:
    """The words that run `argv` under a fresh `/bin/sh -c`, the launcher's parent in a client."""
    return ["/bin/sh", "-c", _SHELL, "sh", *argv]
