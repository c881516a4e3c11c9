"""Which of the client's pipes fds 1 and 2 are when the launcher found them one
(CHANNEL_SAME): a start-up file of Codex's `bash -c` (BASH_ENV) ran `exec 2>&1` (both are
Codex's stdout pipe: only a JSON answer there is heard, exit 2 with an empty stderr lets the
command run) or `exec 1>&2` (both its stderr pipe: only exit 2 with the reason there is).

Codex makes a hook's three pipes one after the other, stdin, stdout, stderr (measured on
0.150.0 and 0.171.0, tests/e2e/test_codex.py), and Linux numbers pipes in the order they
are made on one CPU, so the stdout pipe is the one numbered right after stdin's. Each CPU
draws from its own batch of numbers: when Codex's thread moved to another CPU between the
two pipe() calls the numbers do not follow (seen once in CI), and the answer goes out as
below. The runner's fd 0 is the client's stdin pipe (the launcher passes it on); the
shared pipe is read through /proc at the launcher's fd 1, or its parent's (the client's
shell) where the launcher's own is the answer file for now (dash applies a command's
redirections in the shell itself while the command runs). Where none can be read (no
/proc, or the numbers do not follow each other) the answer is taken to be the stderr
pipe's, the one Claude Code honours too."""

from __future__ import annotations

import os
import stat


def shared_pipe_is_stdout(launcher_pid: int) -> bool:
    """Whether the one pipe behind the launcher's fds 1 and 2 is the client's stdout
    (`launcher_pid`: the runner's parent as it started, before any watchdog fork)."""
    try:
        stdin = os.fstat(0)
    except OSError:
        return False
    shared = _shared_pipe(launcher_pid)
    if shared is None or not stat.S_ISFIFO(stdin.st_mode):
        return False
    return shared.st_dev == stdin.st_dev and shared.st_ino == stdin.st_ino + 1


def _shared_pipe(launcher_pid: int) -> os.stat_result | None:
    """The pipe at fd 1 of the launcher, else of its parent; None when neither is one. A
    runner started under the launcher's timer has timeout(1) for a parent: the launcher is
    the one above it."""
    if _command_name(launcher_pid) == b"timeout":
        launcher_pid = _parent_of(launcher_pid) or launcher_pid
    for pid in (launcher_pid, _parent_of(launcher_pid)):
        if pid is None:
            continue
        try:
            found = os.stat(f"/proc/{pid}/fd/1")
        except OSError:
            continue
        if stat.S_ISFIFO(found.st_mode):
            return found
    return None


def _command_name(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            return handle.read().strip()
    except OSError:
        return b""


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rpartition(b")")[2].split()
        return int(fields[1])
    except (OSError, ValueError, IndexError):
        return None
