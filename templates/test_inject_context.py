"""Tests for the context injection hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("inject_context.py")


def test_the_default_notes_reach_the_model(tmp_path: Path) -> None:
    result = load_hook(HOOK_FILE, cwd=tmp_path).before_agent_start("fix the bug")
    assert "run the tests" in result["message"]["content"]


def test_the_project_notes_file_wins(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "context.md").write_text("Use tabs.\n", encoding="utf-8")

    result = load_hook(HOOK_FILE, cwd=tmp_path).before_agent_start("hello")

    assert result["message"]["content"] == "Use tabs."
