"""Status line: show what Claude is doing in `hookman statusline` (set_status)."""

from __future__ import annotations

from typing import Any

STATUS_KEY = "activity"  # one key per hook; statuses of all hooks are sorted by key


def working(event: dict[str, Any], ctx: Any) -> None:
    ctx.ui.set_status(STATUS_KEY, "working")


def tool_done(event: dict[str, Any], ctx: Any) -> None:
    mark = "failed" if event["is_error"] else "ok"
    ctx.ui.set_status(STATUS_KEY, f"{event['tool_name']} {mark}")


def idle(event: dict[str, Any], ctx: Any) -> None:
    ctx.ui.set_status(STATUS_KEY, "idle")


def hook(pi: Any) -> None:
    # Not tool_call: every tool_call handler sits in front of the tool as a guard, and a
    # status line has nothing to guard. tool_result comes right after each tool instead.
    pi.on("before_agent_start", working)
    pi.on("tool_result", tool_done)
    pi.on("agent_end", idle)
