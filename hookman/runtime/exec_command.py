"""`pi.exec`: run a program from an argv list, without a shell (docs/hook-api.md, `pi.exec`).

It never raises for a program that cannot be started: the result carries a shell-style
code (127: not found, 126: not executable) and the reason in `stderr`. A timeout sends
SIGTERM to the program's whole process group, then SIGKILL after a grace period, and
reports `killed=True`. `subprocess` is imported here, when a hook first runs a program.
"""

from __future__ import annotations

import os

from hookman.runtime.records import ExecResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Sequence

KILL_GRACE_SECONDS = 5.0
NOT_FOUND_CODE = 127
NOT_EXECUTABLE_CODE = 126
START_FAILED_CODE = 1


def exec_command(
    command: str,
    args: Sequence[str],
    cwd: str,
    *,
    timeout: float | None = None,
    kill_grace: float = KILL_GRACE_SECONDS,
) -> ExecResult:
    """Run `command` with `args` in `cwd`; wait at most `timeout` seconds (None: no limit)."""
    import subprocess

    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    argv = [os.fspath(command), *(os.fspath(arg) for arg in args)]
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=os.name == "posix",  # so a timeout can kill its children too
        )
    except FileNotFoundError as error:
        return ExecResult("", str(error), NOT_FOUND_CODE, False)
    except PermissionError as error:
        return ExecResult("", str(error), NOT_EXECUTABLE_CODE, False)
    except OSError as error:
        return ExecResult("", str(error), START_FAILED_CODE, False)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        killed = False
    except subprocess.TimeoutExpired:
        stdout, stderr = _terminate(process, kill_grace)
        killed = True
    return ExecResult(_decode(stdout), _decode(stderr), process.returncode, killed)


def _terminate(process: subprocess.Popen[bytes], kill_grace: float) -> tuple[bytes, bytes]:
    import signal
    import subprocess

    _signal_group(process, signal.SIGTERM)
    try:
        return process.communicate(timeout=kill_grace)
    except subprocess.TimeoutExpired:
        _signal_group(process, signal.SIGKILL if os.name == "posix" else signal.SIGTERM)
        return process.communicate()


def _signal_group(process: subprocess.Popen[bytes], signal_number: int) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal_number)
        else:
            process.send_signal(signal_number)
    except (ProcessLookupError, PermissionError):
        pass  # already gone


def _decode(output: bytes | None) -> str:
    return (output or b"").decode("utf-8", errors="replace")
