"""What GitHub Copilot CLI, Qwen Code or Factory droid and its model get for an answer, for
`hookman fire EVENT --agent copilot|qwen|droid`.

The answer is the runner's own (bridge/agent_answer.py); what the model reads is the
agent's measured wording (catalog <agent>_events.json "model_text"): Copilot shows a deny
as `Denied by preToolUse hook: REASON` and reads context only at the top level; Qwen and
droid give the model the deny's reason as it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman.bridge.agent_answer import agent_answer
from hookman.bridge.agent_facts import (
    agent_catalog,
    answer_fields,
    claude_tool_name,
    display_name,
)

if TYPE_CHECKING:
    from hookman.json_shapes import AgentFireJson

PAYLOAD_DIR = Path(__file__).resolve().parent.parent / "catalog" / "agent_payloads"
SAMPLE_HOME = "/home/user/proj"  # the project directory in the captured payloads
DENY_EFFECT = "the tool call does not run"
FOREIGN_CAVEAT = (
    f"{DENY_EFFECT}, unless a malformed answer of a hook that is not hookman's undoes the deny"
)


def captured_payload(agent: str, event: str, project_dir: Path) -> tuple[dict[str, Any], str]:
    """The payload the real agent sent for `event` (catalog/agent_payloads), its project
    directory made `project_dir`; ({}, "") when none was captured."""
    for path in sorted(PAYLOAD_DIR.glob(f"{agent}-*-{event}.json")):
        text = path.read_text(encoding="utf-8").replace(SAMPLE_HOME, str(project_dir))
        data = json.loads(text)
        if isinstance(data, dict):
            version = path.name.removeprefix(f"{agent}-").removesuffix(f"-{event}.json")
            return data, f"payload captured from {display_name(agent)} {version}"
    return {}, ""


def agent_view(
    agent: str,
    event: str,
    answer: dict[str, Any],
    sent: dict[str, Any],
    seen: dict[str, Any],
) -> AgentFireJson:
    """What the runner gives `agent`, what its model sees and what follows (`fire --json`'s
    key named after the agent, hookman/json_shapes.py). `sent` is the agent's payload,
    `seen` the one the hooks got (tool names mapped)."""
    name = display_name(agent)
    given = agent_answer(agent, event, answer)
    specific = given.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    texts = agent_catalog(agent)["model_text"]
    model: list[str] = []
    effects: list[str] = []
    native, mapped = sent.get("tool_name"), seen.get("tool_name")
    if isinstance(native, str) and native != mapped:
        effects.append(f"the hooks saw the tool {mapped!r} ({name} calls it {native!r})")
    reason = specific.get("permissionDecisionReason", given.get("permissionDecisionReason"))
    if "deny" in (specific.get("permissionDecision"), given.get("permissionDecision")):
        template = str(texts.get("deny", "{reason}"))
        model.append(template.format(reason=reason) if "{reason}" in template else str(reason))
        effects.append(DENY_EFFECT)
    context = given.get("additionalContext", specific.get("additionalContext"))
    if isinstance(context, str) and context:
        model.append(context)
    elif _context_of(answer) and event in answer_fields(agent):
        effects.append(f"{name} does not give this event's additionalContext to its model")
    if given.get("decision") == "block":
        effects.append(f"{name} continues the turn ({given.get('reason', '')})")
    if answer and not given:
        effects.append(f"nothing of this answer is a field {name} honours: {name} gets {{}}")
    return {"answer": given, "model_sees": model, "effects": effects}


def _context_of(answer: dict[str, Any]) -> str:
    specific = answer.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    return context if isinstance(context, str) else ""


def foreign_caveat(
    project_dir: Path, agent: str, view: AgentFireJson, sent: dict[str, Any]
) -> None:
    """Where a PreToolUse hook that is not hookman's runs for the same tool, under an agent
    that lets a malformed answer of it undo hookman's deny (Qwen Code, droid: catalog
    agent_hook_merge.json "foreign_fail_open"), the deny's effect says so, and the next
    effects name each such hook in doctor's words (AGENT-foreign-pre-tool-use)."""
    from hookman.doctor.foreign_hooks import foreign_sentence, loaded_foreign_hooks

    tool = sent.get("tool_name")
    effects = view["effects"]
    if DENY_EFFECT not in effects or not isinstance(tool, str):
        return
    hooks = [
        hook
        for hook in loaded_foreign_hooks(agent, project_dir)
        if tool in hook.tools or tool in {claude_tool_name(agent, t) for t in hook.tools}
    ]
    if not hooks:
        return
    at = effects.index(DENY_EFFECT)
    effects[at : at + 1] = [FOREIGN_CAVEAT, *(foreign_sentence(agent, hook) for hook in hooks)]
