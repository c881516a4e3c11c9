"""The site, read once the runner's clock runs.

The launcher starts the runner isolated and without the site (`python -I -S`), so no `.pth`
file, `sitecustomize` or PYTHON* variable can run code, stall or print before the runner has
armed its deadline, its hard stop and its watchdog, and started capturing output. Then
`start_site` does what the interpreter's own start did for the launcher of format 2
(`python -P`), so hooks import what they imported before: PYTHONPATH ahead of the standard
library, the site-packages of the interpreter or its venv with their `.pth` files,
sitecustomize, and the user site with usercustomize (unless PYTHONNOUSERSITE is set or a venv
hides it). Other PYTHON* variables are not read: -I ignores them."""

from __future__ import annotations

import os
import sys

_read: list[bool] = []  # the site was read in this process (the warm server's image: once)


def start_site(own_entry: str | None = None, *, read_pythonpath: bool = True) -> None:
    """Read the site now, when the interpreter was started without it (-S) and it was not
    read yet; else nothing. `own_entry`, the sys.path entry the launcher added for hookman,
    moves to where the site puts it (an editable install's .pth, or site-packages itself),
    else it stays last. `read_pythonpath`: put PYTHONPATH's entries first, as the
    interpreter's own start would have (the warm server does not: it answers every project,
    whichever session started it)."""
    if not sys.flags.no_site or _read:
        return
    _read.append(True)
    if own_entry in sys.path:
        sys.path.remove(own_entry)
    else:
        own_entry = None
    if sys.flags.ignore_environment and read_pythonpath:
        extra = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
        sys.path[0:0] = [os.path.abspath(entry) for entry in extra]
    import site

    if sys.flags.no_user_site and sys.flags.isolated:
        site.ENABLE_USER_SITE = _user_site_allowed()
    try:
        site.main()
    finally:
        if own_entry is not None and own_entry not in sys.path:
            sys.path.append(own_entry)


def _user_site_allowed() -> bool:
    """site.check_enableusersite, without the -s that -I implies."""
    if os.environ.get("PYTHONNOUSERSITE"):
        return False
    if hasattr(os, "getuid") and hasattr(os, "geteuid") and os.getuid() != os.geteuid():
        return False
    return not (hasattr(os, "getgid") and hasattr(os, "getegid") and os.getgid() != os.getegid())
