"""Stop gate: keep Claude working while the project's checklist has open items (Stop)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# A Markdown checklist the user (or Claude) keeps: `- [ ] item` is open, `- [x] item` done.
CHECKLIST_FILE = ".claude/done-checklist.md"
OPEN_ITEM = re.compile(r"^\s*[-*]\s+\[ \]\s+(.+?)\s*$", re.MULTILINE)


def open_items(project_dir: str) -> list[str]:
    try:
        text = (Path(project_dir) / CHECKLIST_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return OPEN_ITEM.findall(text)


def gate(event: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
    # Claude Code sets stop_hook_active when this stop was already refused once and Claude
    # tried again: refusing again could loop forever, so let it stop.
    if event.get("stop_hook_active"):
        return None
    # A Stop carrying agent_id is a subagent finishing its task, not the session's agent.
    if event.get("agent_id"):
        return None
    items = open_items(ctx.cwd)
    if not items:
        return None
    listed = "\n".join(f"- {item}" for item in items)
    return {
        "decision": "block",
        "reason": f"Before stopping, finish these items from {CHECKLIST_FILE} "
        f"(tick each with [x] when done):\n{listed}",
    }


def hook(pi: Any) -> None:
    # Registered under Claude Code's own event name: it gets the raw payload (with
    # stop_hook_active and agent_id) and answers with Claude Code's `decision` field.
    pi.on("Stop", gate)
