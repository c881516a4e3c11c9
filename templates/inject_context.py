"""Context injection: give the model project notes with every prompt (before_agent_start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Read on every prompt, so edits apply at once. Keep it short: it costs tokens each turn.
NOTES_FILE = ".claude/context.md"
DEFAULT_NOTES = "Project conventions: run the tests before saying a change is done."
MAX_CHARS = 4000


def project_notes(project_dir: str) -> str:
    try:
        text = (Path(project_dir) / NOTES_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    return (text or DEFAULT_NOTES)[:MAX_CHARS]


def add_context(event: dict[str, Any], ctx: Any) -> dict[str, Any]:
    # The first before_agent_start message of all hooks wins; the model reads its content.
    return {"message": {"customType": "project-notes", "content": project_notes(ctx.cwd)}}


def hook(pi: Any) -> None:
    pi.on("before_agent_start", add_context)
