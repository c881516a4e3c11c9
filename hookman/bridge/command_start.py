"""When the client started the command that runs this runner, so the runner's deadline counts
the time spent before its own process began: a shell start-up file (Codex runs `bash -c`,
which reads BASH_ENV), the launcher, an interpreter shim that forks the real python.

The process the client started is the outer `sh -c`/`bash -c` whose command line names this
install's launcher (it lives beside the manifest: `hookman-run.sh` in a project, `run.sh` in a
built plugin, whose outer command names `${CLAUDE_PLUGIN_ROOT}` literally). Walking up from
the runner's parent, a few processes that do not name it (a shim that forks) are passed over
until one does; then the walk takes every parent that still names it and stops at the first
that does not (the client, or the user's terminal). The oldest one found counts; with none
(the runner started by hand) the runner's own start counts. The client itself never names
the launcher, so a client that has run for an hour cannot make a call look late.

Linux reads /proc (starttime against CLOCK_BOOTTIME); macOS asks sysctl (KERN_PROC_PID,
KERN_PROCARGS2) through ctypes, imported there only; elsewhere the runner's clock starts now.
Every failure to read falls back to the runner's own start (what the runner counted before).
"""

from __future__ import annotations

import os
import sys
import time

MAX_BELIEVABLE_AGE = 600.0  # seconds; more means a clock we misread: count from now
SKIPPED_LEVELS = 3  # parents that do not name the launcher passed over before one does
MAX_LEVELS = 8  # parents read at most
LAUNCHER_NAMES = ("hookman-run.sh", "run.sh")  # a project's launcher, a built plugin's
PLUGIN_ROOT_WORD = "${CLAUDE_PLUGIN_ROOT}"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # (seconds since the process started, its parent's pid, its command line) or None
    Reader = Callable[[int], "tuple[float, int, bytes] | None"]


def seconds_since_start() -> float:
    """Seconds since this process started (its fork), else 0."""
    own = _reader()(os.getpid())
    return _believable(own[0]) if own else 0.0


def command_ages(launcher_dir: str | None) -> tuple[float, float]:
    """(seconds since this process started, seconds since the client started the command
    that runs it, never less than the first); both 0 where no clock can be read."""
    read = _reader()
    own = read(os.getpid())
    if own is None:
        return 0.0, 0.0
    own_age = _believable(own[0])
    if not launcher_dir:
        return own_age, own_age
    oldest = oldest_launcher_age(own[1], launcher_marks(launcher_dir), read)
    if oldest is None or not own_age <= oldest <= MAX_BELIEVABLE_AGE:
        return own_age, own_age
    return own_age, oldest


def launcher_marks(launcher_dir: str) -> tuple[bytes, ...]:
    """What a command line that runs the launcher beside the manifest holds."""
    base = os.fsencode(launcher_dir.rstrip("/"))
    marks = tuple(base + b"/" + name.encode() for name in LAUNCHER_NAMES)
    plugin = f"{PLUGIN_ROOT_WORD}/{os.path.basename(launcher_dir.rstrip('/'))}/run.sh"
    return (*marks, plugin.encode())


def oldest_launcher_age(parent: int, marks: tuple[bytes, ...], read: Reader) -> float | None:
    """The age of the oldest process in the run of parents that name the launcher (after at
    most SKIPPED_LEVELS that do not), or None when none does."""
    found: float | None = None
    skipped = 0
    pid = parent
    for _ in range(MAX_LEVELS):
        if pid <= 1:
            break
        seen = read(pid)
        if seen is None:
            break
        age, parent_pid, command_line = seen
        if any(mark in command_line for mark in marks):
            found = age
        elif found is not None or skipped >= SKIPPED_LEVELS:
            break
        else:
            skipped += 1
        pid = parent_pid
    return found


def _believable(age: float) -> float:
    return age if 0.0 <= age <= MAX_BELIEVABLE_AGE else 0.0


def _reader() -> Reader:
    if sys.platform.startswith("linux"):
        return _proc_reader()
    if sys.platform == "darwin":
        return _darwin_reader()
    return _no_reader


def _no_reader(pid: int) -> None:
    return None


def _proc_reader() -> Reader:
    try:
        now = time.clock_gettime(time.CLOCK_BOOTTIME)
        ticks = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return _no_reader

    def read(pid: int) -> tuple[float, int, bytes] | None:
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                stat = handle.read()
            fields = stat[stat.rindex(b")") + 2 :].split()
            parent, started = int(fields[1]), int(fields[19])  # fields 4 and 22
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command_line = handle.read(65536)
        except (OSError, ValueError, IndexError):
            return None
        return now - started / ticks, parent, command_line

    return read


# struct kinfo_proc (macOS, 64-bit): kp_proc.p_un.__p_starttime (struct timeval: 8-byte
# seconds, 4-byte microseconds) at offset 0; kp_eproc.e_ppid at 560; 648 bytes in all.
KINFO_SIZE = 648
KINFO_PPID_OFFSET = 560
_CTL_KERN, _KERN_ARGMAX, _KERN_PROC, _KERN_PROC_PID, _KERN_PROCARGS2 = 1, 8, 14, 1, 49


def kinfo_start_and_parent(raw: bytes) -> tuple[float, int] | None:
    """The start time (seconds since the epoch) and parent pid in a kinfo_proc."""
    if len(raw) < KINFO_SIZE:
        return None
    seconds = int.from_bytes(raw[0:8], sys.byteorder, signed=True)
    micros = int.from_bytes(raw[8:12], sys.byteorder, signed=True)
    parent = int.from_bytes(raw[KINFO_PPID_OFFSET : KINFO_PPID_OFFSET + 4], sys.byteorder)
    if seconds <= 0:
        return None
    return seconds + micros / 1e6, parent


def procargs_command_line(raw: bytes) -> bytes:
    """The argument words (NUL-separated) of a KERN_PROCARGS2 buffer: argc, the executable's
    path and its padding, then argc words (the environment after them is left out)."""
    if len(raw) < 4:
        return b""
    count = int.from_bytes(raw[:4], sys.byteorder)
    rest = raw[4:]
    end = rest.find(b"\0")
    if end < 0:
        return b""
    position = end
    while position < len(rest) and rest[position] == 0:
        position += 1
    words = rest[position:].split(b"\0", count)[:count]
    return b"\0".join(words)


def _darwin_reader() -> Reader:
    try:
        import ctypes

        sysctl = ctypes.CDLL(None, use_errno=True).sysctl
        sysctl.restype = ctypes.c_int
        sysctl.argtypes = [
            ctypes.POINTER(ctypes.c_int),
            ctypes.c_uint,
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_size_t),
            ctypes.c_void_p,
            ctypes.c_size_t,
        ]
    except (OSError, AttributeError, ImportError):
        return _no_reader

    def ask(name: tuple[int, ...], size: int) -> bytes | None:
        mib = (ctypes.c_int * len(name))(*name)
        buffer = ctypes.create_string_buffer(size)
        length = ctypes.c_size_t(size)
        if sysctl(mib, len(name), buffer, ctypes.byref(length), None, 0) != 0:
            return None
        return buffer.raw[: length.value]

    argmax = ask((_CTL_KERN, _KERN_ARGMAX), 4)  # KERN_PROCARGS2 wants a buffer this big
    args_size = int.from_bytes(argmax, sys.byteorder) if argmax and len(argmax) == 4 else 0
    args_size = args_size if 0 < args_size <= 1 << 24 else 1 << 20

    def read(pid: int) -> tuple[float, int, bytes] | None:
        try:
            info = ask((_CTL_KERN, _KERN_PROC, _KERN_PROC_PID, pid), KINFO_SIZE)
            found = kinfo_start_and_parent(info) if info else None
            if found is None:
                return None
            arguments = ask((_CTL_KERN, _KERN_PROCARGS2, pid), args_size)
        except (OSError, ValueError, TypeError, ctypes.ArgumentError):
            return None
        command_line = procargs_command_line(arguments) if arguments else b""
        return time.time() - found[0], found[1], command_line

    return read
