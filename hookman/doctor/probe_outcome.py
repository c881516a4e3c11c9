"""What each `--probe` run came to, in words: the classification the `probed` section shows
(what ran, on which sample, and what the client does with its answer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookman.bridge.answer import FAIL_CLOSED_PREFIX
from hookman.catalog import event_catalog
from hookman.doctor.probe_classify import CommandRun, json_object
from hookman.doctor.quote import shown

SPECIFIC = "hookSpecificOutput"
SAMPLE_DETAIL_KEYS = ("command", "file_path", "pattern", "url", "query", "notebook_path")
PAYLOAD_DETAIL_KEYS = ("source", "reason", "trigger", "notification_type", "matcher_value")

Outcome = tuple[str, str]  # (result, summary)


def sample_label(event: str, payload: dict[str, Any]) -> str:
    """The sample a run was given, e.g. "Bash `rm -rf ./build`" or "SessionStart (source
    startup)"."""
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if isinstance(tool, str) and isinstance(tool_input, dict):
        for key in SAMPLE_DETAIL_KEYS:
            if isinstance(tool_input.get(key), str):
                return f"{tool} {shown(tool_input[key])}"
        return tool
    for key in PAYLOAD_DETAIL_KEYS:
        if isinstance(payload.get(key), str):
            return f"{event} ({key} {payload[key]})"
    return event


def hookman_outcome(event: str, report: Mapping[str, Any]) -> Outcome:
    """How the client takes the answer of hookman's hooks in one rehearsal (fire's report)."""
    guarded = event in event_catalog.guarded_events()
    hooks = list(report["hooks"]) + list((report.get("async") or {}).get("hooks") or [])
    not_loaded = [hook["name"] for hook in hooks if hook["load_error"]]
    raised = [hook["name"] for hook in hooks if any(c["error"] for c in hook["calls"])]
    tail = ", so hookman denies the call" if guarded else ""
    if report["outcome"] == "timeout":
        return "timed_out", f"did not finish within hookman's deadline{tail}"
    if not_loaded:
        return "failed_to_load", f"{_names(not_loaded)} failed to load{tail}"
    if raised:
        return "raised", f"{_names(raised)} raised{tail}"
    if not report["hooks"] and report.get("async"):
        return "async", "ran async: observe only, the client does not wait for its answer"
    found = answer_outcome(event, report["answer"])
    if found is not None:
        return found
    if report.get("queued_for_next_event"):
        return "queued", "no answer; queued a message for the next event that takes context"
    return _no_answer(event)


def answer_outcome(event: str, answer: Any) -> Outcome | None:
    """What a JSON answer on `event` does (None: it says nothing)."""
    if not isinstance(answer, dict):
        return None
    specific = answer.get(SPECIFIC) if isinstance(answer.get(SPECIFIC), dict) else {}
    guarded = event in event_catalog.guarded_events()
    decision = specific.get("permissionDecision")
    if decision == "deny" or answer.get("decision") == "block":
        reason = specific.get("permissionDecisionReason") or answer.get("reason")
        said = f" ({reason})" if isinstance(reason, str) and reason else ""
        if guarded and _failed_closed(reason):
            return "failed_closed", f"denied without a decision{said}: the guard does not work"
        if guarded:
            return "denied", f"denied{said}: the guard works"
        return "blocked", f"blocked{said}"
    if decision in ("allow", "ask", "defer"):
        return decision, f"answered permissionDecision {decision}"
    if specific.get("updatedInput") is not None:
        return "changed_input", "changed the tool input (updatedInput)"
    fields = [key for key in specific if key != "hookEventName"]
    fields += [key for key in answer if key != SPECIFIC]
    if fields:
        return "answered", f"answered with {', '.join(fields)}"
    return None


def command_outcome(event: str, run: CommandRun, codes: list[str]) -> Outcome:
    """How the client takes one run of a foreign command hook."""
    if run.timed_out:
        return "timed_out", f"still running after {run.seconds:.0f} s; doctor stopped it"
    stdout = run.stdout.strip()
    first_err = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
    if run.exit_code == 0:
        if not stdout:
            return _no_answer(event, "exit 0, no output")
        parsed = json_object(stdout)
        if parsed is not None:
            found = answer_outcome(event, parsed)
            return found or ("no_answer", "exit 0 with an empty JSON answer (observe only)")
        if "json-mixed-with-prints" in codes:
            return "unparsable", "printed JSON mixed with other text: the client cannot parse it"
        if event in event_catalog.plain_stdout_events():
            return "plain_text", "printed plain text, which reaches the model"
        return "plain_text_dropped", "printed plain text, which the client keeps in its debug log"
    if run.exit_code == 2:
        said = f" ({first_err})" if first_err else ""
        if "block-cannot-block" in codes:
            return "blocks_nothing", f"exit 2{said}, but {event} cannot block"
        if event in event_catalog.guarded_events() and _failed_closed(first_err):
            return "failed_closed", (
                f"denied with exit 2 without a decision{said}: the guard does not work"
            )
        if event in event_catalog.guarded_events():
            return "denied", f"denied with exit 2{said}: the guard works"
        return "blocked", f"blocked with exit 2{said}"
    return "failed", f"failed with exit {run.exit_code}: {first_err or 'no message'}"


def _failed_closed(reason: object) -> bool:
    """A deny hookman gave because no guard could decide (a hook that does not load, raised,
    ran out of time): the call is blocked, but not by the guard's own rule."""
    return isinstance(reason, str) and reason.startswith((FAIL_CLOSED_PREFIX, "hookman: "))


def _no_answer(event: str, what: str = "no answer") -> Outcome:
    if event in event_catalog.guarded_events():
        return "no_answer", f"{what}: the client lets the call run"
    return "no_answer", f"{what} (observe only)"


def _names(names: list[str]) -> str:
    return ", ".join(dict.fromkeys(names))
