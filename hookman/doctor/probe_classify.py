"""What the client does with one run of a command hook: its exit code and output on its
event, classified into findings (the exit-code and channel facts of the event catalog)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hookman.catalog import event_catalog
from hookman.doctor.model import Handler


@dataclass
class CommandRun:
    exit_code: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool


def blocks(run: CommandRun) -> bool:
    if run.exit_code == 2:
        return True
    parsed = json_object(run.stdout.strip())
    return run.exit_code == 0 and parsed is not None and parsed.get("decision") == "block"


def json_object(text: str) -> dict[str, Any] | None:
    """The JSON object `text` holds, or None (not JSON, or not an object)."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _embedded_json(text: str) -> bool:
    """Whether some line (or the tail) of `text` is a JSON object although the whole is not."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if any(json_object(line) is not None for line in lines):
        return True
    start = text.find("{")
    return start > 0 and json_object(text[start:].strip()) is not None


Classified = tuple[str, str, str, str]


def classify(handler: Handler, run: CommandRun, budget: float, cap: float) -> list[Classified]:
    """What the client does with this run's exit code and output on the handler's event."""
    event = handler.event
    if run.timed_out:
        return [_timed_out(event, budget, cap)]
    stdout = run.stdout.strip()
    if handler.is_async and _tries_to_decide(run, stdout):
        return [_ASYNC_DECIDES]
    if run.exit_code == 0:
        return _exit_zero(event, stdout)
    if run.exit_code == 2:
        return _exit_two(event, stdout)
    return [_failure(event, run)]


def _timed_out(event: str, budget: float, cap: float) -> Classified:
    """A run killed at the probe's cap: over the hook's budget (killed by the client too), or
    only slower than doctor waits for."""
    if budget > cap:
        return (
            "probe-slow",
            "info",
            f"the hook was still running after {cap:g} s on the sample {event} payload; "
            f"doctor stopped it (its budget is {budget:g} s).",
            "make it faster if it runs on every event.",
        )
    tail = (
        " (the tool runs anyway: a killed hook does not block)"
        if event == event_catalog.PRE_TOOL_USE
        else ""
    )
    return (
        "probe-over-budget",
        "error",
        f"the hook ran past its {budget:g} s budget on the sample {event} payload and "
        f"would be killed{tail}.",
        "make it faster, or raise its timeout (SessionEnd: its budget is shared and capped).",
    )


def _tries_to_decide(run: CommandRun, stdout: str) -> bool:
    decision_keys = {"decision", "hookSpecificOutput", "continue"}
    return run.exit_code == 2 or bool((json_object(stdout) or {}).keys() & decision_keys)


_ASYNC_DECIDES: Classified = (
    "async-decides",
    "warning",
    "this async hook tries to decide (exit 2 or a JSON decision), but the client does "
    "not wait for async hooks: nothing it says counts.",
    'remove "async": true if it must decide, or make it only observe.',
)


def _exit_zero(event: str, stdout: str) -> list[Classified]:
    """Exit 0: its stdout is an answer, nothing, or text the client may not show anyone."""
    if not stdout or json_object(stdout) is not None:
        return []
    if _embedded_json(stdout):
        return [
            (
                "json-mixed-with-prints",
                "error",
                f"the hook prints a JSON answer mixed with other text on {event}: the client "
                "cannot parse it, so the answer is lost.",
                "print only the JSON object on stdout; send other text to stderr.",
            )
        ]
    if event in event_catalog.plain_stdout_events():
        return []
    where = (
        "."
        if event_catalog.has_context_channel(event)
        else f" on an event that has additionalContext ({event} has none)."
    )
    return [
        (
            "plain-stdout-dropped",
            "warning",
            f"the hook prints plain text on {event}, where the client puts stdout only in "
            "its debug log: the model never sees it.",
            'print {"hookSpecificOutput": {"hookEventName": "'
            + event
            + '", "additionalContext": "..."}} instead'
            + where,
        )
    ]


def _exit_two(event: str, stdout: str) -> list[Classified]:
    """Exit 2: a block, where the event can block, read from stderr alone."""
    found: list[Classified] = []
    cannot_block = (
        event_catalog.is_claude_event(event)
        and event_catalog.claude_code_catalog()["events"][event]["exit2_blocks"] is False
    )
    if cannot_block:
        found.append(
            (
                "block-cannot-block",
                "error",
                f"the hook exits 2 to block on {event}, which cannot block: nothing is "
                "stopped (on PostToolUse the tool already ran).",
                "guard on PreToolUse instead: only a hook that runs before the tool can stop it.",
            )
        )
    if stdout:
        found.append(
            (
                "stdout-with-exit-2",
                "warning",
                f"the hook prints on stdout and exits 2 on {event}: with exit 2 the client "
                "ignores stdout (JSON included) and reads only stderr.",
                "write the message to stderr when exiting 2, or exit 0 with the JSON answer.",
            )
        )
    return found


def _failure(event: str, run: CommandRun) -> Classified:
    """Any other exit: a non-blocking error, or a message meant to block that does not."""
    first_err = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
    if event in event_catalog.exit2_blocking_events() and first_err:
        return (
            "exit-1-not-2",
            "error" if event in event_catalog.guarded_events() else "warning",
            f"the hook exits {run.exit_code} with a message on {event}: only exit 2 blocks "
            f"and reaches the model; exit {run.exit_code} is a non-blocking error the model "
            "never sees.",
            "exit 2 to block (message on stderr), or exit 0 with a JSON decision.",
        )
    return (
        "probe-command-fails",
        "warning",
        f"the hook fails (exit {run.exit_code}) on the sample {event} payload: "
        f"{first_err or 'no message'}.",
        "run it by hand with a sample payload on stdin and fix the error.",
    )
