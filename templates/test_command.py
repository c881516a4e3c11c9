"""Tests for the command hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("command.py")


def test_todos_lists_the_markers(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n# TODO: split this\n", encoding="utf-8")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "b.py").write_text("# TODO not ours\n", encoding="utf-8")

    output = load_hook(HOOK_FILE, cwd=tmp_path).command("todos")

    assert output == "pkg/a.py:2: TODO split this"


def test_no_markers_says_so(tmp_path: Path) -> None:
    assert load_hook(HOOK_FILE, cwd=tmp_path).command("todos") == "no TODO or FIXME under ."
