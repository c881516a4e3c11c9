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
    """The name holds something that is not a regular file (a FIFO, a device, a directory);
    `kind` says what, as the runner's loader names it ("a named pipe (FIFO)")."""

    def __init__(self, path: str, mode: int) -> None:
        from hookman.runtime.hook_paths import not_a_file  # only when one is refused

        super().__init__(f"{path} is not a regular file")
        self.kind = not_a_file(mode) or "not a regular file"


def open_regular(path: str, flags: int, mode: int = 0o600, *, follow: bool = False) -> int:
    """os.open that cannot block on a FIFO or (unless `follow`) follow a symlink at `path`,
    and refuses anything but a regular file (a socket too, which cannot be opened at all);
    the descriptor is left blocking, as usual."""
    extra = _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW)
    try:
        descriptor = os.open(path, flags | extra, mode)
    except OSError as error:
        _refuse_socket(path, error, follow)
        raise
    try:
        found = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(found):
            raise NotRegularFile(path, found)
        if _NONBLOCK:
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _refuse_socket(path: str, error: OSError, follow: bool) -> None:
    """A socket at the name fails os.open with ENXIO: NotRegularFile, as for a FIFO."""
    import errno

    if error.errno != errno.ENXIO:
        return
    try:
        found = (os.stat if follow else os.lstat)(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(found):
        raise NotRegularFile(path, found) from None


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
