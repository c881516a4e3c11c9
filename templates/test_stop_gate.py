"""Tests for the stop gate hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

import pytest

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("stop_gate.py")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "done-checklist.md").write_text(
        "- [x] write the code\n- [ ] run the tests\n", encoding="utf-8"
    )
    return tmp_path


def test_open_items_keep_claude_working(project: Path) -> None:
    result = load_hook(HOOK_FILE, cwd=project).claude_event("Stop", {"stop_hook_active": False})

    assert result["decision"] == "block"
    assert "- run the tests" in result["reason"]
    assert "write the code" not in result["reason"]


def test_a_second_stop_in_a_row_is_let_through(project: Path) -> None:
    hook = load_hook(HOOK_FILE, cwd=project)
    assert hook.claude_event("Stop", {"stop_hook_active": True}) is None


def test_a_subagent_stopping_is_not_gated(project: Path) -> None:
    hook = load_hook(HOOK_FILE, cwd=project)
    assert hook.claude_event("Stop", {"stop_hook_active": False, "agent_id": "a1"}) is None


def test_no_checklist_no_gate(tmp_path: Path) -> None:
    assert load_hook(HOOK_FILE, cwd=tmp_path).claude_event("Stop", {}) is None
