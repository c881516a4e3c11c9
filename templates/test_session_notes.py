"""Tests for the session notes hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("session_notes.py")


def test_prompts_and_edits_are_noted() -> None:
    hook = load_hook(HOOK_FILE)

    assert hook.before_agent_start("add a login page") is None
    hook.tool_result("Edit", {"file_path": "app/login.py"}, "ok")
    hook.tool_result("Edit", {"file_path": "app/broken.py"}, "no match", is_error=True)

    assert hook.entries == [
        ("session-notes", {"prompt": "add a login page"}),
        ("session-notes", {"edited": "app/login.py", "tool": "Edit"}),
    ]


def test_only_edit_tools_start_it() -> None:
    filters = load_hook(HOOK_FILE).loaded.tool_filters
    assert filters["tool_result"] == ["Edit", "MultiEdit", "Write", "NotebookEdit"]
