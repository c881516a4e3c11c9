"""doctor's `git check-ignore` of settings.local.json, kept while what git reads is unchanged
(hookman/doctor/git_ignored.py): the finding stays true to git, and git runs again when one
of its files changes."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookman import paths
from hookman.doctor import findings_hookman, git_ignored

from .conftest import codes, diagnose, install

NOT_IGNORED = "local-settings-not-ignored"
LOCAL = ".claude/settings.local.json\n"
RACY_NS = git_ignored.RACY_NS


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    findings_hookman.interpreter_problem.cache_clear()


@pytest.fixture
def git_runs(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every `git check-ignore` doctor starts (they still run)."""
    runs: list[Any] = []
    real = subprocess.run

    def counted(*args: Any, **kwargs: Any) -> Any:
        if "check-ignore" in args[0]:
            runs.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(git_ignored.subprocess, "run", counted)
    return runs


@pytest.fixture
def repository(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed project in a git work tree whose exclude file lists nothing; files
    changed this instant count as settled (the racy-clean second is a clock's, not a test's)."""
    monkeypatch.setattr(git_ignored, "RACY_NS", 0)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    install(project)
    exclude(project, "")
    return project


def exclude(project: Path, text: str) -> None:
    (project / ".git" / "info" / "exclude").write_text(text)


def stamp(project: Path) -> Path:
    return paths.project_state_dir(project) / git_ignored.STAMP_NAME


def test_an_unchanged_repository_is_answered_without_git(
    repository: Path, git_runs: list[Any]
) -> None:
    assert NOT_IGNORED in codes(diagnose(repository))
    assert NOT_IGNORED in codes(diagnose(repository))
    assert NOT_IGNORED in codes(diagnose(repository))
    assert len(git_runs) == 1


def test_a_changed_exclude_file_asks_git_again(repository: Path, git_runs: list[Any]) -> None:
    assert NOT_IGNORED in codes(diagnose(repository))
    exclude(repository, LOCAL)
    assert NOT_IGNORED not in codes(diagnose(repository))
    exclude(repository, "")
    assert NOT_IGNORED in codes(diagnose(repository))
    assert len(git_runs) == 3


def test_a_gitignore_or_a_tracked_file_asks_git_again(
    repository: Path, git_runs: list[Any]
) -> None:
    assert NOT_IGNORED in codes(diagnose(repository))
    (repository / ".gitignore").write_text(LOCAL)
    assert NOT_IGNORED not in codes(diagnose(repository))
    subprocess.run(
        ["git", "add", "-f", ".claude/settings.local.json"], cwd=repository, check=True
    )  # tracked: git ignores it no more, and the index changed
    assert NOT_IGNORED in codes(diagnose(repository))
    assert len(git_runs) == 3


def test_the_users_ignore_file_where_the_environment_puts_it(
    repository: Path, git_runs: list[Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert NOT_IGNORED in codes(diagnose(repository))
    xdg = tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    (xdg / "git" / "ignore").write_text(LOCAL)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert NOT_IGNORED not in codes(diagnose(repository))
    assert NOT_IGNORED not in codes(diagnose(repository))
    (xdg / "git" / "ignore").write_text("")
    assert NOT_IGNORED in codes(diagnose(repository))
    assert len(git_runs) == 3


def test_a_config_naming_another_excludes_file_is_never_kept(
    repository: Path, git_runs: list[Any], tmp_path: Path
) -> None:
    ignore = tmp_path / "ignore"
    ignore.write_text("")
    with (repository / ".git" / "config").open("a") as handle:
        handle.write(f"[core]\n\texcludesFile = {ignore}\n")
    assert NOT_IGNORED in codes(diagnose(repository))
    ignore.write_text(LOCAL)  # no stat of the kept answer's would see this
    assert NOT_IGNORED not in codes(diagnose(repository))
    assert len(git_runs) == 2
    assert not stamp(repository).exists()


def test_a_file_changed_within_the_last_second_is_not_kept(
    repository: Path, git_runs: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_ignored, "RACY_NS", RACY_NS)
    assert NOT_IGNORED in codes(diagnose(repository))
    assert NOT_IGNORED in codes(diagnose(repository))
    assert len(git_runs) == 2
    assert not stamp(repository).exists()


def test_a_broken_stamp_asks_git_again(repository: Path, git_runs: list[Any]) -> None:
    assert NOT_IGNORED in codes(diagnose(repository))
    stamp(repository).write_text("not json")
    assert NOT_IGNORED in codes(diagnose(repository))
    assert NOT_IGNORED in codes(diagnose(repository))
    assert len(git_runs) == 2


def test_without_a_state_dir_nothing_is_written(
    project: Path, git_runs: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_ignored, "RACY_NS", 0)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text("{}\n")
    assert NOT_IGNORED in codes(diagnose(project))
    assert NOT_IGNORED in codes(diagnose(project))
    assert len(git_runs) == 2
    assert not paths.project_state_dir(project).exists()
