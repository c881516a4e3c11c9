"""Where a configured hook path points (docs/dispatch.md, "Loading hooks").

`~` and `~/x` expand to the home directory; any other `~text` means `<home>/text`, as in
pi (not another user's home). Relative paths resolve against the `cwd` argument and are
normalised; absolute paths are kept exactly as given, `..` included.
"""

from __future__ import annotations

import os
import stat

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


class NotAFile(OSError):
    """A hook's module, or a module it imports, that is a named pipe, a directory or a
    device: reading a named pipe would wait for a writer until the deadline."""


def not_a_file(mode: int) -> str | None:
    """What a file of `mode` is when it is no regular file ("a named pipe (FIFO)"); None
    for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def refuse_non_file(path: str) -> None:
    """NotAFile when `path` exists and is no regular file (a path that does not exist is
    left for the import to report)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    kind = not_a_file(mode)
    if kind is not None:
        raise NotAFile(f"{path} is {kind}, not a Python file")
