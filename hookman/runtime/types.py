"""Typed shapes of events and results, for editors and type checkers.

Events and results are plain dicts at run time; these TypedDicts only describe them
(docs/hook-api.md, "Events"). Importing this module imports `typing`, which the
runner's start-up path avoids: `hookman.runtime` loads it only when one of these names is
first used. The records (HookError, ExecResult, ...) are re-exported here for convenience.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from hookman.runtime.loader import LoadHooksResult
from hookman.runtime.records import (
    ExecResult,
    HookError,
    LoadError,
    RegisteredCommand,
    ToolBlockedError,
)

__all__ = [
    "AgentEndEvent",
    "AgentStartEvent",
    "AutoCompactionEndEvent",
    "AutoCompactionStartEvent",
    "AutoRetryEndEvent",
    "AutoRetryStartEvent",
    "BeforeAgentStartEvent",
    "BeforeAgentStartEventResult",
    "ContentItem",
    "ContextEvent",
    "ContextEventResult",
    "CustomMessage",
    "ExecResult",
    "HookError",
    "ImageContent",
    "LoadError",
    "LoadHooksResult",
    "RegisteredCommand",
    "SessionBeforeBranchEvent",
    "SessionBeforeBranchResult",
    "SessionBeforeCompactEvent",
    "SessionBeforeCompactResult",
    "SessionBeforeSwitchEvent",
    "SessionBeforeSwitchResult",
    "SessionBeforeTreeEvent",
    "SessionBeforeTreeResult",
    "SessionBranchEvent",
    "SessionCompactEvent",
    "SessionCompactingEvent",
    "SessionCompactingResult",
    "SessionShutdownEvent",
    "SessionStartEvent",
    "SessionSwitchEvent",
    "SessionTreeEvent",
    "TextContent",
    "TodoReminderEvent",
    "ToolBlockedError",
    "ToolCallEvent",
    "ToolCallEventResult",
    "ToolResultEvent",
    "ToolResultEventResult",
    "TreeSummary",
    "TtsrTriggeredEvent",
    "TurnEndEvent",
    "TurnStartEvent",
]


# -- content ------------------------------------------------------------------------------


class TextContent(TypedDict):
    type: Literal["text"]
    text: str


class ImageContent(TypedDict):
    type: Literal["image"]
    data: str
    mime_type: str


ContentItem = TextContent | ImageContent


class CustomMessage(TypedDict, total=False):
    """A message a hook injects (send_message, before_agent_start)."""

    custom_type: str
    content: str | list[ContentItem]
    display: bool
    details: Any
    attribution: str


# -- session events -----------------------------------------------------------------------


class SessionStartEvent(TypedDict):
    type: Literal["session_start"]


class SessionBeforeSwitchEvent(TypedDict, total=False):
    type: Literal["session_before_switch"]
    reason: Literal["new", "resume", "fork"]
    target_session_file: str


class SessionSwitchEvent(TypedDict):
    type: Literal["session_switch"]
    reason: Literal["new", "resume", "fork"]
    previous_session_file: str | None


class SessionBeforeBranchEvent(TypedDict):
    type: Literal["session_before_branch"]
    entry_id: str


class SessionBranchEvent(TypedDict):
    type: Literal["session_branch"]
    previous_session_file: str | None


class SessionBeforeCompactEvent(TypedDict, total=False):
    type: Literal["session_before_compact"]
    preparation: Any
    branch_entries: list[Any]
    custom_instructions: str
    signal: Any


class SessionCompactingEvent(TypedDict):
    type: Literal["session.compacting"]
    session_id: str
    messages: list[Any]


class SessionCompactEvent(TypedDict):
    type: Literal["session_compact"]
    compaction_entry: Any
    from_extension: bool


class SessionShutdownEvent(TypedDict):
    type: Literal["session_shutdown"]


class SessionBeforeTreeEvent(TypedDict, total=False):
    type: Literal["session_before_tree"]
    preparation: dict[str, Any]
    signal: Any


class SessionTreeEvent(TypedDict, total=False):
    type: Literal["session_tree"]
    new_leaf_id: str | None
    old_leaf_id: str | None
    summary_entry: Any
    from_extension: bool


# -- agent and context events -------------------------------------------------------------


class ContextEvent(TypedDict):
    type: Literal["context"]
    messages: list[Any]


class BeforeAgentStartEvent(TypedDict):
    type: Literal["before_agent_start"]
    prompt: str
    images: list[ImageContent] | None


class AgentStartEvent(TypedDict):
    type: Literal["agent_start"]


class AgentEndEvent(TypedDict, total=False):
    type: Literal["agent_end"]
    messages: list[Any]
    will_continue: bool


class TurnStartEvent(TypedDict):
    type: Literal["turn_start"]
    turn_index: int
    timestamp: float


class TurnEndEvent(TypedDict):
    type: Literal["turn_end"]
    turn_index: int
    message: Any
    tool_results: list[Any]


class AutoCompactionStartEvent(TypedDict):
    type: Literal["auto_compaction_start"]
    reason: str
    action: str


class AutoCompactionEndEvent(TypedDict, total=False):
    type: Literal["auto_compaction_end"]
    action: str
    result: Any
    aborted: bool
    will_retry: bool
    error_message: str
    skipped: bool


class AutoRetryStartEvent(TypedDict, total=False):
    type: Literal["auto_retry_start"]
    attempt: int
    max_attempts: int
    delay_ms: int
    error_message: str
    error_id: str


class AutoRetryEndEvent(TypedDict, total=False):
    type: Literal["auto_retry_end"]
    success: bool
    attempt: int
    final_error: str
    retry_errors: list[str]


class TtsrTriggeredEvent(TypedDict):
    type: Literal["ttsr_triggered"]
    rules: list[Any]


class TodoReminderEvent(TypedDict):
    type: Literal["todo_reminder"]
    todos: list[Any]
    attempt: int
    max_attempts: int


# -- tool events --------------------------------------------------------------------------


class ToolCallOrigin(TypedDict, total=False):
    """Where a tool_call's command comes from, under Claude Code (absent in plain pi):
    `source` "tool" for the agent's tool call (PreToolUse), "skill_shell" for the inline
    shell command (!`cmd`) of a skill or slash command (PreSkillShellCommand), which also
    names the command, where it is defined and who invoked it ("user" or "claude")."""

    source: Literal["tool", "skill_shell"]
    command_name: str | None
    command_source: str | None
    invoked_by: str | None


class ToolCallEvent(ToolCallOrigin):
    type: Literal["tool_call"]
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]


class ToolResultEvent(TypedDict):
    type: Literal["tool_result"]
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    content: list[ContentItem]
    details: Any
    is_error: bool


# -- results ------------------------------------------------------------------------------


class ToolCallEventResult(TypedDict, total=False):
    """`block` stops the call with `reason`; hookman ignores an `input` key (docs/dispatch.md)."""

    block: bool
    reason: str


class ToolResultEventResult(TypedDict, total=False):
    """Replaces the tool's content and/or details; `is_error` is never applied."""

    content: list[ContentItem]
    details: Any
    is_error: bool


class ContextEventResult(TypedDict, total=False):
    messages: list[Any]


class BeforeAgentStartEventResult(TypedDict, total=False):
    message: CustomMessage


class SessionBeforeSwitchResult(TypedDict, total=False):
    cancel: bool


class SessionBeforeBranchResult(TypedDict, total=False):
    cancel: bool
    skip_conversation_restore: bool


class SessionBeforeCompactResult(TypedDict, total=False):
    cancel: bool
    compaction: Any


class SessionCompactingResult(TypedDict, total=False):
    context: list[str]
    prompt: str
    preserve_data: dict[str, Any]


class TreeSummary(TypedDict, total=False):
    summary: str
    details: Any


class SessionBeforeTreeResult(TypedDict, total=False):
    cancel: bool
    summary: TreeSummary
