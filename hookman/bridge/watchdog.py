"""The runner's deadline outside its own process: a forked watchdog that SIGKILLs the
runner's process group just after the hard stop, whatever happens inside the runner.

In-process deadlines (deadline.py's SIGALRM and thread, the faulthandler hard stop) need the
runner to run: a hook that stops the process (SIGSTOP, or SIGSTOP to its group) freezes
them all. The watchdog is a forked copy of the runner in its own process group that waits
on a pipe whose only writer is the runner: when the runner ends (the common path: os._exit
right after answering) the pipe closes and the watchdog leaves at once; when the time is up
first, it kills the runner's group, and the launcher, seeing no complete answer, denies.

Only for a runner that leads its own process group (`launched` makes it one), so the kill
never reaches the launcher or the client's shell. The deadlines count from the process's
start (`seconds_since_start`), which on Linux is when the launcher forked it: a slow
interpreter start is counted too.
"""

from __future__ import annotations

import os
import time

try:
    import _signal as signals
except ImportError:  # pragma: no cover - other Python implementations
    import signal as signals  # type: ignore[no-redef]

_MAX_BELIEVABLE_START = 600.0  # seconds; more means a clock we misread: count from now


def seconds_since_start() -> float:
    """Seconds since this process was forked (Linux: /proc/self/stat), else 0."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            stat = handle.read()
        start_ticks = int(stat[stat.rindex(b")") + 2 :].split()[19])  # field 22, starttime
        now = time.clock_gettime(time.CLOCK_BOOTTIME)
        elapsed = now - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0
    return elapsed if 0.0 <= elapsed <= _MAX_BELIEVABLE_START else 0.0


_keep_open: list[int] = []  # the pipe's write end: open for the runner's whole life


def start_watchdog(seconds: float) -> bool:
    """Fork the watchdog: SIGKILL this process's group `seconds` from now unless the process
    has ended by then. False when it cannot (no fork, not a group leader, no resources)."""
    if not hasattr(os, "fork") or os.getpgrp() != os.getpid():
        return False
    group = os.getpid()
    try:
        read_end, write_end = os.pipe()  # not inherited across exec: only forks share it
    except OSError:
        return False
    try:
        child = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return False
    if child:
        try:  # here too (as in the child): in its own group before any hook can run
            os.setpgid(child, child)
        except OSError:
            pass
        os.close(read_end)
        _keep_open.append(write_end)
        return True
    _watch(group, read_end, write_end, seconds)  # never returns
    return False  # pragma: no cover


def _watch(group: int, read_end: int, write_end: int, seconds: float) -> None:
    try:
        os.setpgid(0, 0)  # a signal to the runner's group (SIGSTOP too) does not reach it
        os.close(write_end)
        devnull = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):  # let go of every pipe: nobody waits for the watchdog
            os.dup2(devnull, descriptor)
        os.dup2(read_end, 3)
        os.closerange(4, 1 << 16)
        signals.signal(signals.SIGALRM, _time_is_up)  # built-in modules only: no import cost
        signals.setitimer(signals.ITIMER_REAL, seconds)
        try:
            while os.read(3, 1):  # b"": every writer is gone, the runner has ended
                pass
        except _TimeIsUp:
            os.killpg(group, 9)  # SIGKILL: a stopped process dies too
    except BaseException:
        pass
    finally:
        os._exit(0)


class _TimeIsUp(BaseException):
    pass


def _time_is_up(signum: int, frame: object) -> None:
    raise _TimeIsUp
