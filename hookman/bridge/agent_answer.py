"""The runner's answer in the protocol of GitHub Copilot CLI, Qwen Code or Factory droid.

The dispatch builds Claude Code's answer. Each of these agents honours only some of its
fields, in places of its own, and fails OPEN on some shapes (measured, hookman/catalog/
<agent>_events.json): so the answer keeps only the fields the agent honours, per event
("answers"), puts a deny where the agent's model reads its reason ("deny": inside
hookSpecificOutput; for Copilot at the top level too) and context where the agent delivers
it (Copilot reads additionalContext only at the top level; Qwen and droid inside
hookSpecificOutput):

- PreToolUse: a deny whenever Claude Code's answer would stop or change the tool call (a
  deny; an ask or changed input, which hookman does not pass on to an agent not measured to
  honour them; `continue: false`; a `decision: "block"`, which Copilot and droid ignore on
  PreToolUse), with the reason as a string. Anything else lets the tool run, with the
  context only. For Qwen Code the deny also says `continue: false` with the reason as
  `stopReason`: Qwen lets a later hook's `permissionDecision` replace hookman's but keeps
  any hook's `continue: false`, which blocks the call and goes on with the session
  (measured, catalog/agent_hook_merge.json).
- other events: the honoured fields only (additionalContext; Stop's `decision: "block"` and
  its reason). Everything else, systemMessage included, is dropped.

Standard library only; imported only on an agent's path.
"""

from __future__ import annotations

from hookman.bridge.agent_facts import (
    OTHER_AGENTS,
    answer_fields,
    deny_channels,
    display_name,
)
from hookman.bridge.protocol import PRE_TOOL_USE

SPECIFIC = "hookSpecificOutput"
DENY = "deny"
CONTEXT = "additionalContext"
DECISION = "permissionDecision"
REASON = "permissionDecisionReason"
# Without facts for the event: a PreToolUse deny is all that is certain to be honoured.
DEFAULT_FIELDS: dict[str, list[str]] = {
    "top": [],
    "specific": ["hookEventName", DECISION, REASON],
}
ASK_REASON = (
    "hookman blocked this tool call: a hook asked to confirm it with the user, which hookman "
    "does not pass on to {agent}"
)
CHANGED_REASON = (
    "hookman blocked this tool call: a hook changed its input, which hookman does not pass "
    "on to {agent}"
)
STOPPED_REASON = "hookman blocked this tool call: a hook asked to stop"
DEFAULT_REASON = "hookman blocked this tool call"
STOP_REASON = "a hook asked to continue"


def agent_answer(agent: str, event: str, answer: dict[str, object]) -> dict[str, object]:
    """What `agent` (one of OTHER_AGENTS) gets for `event`, from Claude Code's `answer`.
    An agent without facts gets `answer` as it is (a deny stays a deny)."""
    if agent not in OTHER_AGENTS:
        return answer
    fields = answer_fields(agent)
    allowed = fields.get(event)
    if event == PRE_TOOL_USE:
        return _pre_tool_use(agent, answer, allowed or DEFAULT_FIELDS)
    if allowed is None:
        return {}
    result: dict[str, object] = {}
    top = set(allowed.get("top") or ())
    if "decision" in top and answer.get("decision") == "block":
        result["decision"] = "block"
        reason = answer.get("reason")
        result["reason"] = reason if isinstance(reason, str) and reason else STOP_REASON
    _add_context(result, event, _text(_specific(answer).get(CONTEXT)), allowed)
    return result


def deny_reason_of(agent: str, answer: dict[str, object]) -> str | None:
    """Why Claude Code's PreToolUse `answer` stops or changes the call, as `agent`'s model
    reads it; None when the tool may run as it is."""
    specific = _specific(answer)
    decision = specific.get(DECISION)
    reason = _text(specific.get(REASON))
    name = display_name(agent)
    if decision == DENY:
        return reason or DEFAULT_REASON
    if decision == "ask":  # catalog "ask": none of these agents is known to ask for a hook
        why = ASK_REASON.format(agent=name)
        return f"{why}: {reason}" if reason else why
    if "updatedInput" in specific:  # catalog "updated_input": not known to be honoured
        return CHANGED_REASON.format(agent=name)
    if answer.get("continue") is False:
        stop = _text(answer.get("stopReason"))
        return f"{STOPPED_REASON}: {stop}" if stop else STOPPED_REASON
    if answer.get("decision") == "block":
        return _text(answer.get("reason")) or DEFAULT_REASON
    if decision not in (None, "allow"):  # a decision no agent knows: never let it pass
        return f"{DEFAULT_REASON}: a hook answered the decision {decision!r}"
    return None


def _pre_tool_use(
    agent: str, answer: dict[str, object], allowed: dict[str, list[str]]
) -> dict[str, object]:
    why = deny_reason_of(agent, answer)
    result: dict[str, object] = {}
    context = _text(_specific(answer).get(CONTEXT))
    if why is not None:
        result.update(agent_deny(agent, why))
    _add_context(result, PRE_TOOL_USE, context, allowed)
    return result


def agent_deny(agent: str, why: str) -> dict[str, object]:
    """The PreToolUse deny whose reason `agent`'s model reads: the runner's, and the
    launcher's own when the runner gave none (project/launcher.py)."""
    result: dict[str, object] = {}
    channels = deny_channels(agent)
    if channels.get("stop"):  # Qwen Code: a later hook's allow cannot undo this
        result["continue"] = False
        result["stopReason"] = why
    if channels.get("specific", True) or not channels.get("top"):
        result[SPECIFIC] = {
            "hookEventName": PRE_TOOL_USE,
            DECISION: DENY,
            REASON: why,
        }
    if channels.get("top"):
        result[DECISION] = DENY
        result[REASON] = why
    return result


def _add_context(
    result: dict[str, object], event: str, context: str, allowed: dict[str, list[str]]
) -> None:
    """Put `context` where the agent reads it for `event`: the top level (Copilot) or
    hookSpecificOutput (Qwen, droid); nowhere when the agent delivers none there."""
    if not context:
        return
    if CONTEXT in (allowed.get("top") or ()):
        result[CONTEXT] = context
    elif CONTEXT in (allowed.get("specific") or ()):
        specific = result.get(SPECIFIC)
        if not isinstance(specific, dict):
            specific = result[SPECIFIC] = {"hookEventName": event}
        specific[CONTEXT] = context


def _specific(answer: dict[str, object]) -> dict[str, object]:
    specific = answer.get(SPECIFIC)
    return specific if isinstance(specific, dict) else {}


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""
