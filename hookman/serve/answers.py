"""What the server answers for a child's run: the child's own answer when it gave one whole,
else (killed, crashed, non-zero, no or bad JSON, past the hard deadline) the runner's deny on
a guarded event, with a reason the model can read, and `{}` elsewhere (fail closed on
guarded events only, as the runner does)."""

from __future__ import annotations

import os
import signal

from hookman.bridge import lean_json
from hookman.bridge.protocol import deny_answer, guarded_subject

EMPTY = b"{}"


def child_body(output: bytes, status: int | None) -> bytes | None:
    """The child's answer as the response body, or None when it gave no whole one: an exit
    status but 0, no line, or a line that is not one JSON object."""
    if status != 0:
        return None
    line = output.strip()
    if not line or b"\n" in line:
        return None
    try:
        answer = lean_json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return line if isinstance(answer, dict) else None


def failure_body(event: str, guarded: bool, problem: str) -> bytes:
    """The answer for a run that gave none: a deny naming hookman on a guarded event, `{}`
    elsewhere (an observe-only event is at most lost, never blocked)."""
    if not guarded:
        return EMPTY
    return _deny(event, failure_reason(event, problem))


def failure_reason(event: str, problem: str) -> str:
    """The reason of the deny for a run that gave no answer, as the model reads it."""
    return (
        f"hookman blocked this {guarded_subject(event)} because its hook server's run of the "
        f"project's guards {problem}, so they could not check it. `hookman log` and "
        f"`hookman serve status` say more."
    )


def status_problem(status: int | None, output: bytes) -> str:
    """Why a child's run gave no answer, as the deny's reason says it."""
    if status is None:
        return "gave no answer"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"was ended by {name}"
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    if code != 0:
        return f"ended with status {code}"
    if not output.strip():
        return "ended without an answer"
    return "answered something that is not one JSON object"


def stopped_body(event: str) -> bytes:
    """The port keeper's answer to a guarded event (serve/keeper.py): a deny saying the
    server is not running and how it runs again."""
    return _deny(event, stopped_reason(event))


def stopped_reason(event: str) -> str:
    """The reason of the port keeper's deny, as the model reads it (`hookman fire` too)."""
    return (
        f"hookman blocked this {guarded_subject(event)} because its hook server is not running "
        f"(it was stopped or ended), so the project's guards could not check it; hookman holds "
        f"the server's port so that no other process answers for them. The next prompt starts "
        f"the server again, as does `hookman serve start`."
    )


def turned_off_body(event: str) -> bytes:
    """The port keeper's answer to a guarded event once the user opted out (`hookman serve
    disable`) while the project's entries still post to the port."""
    return _deny(event, turned_off_reason(event))


def turned_off_reason(event: str) -> str:
    """The reason of that deny, as the model reads it."""
    return (
        f"hookman blocked this {guarded_subject(event)} because its hook server was turned off "
        f"(`hookman serve disable`) while this project's hook entries still post to it, so the "
        f"project's guards could not check it; hookman holds the server's port so that no "
        f"other process answers for them. Run `hookman install` in the project to make its "
        f"entries commands again (or `hookman serve start` to run the server)."
    )


def moved_body(event: str, port: int, recorded: int) -> bytes:
    """The port keeper's answer to a guarded event on a port the server no longer uses: the
    project's entries were written for `port`, the server now listens on `recorded`."""
    return _deny(event, moved_reason(event, port, recorded))


def moved_reason(event: str, port: int, recorded: int) -> str:
    """The reason of the keeper's deny on a port the server left, as the model reads it."""
    return (
        f"hookman blocked this {guarded_subject(event)} because this project's hook entries "
        f"post to port {port}, where hookman's hook server no longer runs (it uses port "
        f"{recorded} now), so the project's guards could not check it. Run `hookman install` "
        f"in the project to move its entries."
    )


def _deny(event: str, reason: str) -> bytes:
    return lean_json.dumps(deny_answer(event, reason)).encode("utf-8")
