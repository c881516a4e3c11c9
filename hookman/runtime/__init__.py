"""hookman's runtime: the pi hook API in Python (docs/hook-api.md). Standard library only.

A hook is a module with a factory `def hook(pi): pi.on("tool_call", handler)`;
`load_hooks` imports hooks and runs their factories, `HookRunner` dispatches events to
them, `HookToolWrapper` puts the tool_call gate and tool_result rewrite around a tool.

The start-up path imports no asyncio, typing, inspect or subprocess: those load only when
an async handler, a TypedDict name (see `hookman.runtime.types`) or `pi.exec` needs them.
"""

from __future__ import annotations

from hookman.runtime.context import HookCommandContext, HookContext
from hookman.runtime.hook_api import HookAPI, LoadedHook
from hookman.runtime.js_values import is_js_truthy
from hookman.runtime.loader import LoadHooksResult, discover_and_load_hooks, load_hooks
from hookman.runtime.no_ui import NoUIContext, StatusRecordingUI
from hookman.runtime.records import (
    ExecResult,
    HookError,
    LoadError,
    RegisteredCommand,
    ToolBlockedError,
)
from hookman.runtime.runner import HookRunner

# Loaded on first use (see __getattr__): the runner's start-up path needs neither.
_LAZY_NAMES = {
    "HookToolWrapper": "hookman.runtime.tool_wrapper",
    "render_status_line": "hookman.runtime.status_line",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.runtime.status_line import render_status_line
    from hookman.runtime.tool_wrapper import HookToolWrapper
    from hookman.runtime.types import (
        BeforeAgentStartEvent,
        BeforeAgentStartEventResult,
        ContextEvent,
        ContextEventResult,
        SessionBeforeBranchResult,
        SessionBeforeCompactResult,
        SessionBeforeSwitchResult,
        SessionBeforeTreeResult,
        SessionCompactingResult,
        ToolCallEvent,
        ToolCallEventResult,
        ToolResultEvent,
        ToolResultEventResult,
    )

__all__ = [
    "BeforeAgentStartEvent",
    "BeforeAgentStartEventResult",
    "ContextEvent",
    "ContextEventResult",
    "ExecResult",
    "HookAPI",
    "HookCommandContext",
    "HookContext",
    "HookError",
    "HookRunner",
    "HookToolWrapper",
    "LoadError",
    "LoadHooksResult",
    "LoadedHook",
    "NoUIContext",
    "RegisteredCommand",
    "SessionBeforeBranchResult",
    "SessionBeforeCompactResult",
    "SessionBeforeSwitchResult",
    "SessionBeforeTreeResult",
    "SessionCompactingResult",
    "StatusRecordingUI",
    "ToolBlockedError",
    "ToolCallEvent",
    "ToolCallEventResult",
    "ToolResultEvent",
    "ToolResultEventResult",
    "discover_and_load_hooks",
    "is_js_truthy",
    "load_hooks",
    "render_status_line",
]


def __getattr__(name: str) -> object:
    """Load the tool wrapper, the status line, or `hookman.runtime.types` (and with it
    `typing`) on first use."""
    if name in _LAZY_NAMES:
        import importlib

        return getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    # "types" itself must fail here: the import below asks for it before loading it.
    if name != "types" and not name.startswith("_"):
        from hookman.runtime import types

        if name in types.__all__:
            return getattr(types, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
