"""Which process listens on a loopback TCP port, where the system lets hookman see it (Linux:
/proc/net/tcp gives the socket, /proc/PID/fd the process; a process of another user is
found only as far as /proc shows it). For the sentence that names an impostor on the
server's port, or the process holding a port `hookman serve` wanted. Standard library
only; read only when something already went wrong."""

from __future__ import annotations

import os

_LISTEN = "0A"
_PROC = "/proc"


def port_holder(port: int) -> str | None:
    """`pid N (COMMAND LINE)` of the process listening on `port`, or None when it cannot
    be told."""
    for pid in _holders(port, first=True):
        return f"pid {pid} ({_command_line(pid)})"
    return None


def port_holders(port: int) -> list[int]:
    """The pids of every process holding the socket that listens on `port` (a server and its
    port keeper share one); empty when it cannot be told."""
    return [int(pid) for pid in _holders(port, first=False)]


def _holders(port: int, *, first: bool) -> list[str]:
    inodes = _listening_inodes(port)
    if not inodes:
        return []
    try:
        pids = [name for name in os.listdir(_PROC) if name.isdigit()]
    except OSError:
        return []
    found = []
    for pid in pids:
        if holds_socket(pid, inodes):
            found.append(pid)
            if first:
                break
    return found


def _listening_inodes(port: int) -> set[str]:
    found: set[str] = set()
    for table in ("tcp", "tcp6"):
        try:
            with open(os.path.join(_PROC, "net", table), encoding="ascii", errors="replace") as f:
                next(f, None)
                for line in f:
                    fields = line.split()
                    if len(fields) > 9 and fields[3] == _LISTEN:
                        local_port = fields[1].rsplit(":", 1)[-1]
                        if int(local_port, 16) == port:
                            found.add(fields[9])
        except (OSError, ValueError):
            continue
    return found


def holds_socket(pid: str, inodes: set[str]) -> bool:
    """Whether process `pid` has a descriptor open on one of the sockets `inodes`."""
    directory = os.path.join(_PROC, pid, "fd")
    try:
        names = os.listdir(directory)
    except OSError:
        return False
    for name in names:
        try:
            target = os.readlink(os.path.join(directory, name))
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            return True
    return False


def _command_line(pid: str) -> str:
    try:
        with open(os.path.join(_PROC, pid, "cmdline"), "rb") as handle:
            words = handle.read(4096).split(b"\0")
    except OSError:
        return "?"
    text = " ".join(word.decode("utf-8", "replace") for word in words if word)
    return " ".join(text.split())[:120] or "?"
