"""The one diff writer: settings.local.json, .codex/hooks.json and hookman.toml diffs."""

from __future__ import annotations

from pathlib import Path

from hookman.project.file_diff import file_diff

PATH = Path("/p/.claude/settings.local.json")


def test_no_change_and_no_write_are_no_diff() -> None:
    assert file_diff(PATH, "a\n", "a\n") == ""
    assert file_diff(PATH, "a\n", None) == ""


def test_a_new_file_is_diffed_from_dev_null() -> None:
    assert file_diff(PATH, None, "a\n") == f"--- /dev/null\n+++ {PATH}\n@@ -0,0 +1 @@\n+a\n"


def test_a_last_line_without_newline_is_marked_unless_asked_not_to() -> None:
    marked = file_diff(PATH, "a\n", "b")
    assert marked == f"--- {PATH}\n+++ {PATH}\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n"
    plain = file_diff(PATH, "a\n", "b", mark_no_newline=False)
    assert plain == f"--- {PATH}\n+++ {PATH}\n@@ -1 +1 @@\n-a\n+b\n"


def test_only_newlines_split_lines() -> None:
    diff = file_diff(PATH, '{"a": "x\u2028y"}\n', '{"a": "z\u2028y"}\n')
    assert diff.split("\n")[3:] == ['-{"a": "x\u2028y"}', '+{"a": "z\u2028y"}', ""]
