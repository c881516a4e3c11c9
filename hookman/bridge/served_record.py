"""The firing-log line for an answer the warm hook server (or its port keeper) gave without a
run of the runner: a run killed at its deadline or cut off at a stop, a child that crashed,
a guarded call the keeper denied while no server ran. Shaped as the runner's own lines
(bridge/run_command.py `_log`), so `hookman log` counts and shows them the same way."""

from __future__ import annotations

from hookman.bridge import lean_json
from hookman.bridge.firing_log import new_record
from hookman.bridge.run_command import OUTCOME_ERRORS, OUTCOME_FAILED_CLOSED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.json_shapes import FiringRecordJson


def served_record(
    project: str | None,
    event: str,
    payload: bytes,
    notice: str,
    reason: str | None,
    *,
    duration_ms: float = 0.0,
) -> FiringRecordJson:
    """The line; `reason` is the deny the model read (None: the event was answered `{}`)."""
    fields = _payload_fields(payload)
    record = new_record(
        project,
        fields.get("session_id"),
        fields.get("agent_id"),
        event,
        OUTCOME_FAILED_CLOSED if reason is not None else OUTCOME_ERRORS,
        hooks=[],
        duration_ms=duration_ms,
        errors=[],
        output="",
        notices=[notice],
    )
    if reason is not None:
        record["reason"] = reason
    return record


def _payload_fields(payload: bytes) -> dict[str, str | None]:
    """The session and agent ids the payload names (none when it is not a JSON object)."""
    try:
        data = lean_json.loads(payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        key: value if isinstance(value, str) else None
        for key, value in ((k, data.get(k)) for k in ("session_id", "agent_id"))
    }
