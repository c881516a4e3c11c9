"""Tests for the batch linter hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("batch_lint.py")


def batch(*paths: Path) -> dict:
    calls = [{"tool_name": "Edit", "tool_input": {"file_path": str(p)}} for p in paths]
    return {"tool_calls": [*calls, {"tool_name": "Bash", "tool_input": {"command": "ls"}}]}


def test_a_broken_file_is_reported_to_the_model(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n    pass\n", encoding="utf-8")

    result = load_hook(HOOK_FILE, cwd=tmp_path).claude_event("PostToolBatch", batch(broken))

    context = result["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("The linter found problems")
    assert "broken.py" in context


def test_clean_files_and_other_tools_say_nothing(tmp_path: Path) -> None:
    clean = tmp_path / "clean.py"
    clean.write_text("VALUE = 1\n", encoding="utf-8")
    hook = load_hook(HOOK_FILE, cwd=tmp_path)

    assert hook.claude_event("PostToolBatch", batch(clean)) is None
    assert hook.claude_event("PostToolBatch", batch()) is None
