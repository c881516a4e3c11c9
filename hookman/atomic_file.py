"""Crash-safe file replacement: a reader sees either the old bytes or the new, never a mix.

The new text goes to a temporary file in the same directory (so `os.replace` is an atomic
rename on the same filesystem), is flushed and fsynced, renamed over the target, and then the
directory is fsynced so the rename itself survives a power loss.

Symlinks are followed: when `path` is a symlink, its final target is replaced and the link
itself stays (so a settings file symlinked into a dotfiles repo keeps working).

A writer killed between creating its temporary file and the rename leaves that file behind
(a full copy of e.g. the settings, next to them, where git may pick it up). Temporary files
are therefore named recognisably, `.<name>.hookman-tmp-<pid>-<random>.tmp`, and every write
first removes the stale ones of the same target: those of a writer that no longer runs and
older than a minute, and any older than an hour (a pid may be reused). A live writer's file
is never touched: it exists for milliseconds, and its pid is alive. Files of older hookman
versions (`.<name>.<8 random characters>.tmp`) count as stale after a minute.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from pathlib import Path
from typing import Any

DEFAULT_NEW_FILE_MODE = 0o644
TEMP_MARKER = "hookman-tmp"
TEMP_SUFFIX = ".tmp"
STALE_AFTER_S = 60.0  # a dead writer's temporary file, once this old, is removed
ABANDONED_AFTER_S = 3600.0  # any temporary file this old is removed, whatever its pid says


def __getattr__(name: str) -> Any:
    # `atomic_file.tempfile` still names the module (tests patch tempfile.mkstemp through it)
    # although it is imported only when a file is written.
    if name == "tempfile":
        import tempfile

        return tempfile
    raise AttributeError(name)


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Replace `path` with `text` (UTF-8) atomically.

    An existing file keeps its permission bits. A new file gets `mode` when given (applied
    exactly, ignoring the umask: callers pass it to make a file private), otherwise 0o644
    filtered by the process umask, like any file the user would create.
    """
    path = _follow_symlinks(path)
    data = text.encode("utf-8")
    target_mode = _mode_for(path, mode)
    remove_stale_temp_files(path)
    import tempfile  # here: commands that only read import this module and never write

    fd, temp_name = tempfile.mkstemp(prefix=temp_prefix(path), suffix=TEMP_SUFFIX, dir=path.parent)
    temp_path = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as temp_file:
            temp_file.write(data)
            temp_file.flush()
            os.fchmod(temp_file.fileno(), target_mode)
            os.fsync(temp_file.fileno())
        os.replace(temp_path, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp_path.unlink()
        raise
    _fsync_directory(path.parent)


def write_text_if_changed(path: Path, text: str, *, mode: int | None = None) -> bool:
    """Write `text` atomically unless `path` already holds exactly these bytes.

    Returns True when the file was written. An unchanged file is not touched at all (same
    inode, same mtime).
    """
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    atomic_write_text(path, text, mode=mode)
    return True


def temp_prefix(path: Path) -> str:
    """How this process's temporary files for `path` begin (the random part follows)."""
    return f".{path.name}.{TEMP_MARKER}-{os.getpid()}-"


def remove_stale_temp_files(path: Path, *, now: float | None = None) -> list[Path]:
    """Remove the temporary files that killed writers left next to `path` (see the module
    docstring); returns them. Best effort: a file that cannot be removed stays."""
    own = re.compile(
        rf"\.{re.escape(path.name)}\.{TEMP_MARKER}-(\d+)-[A-Za-z0-9_]+{re.escape(TEMP_SUFFIX)}"
    )
    legacy = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}{re.escape(TEMP_SUFFIX)}")
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        ours = own.fullmatch(entry.name)
        if ours is None and legacy.fullmatch(entry.name) is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        age = now - info.st_mtime
        writer_gone = ours is None or not process_alive(int(ours.group(1)))
        if not stat.S_ISREG(info.st_mode) or age < STALE_AFTER_S:
            continue
        if writer_gone or age >= ABANDONED_AFTER_S:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def process_alive(pid: int) -> bool:
    """Whether process `pid` may still run: the one check of every "is its writer gone"
    sweep (temporary files here, the store's fetch directories). Only a pid known to be
    gone is False; ours, one we may not signal, or a number no process can have (a
    planted `.fetch-99999999999999999999-x`) count as alive, so nothing live is removed and
    no such name raises."""
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True  # not ours to signal (PermissionError), or not a pid we can ask about
    return True


def _follow_symlinks(path: Path) -> Path:
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _mode_for(path: Path, requested: int | None) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        pass
    if requested is not None:
        return requested
    return DEFAULT_NEW_FILE_MODE & ~_current_umask()


def _current_umask() -> int:
    # os.umask can only be read by setting it; restore immediately. Not thread-safe in theory,
    # but hookman writes files from one thread.
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def _fsync_directory(directory: Path) -> None:
    # Not every platform/filesystem lets a directory be opened or fsynced (Windows, some
    # network mounts); the rename has already happened, so durability is best effort there.
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
