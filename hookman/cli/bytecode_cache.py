"""hookman's own bytecode, kept where Python may not write it beside the sources.

With PYTHONDONTWRITEBYTECODE set (container images set it often) and an install whose
sources have no compiled bytecode (an editable install, `pip install --no-compile`), every
command compiles hookman's modules again at each start: `hookman list` then costs about twice
typer's import. A management command run as a process keeps the bytecode instead under
hookman's cache directory (`sys.pycache_prefix`), as the runner keeps the hooks'
(bridge/run_command.py), never beside the user's files. The directory is checked private
first (bridge/private_dir.py): Python runs a cached .pyc whose recorded source stamp
matches, so a directory another user could write would let them plant hookman's code.
"""

from __future__ import annotations

import os
import sys

CACHE_NAME = "pycache"


def keep_bytecode() -> None:
    """Cache bytecode under hookman's cache directory when Python was told not to write it
    beside the sources; nothing when it may, or a prefix is set already, or the directory
    is not private."""
    if not sys.dont_write_bytecode or sys.pycache_prefix is not None:
        return
    from hookman.bridge.private_dir import make_private_dir
    from hookman.user_dirs import user_dir

    try:
        directory, problem = make_private_dir(os.path.join(user_dir("cache"), CACHE_NAME))
    except (OSError, ValueError):
        return
    if problem is None:
        sys.pycache_prefix = directory
        sys.dont_write_bytecode = False
