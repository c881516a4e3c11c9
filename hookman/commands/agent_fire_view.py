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
from hookman.bridge.agent_facts import agent_catalog, answer_fields, display_name

if TYPE_CHECKING:
    from hookman.json_shapes import AgentFireJson

PAYLOAD_DIR = Path(__file__).resolve().parent.parent / "catalog" / "agent_payloads"
SAMPLE_HOME = "/home/user/proj"  # the project directory in the captured payloads


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
        effects.append("the tool call does not run")
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
