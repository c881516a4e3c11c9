"""Keeps hook output out of the answer: fd 1 and fd 2 (and sys.stdout/sys.stderr) point at an
anonymous file while hooks run, so prints, stray writes and the output of subprocesses that
hooks start are captured for the log, and only the answer reaches the real stdout.

The saved copies of the real fd 1/2 are not inherited by programs a hook starts (os.dup makes
them close-on-exec), but a hook that forks without exec (os.fork, multiprocessing) would hand
its child a copy of the agent's pipe: the agent, waiting for the pipe to close, would wait for
that child. So in a forked child the copies are pointed at the capture file instead.

The capture file holds at most CAPTURE_LIMIT bytes (on Linux: a memfd sealed at that size),
so a stray process a hook started cannot fill memory by printing, even after the runner is
gone: its writes past the limit fail. Writes from the hook's own print() past the limit are
dropped quietly (the log keeps only the start of the output anyway).
"""

from __future__ import annotations

import io
import os
import sys

CAPTURE_LIMIT = 1 << 20
_active: list[OutputCapture] = []
_fork_hook_registered = False


class OutputCapture:
    def __init__(self, scratch_dir: str | None = None) -> None:
        self._scratch_dir = scratch_dir
        self._file_fd = -1
        self._saved_fds: tuple[int, int] = (-1, -1)
        self._saved_streams: tuple[object, object] = (None, None)
        self.real_stdout_fd = -1

    def start(self) -> None:
        _flush_quietly(sys.stdout)
        _flush_quietly(sys.stderr)
        self._file_fd = _anonymous_file(self._scratch_dir)
        self._saved_fds = (os.dup(1), os.dup(2))
        self.real_stdout_fd = self._saved_fds[0]
        _watch_forks(self)
        os.dup2(self._file_fd, 1)
        os.dup2(self._file_fd, 2)
        self._saved_streams = (sys.stdout, sys.stderr)
        # Line-buffered, so prints interleave with subprocess output in the order they happen.
        stream = _CaptureStream(
            io.FileIO(os.dup(self._file_fd), "w"),
            encoding="utf-8",
            errors="replace",
            line_buffering=True,
            write_through=True,
        )
        sys.stdout = sys.stderr = stream

    def write_answer(self, text: str) -> None:
        data = text.encode("utf-8", "replace")  # a lone surrogate must not lose the answer
        while data:
            written = os.write(self.real_stdout_fd, data)
            data = data[written:]

    def captured_text(self) -> str:
        _flush_quietly(sys.stdout)
        _flush_quietly(sys.stderr)
        if self._file_fd < 0:
            return ""
        # The shared offset is where the last write ended (the sealed file's size is fixed).
        end = min(os.lseek(self._file_fd, 0, os.SEEK_CUR), CAPTURE_LIMIT)
        chunks = []
        offset = 0
        while offset < end:
            chunk = os.pread(self._file_fd, end - offset, offset)
            if not chunk:
                break
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks).decode("utf-8", "replace")

    def detach_from_real_streams(self) -> None:
        """In a forked child: let go of the agent's pipe (writes land in the capture file)."""
        for descriptor in self._saved_fds:
            if descriptor >= 0:
                os.dup2(self._file_fd, descriptor)

    def stop(self) -> None:
        """Put fd 1/2 and sys.stdout/sys.stderr back as they were."""
        if self._file_fd < 0:
            return
        capture_stream = sys.stdout
        _flush_quietly(sys.stdout)
        _flush_quietly(sys.stderr)
        sys.stdout, sys.stderr = self._saved_streams  # type: ignore[assignment]
        if capture_stream is not sys.stdout:
            try:
                capture_stream.close()
            except (OSError, ValueError, AttributeError):
                pass
        if self in _active:
            _active.remove(self)
        saved_out, saved_err = self._saved_fds
        os.dup2(saved_out, 1)
        os.dup2(saved_err, 2)
        for descriptor in (saved_out, saved_err, self._file_fd):
            os.close(descriptor)
        self._file_fd = -1
        self.real_stdout_fd = -1


def _watch_forks(capture: OutputCapture) -> None:
    global _fork_hook_registered
    _active.append(capture)
    if not _fork_hook_registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_detach_in_child)
        _fork_hook_registered = True


def _detach_in_child() -> None:
    for capture in _active:
        try:
            capture.detach_from_real_streams()
        except OSError:
            pass


class _CaptureStream(io.TextIOWrapper):
    """sys.stdout/sys.stderr while hooks run: a print past the capture limit is dropped."""

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        try:
            super().flush()
        except OSError:
            pass


def _anonymous_file(scratch_dir: str | None) -> int:
    memfd_create = getattr(os, "memfd_create", None)
    if memfd_create is not None:
        try:
            return _sealed_memfd(memfd_create)
        except OSError:
            pass
    directory = scratch_dir or os.environ.get("TMPDIR") or "/tmp"
    os.makedirs(directory, exist_ok=True)
    # A new file of this process alone: made exclusively (a planted file or symlink at the
    # name is never opened, let alone truncated), under a name no one can guess.
    path = os.path.join(directory, f".hookman-capture-{os.getpid()}-{os.urandom(8).hex()}")
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, 0o600)
    try:
        os.remove(path)  # POSIX keeps the open file
    except OSError:
        pass
    return descriptor


def _sealed_memfd(memfd_create: object) -> int:
    """A memfd of CAPTURE_LIMIT bytes that can neither grow nor shrink (pages are only
    allocated when written)."""
    flags = getattr(os, "MFD_CLOEXEC", 1) | getattr(os, "MFD_ALLOW_SEALING", 2)
    descriptor = memfd_create("hookman-capture", flags)  # type: ignore[operator]
    try:
        import fcntl

        os.ftruncate(descriptor, CAPTURE_LIMIT)
        fcntl.fcntl(descriptor, fcntl.F_ADD_SEALS, fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK)
    except (ImportError, AttributeError, OSError):
        os.close(descriptor)
        raise OSError("no sealed memfd") from None
    return descriptor


def _flush_quietly(stream: object) -> None:
    try:
        stream.flush()  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        pass
