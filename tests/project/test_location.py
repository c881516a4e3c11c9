from __future__ import annotations

from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.project.location import find_project_dir


def test_an_explicit_project_is_resolved(project: Path) -> None:
    assert find_project_dir(project / ".claude" / "..") == project.resolve()


def test_a_missing_project_dir_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(HookmanError) as error:
        find_project_dir(tmp_path / "nowhere")
    assert "does not exist" in error.value.message
    assert error.value.exit_code == 2


def test_a_file_given_as_the_project_is_named_as_not_a_directory(project: Path) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.write_text("{}")
    with pytest.raises(HookmanError) as error:
        find_project_dir(settings)
    assert "is not a directory" in error.value.message
    assert "does not exist" not in error.value.message
    assert error.value.exit_code == 2


def test_the_nearest_ancestor_with_claude_dir_wins(project: Path) -> None:
    inner = project / "src" / "deep"
    inner.mkdir(parents=True)
    assert find_project_dir(start=inner) == project.resolve()


def test_the_home_dirs_claude_is_never_taken_for_a_project_even_through_a_symlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_home = tmp_path / "real-home"
    (real_home / ".claude").mkdir(parents=True)
    work = real_home / "work"
    work.mkdir()
    linked_home = tmp_path / "home-link"
    linked_home.symlink_to(real_home)
    monkeypatch.setenv("HOME", str(linked_home))
    assert find_project_dir(start=work) != real_home.resolve()
