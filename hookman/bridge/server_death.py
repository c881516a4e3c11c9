"""Linux: a warm server's child (a warm worker, or a child forked for one request) ends with
its whole process group when the server dies without ending it (SIGKILL, the out-of-memory
killer): the kernel sends it SIGTERM then (prctl PR_SET_PDEATHSIG), and its handler kills the
group, the hook's own processes with it. Without this a hung hook outlived the server (its
client was answered anyway: a request to a dead server fails, and a guard's entry blocks).
`hookman serve stop` and SIGTERM end the runs themselves (serve/server.py, STOP_GRACE_S).

A warm worker also adopts every process its hooks leave (PR_SET_CHILD_SUBREAPER), however
they detach, so its check after each event sees them (adopt_descendants).

Elsewhere (macOS has no such call), and where libc cannot be reached, nothing is armed: a
hung run lives on until it ends. A hook that replaces or ignores SIGTERM, or hangs in C code
that never lets Python run a handler, is not ended either."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36
_prctl: Any = None  # libc's prctl, found in the server before it forks (prepare)
_server_pid = 0


def prepare() -> None:
    """In the server, before its first fork: find prctl (ctypes is not imported per child)."""
    global _prctl, _server_pid
    _server_pid = os.getpid()
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        function = ctypes.CDLL(None, use_errno=True).prctl
        function.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        function.restype = ctypes.c_int
    except (ImportError, OSError, AttributeError):
        return
    _prctl = function


def arm() -> None:
    """In a freshly forked child of the server: end this process group when the server dies."""
    if _prctl is None or not _server_pid:
        return
    signal.signal(signal.SIGTERM, _end_group)
    if _prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0) != 0:
        return
    if os.getppid() != _server_pid:  # it died between the fork and the call
        _end_group()


def adopt_descendants() -> bool:
    """In a warm worker (Linux): be the parent of every process a hook leaves, however it
    detaches (forked twice, its first child gone), so the worker's check after the event
    sees it and the worker ends (serve/leftovers.py). False where this cannot be set."""
    if _prctl is None:
        return False
    return bool(_prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0) == 0)


def _end_group(*_: object) -> None:
    try:
        os.killpg(os.getpgrp(), signal.SIGKILL)  # this process leads its group (setsid)
    finally:
        os._exit(1)
