"""hookman.toml's `repo`/`rev`/`hook` source: validation, and rev edits keeping the layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.project.config import (
    HookSource,
    load_project_config,
    read_project_config,
    save_project_config,
)

ENTRY = (
    '[[hooks]]\nname = "g"\nrepo = "https://h/x.git"   # shared\n'
    'rev = "v1"REV_COMMENT\nevents = ["tool_call"]\n'
)


def _write(project: Path, text: str) -> Path:
    path = project / ".claude" / "hookman.toml"
    path.write_text(text)
    return path


def test_a_repo_hook_reads_as_a_repo_source(project: Path) -> None:
    _write(project, ENTRY.replace("REV_COMMENT", "") + 'hook = "other"\n')
    [hook] = read_project_config(project).hooks
    assert hook.source == HookSource("repo", "https://h/x.git", "v1", "other")
    assert hook.source.describe() == "https://h/x.git at v1"
    assert hook.source.offered_name("g") == "other"


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ('[[hooks]]\nname = "g"\nrepo = "u"\n', "a `repo` hook needs `rev`"),
        ('[[hooks]]\nname = "g"\nrepo = "u"\nrev = "-x"\n', "a `repo` hook needs `rev`"),
        ('[[hooks]]\nname = "g"\nrepo = "-u"\nrev = "v1"\n', "`repo` cannot start with '-'"),
        ('[[hooks]]\nname = "g"\npath = "a.py"\nrev = "v1"\n', "`rev` goes only with `repo`"),
        ('[[hooks]]\nname = "g"\nrepo = "u"\nrev = "v1"\nhook = "a b"\n', "`hook` must be"),
        ('[[hooks]]\nname = "g"\nrepo = "u"\npath = "a.py"\nrev = "v1"\n', "exactly one of"),
    ],
)
def test_bad_repo_entries_are_refused_untouched(project: Path, extra: str, problem: str) -> None:
    path = _write(project, extra)
    with pytest.raises(HookmanError) as caught:
        load_project_config(project)
    assert problem in caught.value.message
    assert path.read_text() == extra


@pytest.mark.parametrize(
    ("comment", "frozen", "after"),
    [
        ("", None, 'rev = "v2"\n'),
        ("", "v2", 'rev = "SHA"  # frozen: v2\n'),
        ("  # mine", None, 'rev = "v2"  # mine\n'),
        ("  # mine", "v2", 'rev = "SHA"  # frozen: v2; mine\n'),
        ("  # frozen: v1", None, 'rev = "v2"\n'),
        ("    # frozen: v1; mine", "v3", 'rev = "SHA"    # frozen: v3; mine\n'),
    ],
)
def test_set_rev_keeps_the_layout_and_handles_the_frozen_comment(
    project: Path, comment: str, frozen: str | None, after: str
) -> None:
    _write(project, "# top\n" + ENTRY.replace("REV_COMMENT", comment))
    config = load_project_config(project)
    config.set_rev("g", "SHA" if frozen else "v2", frozen_tag=frozen)
    save_project_config(config)
    text = (project / ".claude" / "hookman.toml").read_text()
    assert text == "# top\n" + ENTRY.replace('rev = "v1"REV_COMMENT\n', after)
    assert load_project_config(project).frozen_tag("g") == frozen


@settings(max_examples=50, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20))
def test_any_rev_text_survives_set_rev(tmp_path_factory: pytest.TempPathFactory, rev: str) -> None:
    project = tmp_path_factory.mktemp("p")
    (project / ".claude").mkdir()
    _write(project, ENTRY.replace("REV_COMMENT", "  # note"))
    config = load_project_config(project)
    if rev.startswith("-") or not rev.strip():
        return
    config.set_rev("g", rev)
    save_project_config(config)
    [hook] = load_project_config(project).hooks
    assert hook.source.rev == rev
    assert "# note" in (project / ".claude" / "hookman.toml").read_text()
