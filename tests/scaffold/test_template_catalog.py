from __future__ import annotations

from pathlib import Path

import pytest

from hookman.scaffold.template_catalog import _describe as describe
from hookman.scaffold.template_catalog import templates


def test_the_notify_template_says_which_project_file_it_writes() -> None:
    shipped = templates()
    assert shipped["notify"].writes == (".claude/notifications.log",)
    assert shipped["bash_guard"].writes == ()


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ('[".claude/a.log", "logs/b.txt"]', (".claude/a.log", "logs/b.txt")),
        ('["/etc/passwd", "../outside", "a/../../b", "", 3]', ()),
        ('".claude/a.log"', ()),
        ("make_paths()", ()),
    ],
)
def test_only_paths_inside_the_project_are_kept(tmp_path: Path, value: str, kept: tuple) -> None:
    module = tmp_path / "hook.py"
    module.write_text(f'"""A hook."""\nHOOKMAN_WRITES = {value}\n', encoding="utf-8")
    assert describe("hook", module).writes == kept
