""".claude/hookman.toml as the commands read it: what tools/mutants.py found no test
noticing (project/config.py). Through `hookman list` and `install`, whatever module reads
the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import Result

from tests.commands.helpers import GUARD, hookman, hookman_json, write_hook

VERSION = ("--claude-version", "2.1.328")


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


def _toml(project: Path) -> Path:
    return project / ".claude" / "hookman.toml"


def _refused(project: Path, hook_table: str) -> Result:
    """`hookman list` on a hookman.toml holding this one [[hooks]] table: refused, the file
    left as it was."""
    text = f"[[hooks]]\n{hook_table}\n"
    _toml(project).write_text(text, encoding="utf-8")
    listed = hookman("list", *VERSION)
    assert listed.exit_code != 0, listed.output
    assert _toml(project).read_text(encoding="utf-8") == text
    return listed


@pytest.mark.parametrize("path", ["hooks\\\\..\\\\..\\\\outside.py", "..\\\\outside.py"])
def test_a_path_leaving_the_project_through_backslashes_is_refused(
    project: Path, path: str
) -> None:
    listed = _refused(project, f'name = "g"\npath = "{path}"')
    assert "leaves the project directory" in " ".join(listed.output.split())


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ("timeout = true", "`timeout` must be a number"),
        ("timeout = 86401", "at most 86400"),
        ('rev = "v1"', "`rev` goes only with `repo`"),
        ('hook = "x"', "`hook` goes only with `repo`"),
    ],
)
def test_a_path_hooks_bad_options_are_refused(project: Path, table: str, says: str) -> None:
    listed = _refused(project, f'name = "g"\npath = "hooks/g.py"\n{table}')
    assert says in " ".join(listed.output.split())


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ('repo = "https://example.invalid/h.git"\nrev = "--upload-pack=x"', "needs `rev`"),
        ('repo = "--upload-pack=touch /tmp/x"\nrev = "v1"', "cannot start with '-'"),
    ],
)
def test_a_repo_hook_whose_words_would_be_git_options_is_refused(
    project: Path, table: str, says: str
) -> None:
    listed = _refused(project, f'name = "g"\n{table}')
    assert says in " ".join(listed.output.split())


def test_a_hook_name_twice_is_refused(project: Path) -> None:
    listed = _refused(project, 'name = "g"\npath = "a.py"\n[[hooks]]\nname = "g"\npath = "b.py"')
    assert "twice" in listed.output


def test_a_hand_edit_after_an_install_is_what_list_reads(project: Path) -> None:
    """install keeps the parsed hookman.toml beside the manifest, so `list` needs no TOML
    parser; a hand edit since (the hook switched off) is read, not the kept copy."""
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    assert hookman_json("list", *VERSION)["hooks"][0]["enabled"] is True
    toml = _toml(project)
    toml.write_text(toml.read_text().replace("enabled = true", "enabled = false"))
    assert hookman_json("list", *VERSION)["hooks"][0]["enabled"] is False
