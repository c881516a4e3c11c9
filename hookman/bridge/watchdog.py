"""The runner's deadline outside its own process: a watchdog that SIGKILLs the
runner's process group just after the hard stop, whatever happens inside the runner.

In-process deadlines (deadline.py's SIGALRM and thread, the faulthandler hard stop) need the
runner to run: a hook that stops the process (SIGSTOP, or SIGSTOP to its group) freezes
them all. The watchdog is a bash spawned in its own process group (or, without bash, a
forked copy of the runner) that waits on a pipe whose only writer is the runner: when the
runner ends (the common path: os._exit right after answering) the pipe closes and the
watchdog leaves at once; when the time is up first, it kills the runner's group, and the
launcher, seeing no complete answer, denies.

A watchdog that does not work is worse than none, since the runner relies on it: where
`bash` is not bash (a link to dash, which has no `read -t`), the spawned shell would exit at
once. So the spawned watchdog first proves it is a bash that can wait (BASH_VERSINFO) by
writing one byte on a second pipe, and `confirm_watchdog` (called before any hook runs)
waits for that byte; on the end of that pipe or no byte in time, it forks a copy of the
runner as the watchdog instead.

Only for a runner that leads its own process group (`launched` makes it one), so the kill
never reaches the launcher or the client's shell. The deadlines count from when the client
started the command (command_start.py): a slow start-up file, launcher or interpreter start
is counted too.

Where no process can be started at all (the user's process limit reached: fork and spawn
fail at once with EAGAIN), `start_watchdog` says FAILED and a guarded run denies rather than
run its hooks unwatched (run_command.py).
"""

from __future__ import annotations

import os
import time

try:
    import _signal as signals
except ImportError:  # pragma: no cover - other Python implementations
    import signal as signals  # type: ignore[no-redef]

_keep_open: list[int] = []  # the pipe's write end: open for the runner's whole life


_BASH_PATHS = ("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash")
# The watchdog as a bash of its own (found at the paths above on nearly every Linux and
# macOS; Claude Code runs hooks with /bin/sh, which may be dash): it reads the pipe with a
# timeout, and only a timeout (status > 128), not the end of the pipe, kills the group.
# bash 3 (macOS's /bin/bash) takes whole seconds only.
# `${{BASH_VERSINFO[0]}}` is a syntax error in dash (the script ends before the byte on
# fd 4); a shell with no BASH_VERSINFO (zsh, ksh) fails the case and exits unconfirmed too.
_BASH_WATCH = (
    "case ${{BASH_VERSINFO[0]}} in [3-9]|[1-9][0-9]) ;; *) exit 1 ;; esac; "
    't={seconds:.3f}; [ "${{BASH_VERSINFO[0]}}" -ge 4 ] || t={whole}; '
    "echo >&4; exec 4>&-; "
    "read -t $t -u 3 _; [ $? -gt 128 ] || exit 0; "
    'if [ -n "{start}" ] && read -r s </proc/{group}/stat; then '
    's=${{s##*) }}; set -- $s; [ "${{20}}" = "{start}" ] || exit 0; fi; '
    "kill -KILL -- -{group}; exit 0"
)
# The kill checks first, where /proc is, that the group's id is still the runner's: the
# write end of the pipe can outlive the runner in a process that left its group (a hook's
# daemon, forked: forks share every descriptor), and once the group is empty its id may be
# given to a new process, whose group the kill would reach. Where /proc/GROUP is gone, the
# group still has members (an id in use as a group's is never given out) or none at all.
CONFIRM_WAIT = 1.0  # seconds the runner waits, at most, for the spawned bash to confirm


class _Pending:
    """A spawned watchdog not confirmed yet: the confirmation pipe and when to kill."""

    confirm_fd = -1
    kill_at = 0.0
    group = 0
    start = ""  # the runner's start time in clock ticks since boot (Linux), else ""


_pending = _Pending()


STARTED = "started"
NOT_LEADER = "not-leader"  # not a group leader: no group of its own to kill
FAILED = "failed"  # no process could be started (a process limit, no memory)


def start_watchdog(seconds: float) -> str:
    """Start the watchdog: SIGKILL this process's group `seconds` from now unless the process
    has ended by then. STARTED, NOT_LEADER, or FAILED (no pipe, no process).

    A bash spawned (vfork + exec) in a process group of its own where one is found; else a
    fork of this process. The spawn is the cheaper: a forked copy shares every page with the
    runner, which then takes a copy-on-write fault on each page it touches (about 2 ms on a
    2-CPU machine)."""
    if os.getpgrp() != os.getpid():
        return NOT_LEADER
    group = os.getpid()
    _pending.start = _start_of(group) or ""
    try:
        read_end, write_end = os.pipe()  # not inherited across exec: only forks share it
    except OSError:
        return FAILED
    if _spawn_bash(group, read_end, seconds):
        os.close(read_end)
        _keep_open.append(write_end)
        return STARTED
    return STARTED if _fork_watchdog(group, read_end, write_end, seconds) else FAILED


def confirm_watchdog(wait: float = CONFIRM_WAIT) -> bool:
    """Whether the spawned watchdog proved to be armed (True at once when none is pending);
    when it did not (it exited: no bash there, or no byte within `wait` seconds), a forked
    watchdog takes its place for the time left."""
    descriptor = _pending.confirm_fd
    if descriptor < 0:
        return True
    _pending.confirm_fd = -1
    try:
        confirmed = _read_byte(descriptor, wait)
    finally:
        os.close(descriptor)
    if confirmed:
        return True
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return False
    left = max(_pending.kill_at - time.monotonic(), 0.001)
    return _fork_watchdog(_pending.group, read_end, write_end, left)


def _read_byte(descriptor: int, wait: float) -> bool:
    """One byte within `wait` seconds (polled: no `select` import on the runner's path)."""
    give_up = time.monotonic() + wait
    try:
        os.set_blocking(descriptor, False)
        while True:
            try:
                return os.read(descriptor, 1) != b""
            except BlockingIOError:
                if time.monotonic() >= give_up:
                    return False
                time.sleep(0.0005)
    except OSError:
        return False


def _fork_watchdog(group: int, read_end: int, write_end: int, seconds: float) -> bool:
    if not hasattr(os, "fork"):
        os.close(read_end)
        os.close(write_end)
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


def _spawn_bash(group: int, read_end: int, seconds: float) -> bool:
    bash = next((path for path in _BASH_PATHS if os.access(path, os.X_OK)), None)
    if bash is None or not hasattr(os, "posix_spawn"):
        return False
    seconds = max(seconds, 0.001)
    script = _BASH_WATCH.format(
        seconds=seconds, whole=-int(-seconds // 1), group=group, start=_pending.start
    )
    try:
        confirm_read, confirm_write = os.pipe()
    except OSError:
        return False
    devnull = os.devnull
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_DUP2, read_end, 3),  # the descriptors it keeps (no CLOEXEC)
        (os.POSIX_SPAWN_DUP2, confirm_write, 4),
    ]
    try:
        os.posix_spawn(bash, [bash, "-c", script], {}, file_actions=actions, setpgroup=0)
    except (OSError, ValueError):
        os.close(confirm_read)
        os.close(confirm_write)
        return False
    os.close(confirm_write)
    _pending.confirm_fd = confirm_read
    _pending.kill_at = time.monotonic() + seconds
    _pending.group = group
    return True


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
            start = _start_of(group)
            if not _pending.start or start is None or start == _pending.start:
                os.killpg(group, 9)  # SIGKILL: a stopped process dies too
    except BaseException:
        pass
    finally:
        os._exit(0)


def _start_of(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or
    None where it cannot be read (no /proc, or no such process)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b") ", 1)[-1].split()
    except OSError:
        return None
    return fields[19].decode("ascii", "replace") if len(fields) > 19 else None


class _TimeIsUp(BaseException):
    pass


def _time_is_up(signum: int, frame: object) -> None:
    raise _TimeIsUp
