"""Tests for the notifier hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

import pytest

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("notify.py")


@pytest.fixture(autouse=True)
def no_desktop_popups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_DESKTOP", "0")


def test_the_end_of_a_turn_is_logged(tmp_path: Path) -> None:
    load_hook(HOOK_FILE, cwd=tmp_path).emit("agent_end", messages=[])

    log = (tmp_path / ".claude" / "notifications.log").read_text(encoding="utf-8")
    assert log.endswith(" Claude finished its turn.\n")


def test_claude_codes_notification_is_passed_on(tmp_path: Path) -> None:
    hook = load_hook(HOOK_FILE, cwd=tmp_path)

    result = hook.claude_event("Notification", {"message": "Claude needs your permission"})

    assert result is None  # observe-only: nothing to decide
    log = (tmp_path / ".claude" / "notifications.log").read_text(encoding="utf-8")
    assert "Claude needs your permission" in log
