"""Notifier: tell you when Claude finishes or needs you (observe-only, runs async)."""

from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path
from typing import Any

# Read by `hookman new`: the hook is recorded with `async = true`, so Claude Code runs it in
# its own entry and never waits for it. An async hook cannot block or add context, so its
# handlers return nothing.
HOOKMAN_ASYNC = True

LOG_FILE = ".claude/notifications.log"
# Read by `hookman new`: files this hook writes in the project, kept out of git.
HOOKMAN_WRITES = [".claude/notifications.log"]
TITLE = "Claude Code"


def desktop_command(text: str) -> list[str] | None:
    """The desktop notifier for this machine, or None (no desktop, or NOTIFY_DESKTOP=0)."""
    if os.environ.get("NOTIFY_DESKTOP", "1") == "0":
        return None
    if shutil.which("notify-send"):
        return ["notify-send", TITLE, text]
    if shutil.which("osascript"):
        quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return ["osascript", "-e", f'display notification {quoted} with title "{TITLE}"']
    return None


def hook(pi: Any) -> None:
    def notify(ctx: Any, text: str) -> None:
        # The log line is always written, so the notifier also works without a desktop.
        stamp = datetime.datetime.now().isoformat(timespec="seconds")
        log = Path(ctx.cwd) / LOG_FILE
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as handle:
            handle.write(f"{stamp} {text}\n")
        command = desktop_command(text)
        if command is not None:
            # pi.exec runs without a shell and never raises for a missing program.
            pi.exec(command[0], command[1:], timeout=5)

    def on_agent_end(event: dict[str, Any], ctx: Any) -> None:
        notify(ctx, "Claude finished its turn.")

    def on_notification(event: dict[str, Any], ctx: Any) -> None:
        # Claude Code's own Notification event: it waits for a permission or for your input.
        notify(ctx, str(event.get("message") or "Claude needs your attention."))

    pi.on("agent_end", on_agent_end)
    pi.on("Notification", on_notification)
