"""Opening hookman's state files so that a planted file cannot stall or redirect the runner:
never blocking (O_NONBLOCK: a FIFO at the name would wait for a writer forever), never
following a symlink at the name where hookman writes its own files (O_NOFOLLOW), and only
ever reading or appending to a regular file."""

from __future__ import annotations

import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
READ_LIMIT = 64 << 20  # bytes: more is not a file hookman wrote


class NotRegularFile(OSError):
    """The name holds something that is not a regular file (a FIFO, a device, a directory)."""


def open_regular(path: str, flags: int, mode: int = 0o600, *, follow: bool = False) -> int:
    """os.open that cannot block on a FIFO or (unless `follow`) follow a symlink at `path`,
    and refuses anything but a regular file; the descriptor is left blocking, as usual."""
    extra = _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW)
    descriptor = os.open(path, flags | extra, mode)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegularFile(f"{path} is not a regular file")
        if _NONBLOCK:
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def read_regular(path: str, *, follow: bool = False) -> bytes:
    """The bytes of the regular file at `path` (OSError when it is anything else)."""
    descriptor = open_regular(path, os.O_RDONLY, follow=follow)
    try:
        chunks = []
        size = 0
        while True:
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > READ_LIMIT:
                raise OSError(f"{path} is larger than {READ_LIMIT} bytes")
            chunks.append(chunk)
    finally:
        os.close(descriptor)


def replace_file(path: str, text: str) -> None:
    """Replace the file with `text` (made exclusively under a name of this process, then
    renamed: a reader sees the old text or the new, whole). Quietly skipped when it cannot
    be written: what it remembers is then worked out again."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        descriptor = open_regular(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        try:
            os.write(descriptor, text.encode("utf-8"))
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def read_text(path: str) -> str | None:
    """The regular file's text, or None when it cannot be read."""
    try:
        return read_regular(path).decode("utf-8", "replace")
    except OSError:
        return None
