"""The few Claude Code event facts the runner needs, as constants.

A copy of what hookman/catalog/claude_code_events.json says, kept here so the runner does not
parse the whole catalog on every event; tests/bridge/test_event_facts.py fails when the two
disagree.
"""

from __future__ import annotations

KNOWN_EVENTS = frozenset(
    {
        "ConfigChange",
        "CwdChanged",
        "DirectoryAdded",
        "Elicitation",
        "ElicitationResult",
        "FileChanged",
        "InstructionsLoaded",
        "MessageDisplay",
        "Notification",
        "PermissionDenied",
        "PermissionRequest",
        "PostCompact",
        "PostModelSwitch",
        "PostToolBatch",
        "PostToolUse",
        "PostToolUseFailure",
        "PreCompact",
        "PreModelSwitch",
        "PreToolUse",
        "SessionEnd",
        "SessionStart",
        "Setup",
        "Stop",
        "StopFailure",
        "SubagentStart",
        "SubagentStop",
        "TaskCompleted",
        "TaskCreated",
        "TeammateIdle",
        "UserPromptExpansion",
        "UserPromptSubmit",
        "WorktreeCreate",
        "WorktreeRemove",
    }
)

# Events whose hookSpecificOutput has `additionalContext`: text there reaches the model.
CONTEXT_CHANNEL_EVENTS = frozenset(
    {
        "Notification",
        "PostModelSwitch",
        "PostToolBatch",
        "PostToolUse",
        "PostToolUseFailure",
        "PreToolUse",
        "SessionStart",
        "Setup",
        "Stop",
        "SubagentStart",
        "SubagentStop",
        "UserPromptExpansion",
        "UserPromptSubmit",
    }
)

# Events whose payload names a tool (`tool_name`): their model-facing texts say `Event:Tool`.
TOOL_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)

# First client whose PostToolUse honours `updatedToolOutput` for every tool; older clients
# only have `updatedMCPToolOutput` (MCP tools). Catalog key: events.PostToolUse.
# hook_specific_output_since.updatedToolOutput (this default holds until the catalog says).
UPDATED_TOOL_OUTPUT_SINCE = "2.1.328"


def has_context_channel(event: str) -> bool:
    return event in CONTEXT_CHANNEL_EVENTS


def version_at_least(version: str | None, minimum: str) -> bool:
    """True when `version` is `minimum` or newer; an unknown version counts as newest."""
    if not version:
        return True
    return _version_key(version) >= _version_key(minimum)


def _version_key(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for part in version.strip().lstrip("v").split("."):
        digits = ""
        for char in part:
            if not char.isdigit():
                break
            digits += char
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
