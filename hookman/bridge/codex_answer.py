"""The runner's answer in Codex CLI's protocol (`hookman run EVENT --agent codex`).

The dispatch builds Claude Code's answer; Codex reads the same JSON shape but honours only a
few of its fields, and it FAILS OPEN on the rest (measured on 0.150.0 and 0.171.0): a
PreToolUse answer holding `permissionDecision: "ask"`, or a deny that also holds
`suppressOutput`, `updatedInput`, `continue: false`, any key Codex does not know, or a reason
that is not a string, is ignored and the command runs. So this module answers with only the
fields Codex honours, per event (the manifest's "codex" section carries them from
hookman/catalog/codex_events.json; without it, a PreToolUse deny alone):

- PreToolUse: a deny, whenever the Claude Code answer would stop the command (a deny, an
  ask, a changed input or `continue: false`: Codex can neither ask the user nor run a
  rewritten command, so the guard's wish to stop or change it becomes a plain deny), with
  its reason as a string and any additionalContext (which Codex gives the model as a
  developer message of its own). Anything else is `{}`: the command runs.
- other events: the honoured fields only (additionalContext; Stop's `decision: "block"` with
  its reason, which makes Codex continue the turn); everything else is dropped.

Standard library only, and imported only on the Codex path: the Claude Code path of the
runner never loads it.
"""

from __future__ import annotations

from hookman.bridge.protocol import PRE_TOOL_USE

SPECIFIC = "hookSpecificOutput"
DENY = "deny"
# Without the manifest's facts: a PreToolUse deny is all that is certain to be honoured.
DEFAULT_FIELDS: dict[str, dict[str, list[str]]] = {
    PRE_TOOL_USE: {
        "top": [],
        "specific": ["hookEventName", "permissionDecision", "permissionDecisionReason"],
    }
}
ASK_REASON = (
    "hookman blocked this command: a hook asked to confirm it with the user, which Codex "
    "cannot do for a hook"
)
CHANGED_REASON = (
    "hookman blocked this command: a hook changed it, and Codex cannot run a command a hook rewrote"
)
STOPPED_REASON = "hookman blocked this command: a hook asked to stop"
DEFAULT_REASON = "hookman blocked this command"
STOP_REASON = "a hook asked to continue"


def codex_answer(
    event: str,
    answer: dict[str, object],
    fields: dict[str, dict[str, list[str]]] | None = None,
) -> dict[str, object]:
    """The answer Codex gets for `event`, from the Claude Code answer the dispatch built."""
    known = DEFAULT_FIELDS if fields is None else fields
    if event == PRE_TOOL_USE:
        return _pre_tool_use(answer, known.get(PRE_TOOL_USE) or DEFAULT_FIELDS[PRE_TOOL_USE])
    allowed = known.get(event)
    if allowed is None:
        return {}
    result: dict[str, object] = {}
    top = set(allowed.get("top") or ())
    if "decision" in top and answer.get("decision") == "block":
        result["decision"] = "block"
        reason = answer.get("reason")
        result["reason"] = reason if isinstance(reason, str) and reason else STOP_REASON
    specific = _specific(answer)
    context = specific.get("additionalContext")
    if (
        "additionalContext" in (allowed.get("specific") or ())
        and isinstance(context, str)
        and context
    ):
        result[SPECIFIC] = {"hookEventName": event, "additionalContext": context}
    return result


def _pre_tool_use(answer: dict[str, object], allowed: dict[str, list[str]]) -> dict[str, object]:
    specific = _specific(answer)
    decision = specific.get("permissionDecision")
    reason = _text(specific.get("permissionDecisionReason"))
    if decision == DENY:
        why = reason or DEFAULT_REASON
    elif decision == "ask":
        why = f"{ASK_REASON}: {reason}" if reason else ASK_REASON
    elif "updatedInput" in specific:
        why = CHANGED_REASON
    elif answer.get("continue") is False:
        stop = _text(answer.get("stopReason"))
        why = f"{STOPPED_REASON}: {stop}" if stop else STOPPED_REASON
    elif answer.get("decision") == "block":
        why = _text(answer.get("reason")) or DEFAULT_REASON
    else:
        return {}
    deny: dict[str, object] = {
        "hookEventName": PRE_TOOL_USE,
        "permissionDecision": DENY,
        "permissionDecisionReason": why,
    }
    context = specific.get("additionalContext")
    if (
        "additionalContext" in (allowed.get("specific") or ())
        and isinstance(context, str)
        and context
    ):
        deny["additionalContext"] = context
    return {SPECIFIC: deny}


def _specific(answer: dict[str, object]) -> dict[str, object]:
    specific = answer.get(SPECIFIC)
    return specific if isinstance(specific, dict) else {}


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""
