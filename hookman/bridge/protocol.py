"""What the launcher and the runner agree on: the runner's flags, the line that proves an
answer complete, and the deny a guarded event gets. Standard library only and import-free,
so the launcher's writer (install) need not load the runner to know them."""

from __future__ import annotations

PRE_TOOL_USE = "PreToolUse"
LAUNCHED_FLAG = "--launched"
GUARDED_FLAG = "--guarded"
ANSWER_FILE_FLAG = "--answer-file"  # stdout is this file: unlink its name (the launcher reads it)
# After the answer, when run by the launcher: the proof that the answer is complete.
ANSWER_END = "hookman:answer-complete\n"  # on its own line


def guarded_subject(event: str) -> str:
    """What a deny on the guarded `event` stops, as the model and the user read it."""
    return "tool call" if event == PRE_TOOL_USE else "shell command"


def deny_answer(event: str, reason: str) -> dict[str, object]:
    """The answer that blocks a guarded event: a JSON deny, which Claude Code honours on exit 0."""
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
