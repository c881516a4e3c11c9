"""Session notes: record each prompt and edited file in the session's entries (append_entry)."""

from __future__ import annotations

from typing import Any

ENTRY_TYPE = "session-notes"
EDIT_TOOLS = ("Edit", "MultiEdit", "Write", "NotebookEdit")


def hook(pi: Any) -> None:
    def note_prompt(event: dict[str, Any], ctx: Any) -> None:
        # Returns nothing: a note is for later, not context for this turn.
        pi.append_entry(ENTRY_TYPE, {"prompt": event["prompt"][:500]})

    def note_edit(event: dict[str, Any], ctx: Any) -> None:
        tool_input = event["input"]
        path = tool_input.get("file_path") or tool_input.get("notebook_path")
        if not event["is_error"] and isinstance(path, str):
            pi.append_entry(ENTRY_TYPE, {"edited": path, "tool": event["tool_name"]})

    pi.on("before_agent_start", note_prompt)
    pi.on("tool_result", note_edit, tools=list(EDIT_TOOLS))
