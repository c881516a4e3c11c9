"""HookToolWrapper: the tool_call gate and tool_result rewrite around one tool
(docs/dispatch.md, "The tool wrapper").

Hooks can only block or allow a call: an `input` key in a tool_call result is ignored.
The gate fails closed: if a tool_call handler raises, the tool does not run and the
exception propagates unchanged.
"""

from __future__ import annotations

from hookman.runtime.awaiting import settle
from hookman.runtime.js_values import (
    error_message,
    is_js_truthy,
    nullish_fallback,
    or_fallback,
    read_field,
)
from hookman.runtime.records import ToolBlockedError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.runtime.runner import HookRunner

DEFAULT_BLOCK_REASON = "Tool execution was blocked by a hook"


class HookToolWrapper:
    """Wraps `tool` (anything with `name` and `execute(tool_call_id, params)`).

    Every other attribute of the tool (label, description, parameters, ...) reads
    through the wrapper unchanged.
    """

    def __init__(self, tool: object, runner: HookRunner) -> None:
        self.tool = tool
        self.runner = runner

    def __getattr__(self, name: str) -> object:
        # Only reached for names the wrapper itself lacks.
        return getattr(self.__dict__["tool"], name)

    def execute(
        self, tool_call_id: str, params: object, *extra: object, **options: object
    ) -> object:
        """Run the tool unless a hook blocks it; let tool_result handlers rewrite the result.

        Extra arguments (signal, on_update, context) are passed to the tool unchanged.
        Raises ToolBlockedError when blocked, and re-raises the tool's own exception when
        it fails (after tool_result handlers have seen it with `is_error` True).
        """
        tool_name = self.tool.name  # type: ignore[attr-defined]
        if self.runner.has_handlers("tool_call"):
            verdict = self.runner.emit_tool_call(
                {
                    "type": "tool_call",
                    "tool_name": tool_name,
                    "tool_call_id": tool_call_id,
                    "input": params,
                }
            )
            if is_js_truthy(read_field(verdict, "block")):
                reason = or_fallback(read_field(verdict, "reason"), DEFAULT_BLOCK_REASON)
                raise ToolBlockedError(str(reason))
        try:
            result = settle(self.tool.execute(tool_call_id, params, *extra, **options))  # type: ignore[attr-defined]
        except Exception as error:
            if self.runner.has_handlers("tool_result"):
                self.runner.emit(
                    {
                        "type": "tool_result",
                        "tool_name": tool_name,
                        "tool_call_id": tool_call_id,
                        "input": params,
                        "content": [{"type": "text", "text": error_message(error)}],
                        "details": None,
                        "is_error": True,
                    }
                )
            raise
        if not self.runner.has_handlers("tool_result"):
            return result
        content = read_field(result, "content")
        details = read_field(result, "details")
        rewrite = self.runner.emit(
            {
                "type": "tool_result",
                "tool_name": tool_name,
                "tool_call_id": tool_call_id,
                "input": params,
                "content": content,
                "details": details,
                "is_error": False,
            }
        )
        if not is_js_truthy(rewrite):
            return result
        # Only content and details can change; is_error in a rewrite is never applied.
        return {
            "content": nullish_fallback(read_field(rewrite, "content"), content),
            "details": nullish_fallback(read_field(rewrite, "details"), details),
        }
