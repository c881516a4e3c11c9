"""What Codex CLI and its model get for an answer, for `hookman fire --agent codex`.

From what the real binary did (tests/e2e/test_codex.py, Codex 0.150.0 and 0.171.0): a
PreToolUse deny replaces the command's output with `Command blocked by PreToolUse hook:
REASON. Command: CMD`, and the command does not run; additionalContext reaches the model as a
developer message of its own holding exactly the text; a Stop `decision: "block"` makes
Codex continue the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookman.bridge.codex_answer import codex_answer
from hookman.catalog.codex_catalog import answer_fields, codex_catalog

if TYPE_CHECKING:
    from hookman.json_shapes import CodexFireJson


def codex_view(event: str, answer: dict[str, Any], payload: dict[str, Any]) -> CodexFireJson:
    """What the runner gives Codex, what its model sees and what follows (`fire --json`'s
    "codex", hookman/json_shapes.py)."""
    given = codex_answer(event, answer, answer_fields())
    specific = given.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    model: list[str] = []
    effects: list[str] = []
    if specific.get("permissionDecision") == "deny":
        tool_input = payload.get("tool_input")
        command = tool_input.get("command", "") if isinstance(tool_input, dict) else ""
        template = str(codex_catalog()["model_text"]["deny"])
        model.append(
            template.format(reason=specific.get("permissionDecisionReason", ""), command=command)
        )
        effects.append("the command does not run")
    context = specific.get("additionalContext")
    if isinstance(context, str) and context:
        model.append(f"(a developer message) {context}")
    if given.get("decision") == "block":
        effects.append(f"Codex continues the turn ({given.get('reason', '')})")
    if answer and not given:
        effects.append("nothing of this answer is a field Codex honours: Codex gets {}")
    return {"answer": given, "model_sees": model, "effects": effects}
