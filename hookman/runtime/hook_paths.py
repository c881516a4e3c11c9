"""Where a configured hook path points (docs/dispatch.md, "Loading hooks").

`~` and `~/x` expand to the home directory; any other `~text` means `<home>/text`, as in
pi (not another user's home). Relative paths resolve against the `cwd` argument and are
normalised; absolute paths are kept exactly as given, `..` included.
"""

from __future__ import annotations

import os

# pi turns these Unicode spaces (NBSP, U+2000-U+200A, U+202F, U+205F, U+3000) into
# ASCII spaces before resolving, since they sneak in when paths are copied from documents.
_UNICODE_SPACES = {
    ord(char): " " for char in "\u00a0\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B)))
}


def resolve_hook_path(path: str, cwd: str) -> str:
    """The absolute path that `path` names, relative paths taken from `cwd`."""
    if not isinstance(path, str):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"a hook path must be text, not {path!r}")
    path = path.translate(_UNICODE_SPACES)
    if path == "~" or path.startswith("~/"):
        path = os.path.expanduser(path)
    elif path.startswith("~"):
        path = os.path.join(os.path.expanduser("~"), path[1:])
    if os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(os.path.abspath(cwd), path))
