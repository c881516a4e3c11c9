"""Tests for the status line hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("status.py")


def test_the_status_follows_the_turn() -> None:
    hook = load_hook(HOOK_FILE)

    hook.before_agent_start("go")
    assert hook.statuses == {"activity": "working"}
    hook.tool_result("Bash", {"command": "false"}, "exit 1", is_error=True)
    assert hook.statuses == {"activity": "Bash failed"}
    hook.emit("agent_end", messages=[])
    assert hook.statuses == {"activity": "idle"}
