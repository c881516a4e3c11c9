from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookman.project.git_exclude import Excluded, GitExclusion, ensure_git_ignored

SETTINGS = ".claude/settings.local.json"
ADDED = GitExclusion(Excluded.ADDED, SETTINGS, ".git/info/exclude")


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Keep the user's and system's git config (global excludes!) out of these tests."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    for name, value in {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}.items():
        monkeypatch.setenv(name, value)
        monkeypatch.setenv(name.replace("AUTHOR", "COMMITTER"), value)


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=directory, capture_output=True, text=True, check=True
    ).stdout


def _is_ignored(directory: Path, relative: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", relative], cwd=directory).returncode == 0


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".claude").mkdir(parents=True)
    _git(root, "init", "-q")
    return root


def test_outside_git_says_so(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    assert ensure_git_ignored(tmp_path / "plain", SETTINGS).outcome is Excluded.NOT_A_WORK_TREE


def test_adds_to_info_exclude_when_not_ignored(repo: Path) -> None:
    gitignore_before = (repo / ".gitignore").exists()
    assert ensure_git_ignored(repo, SETTINGS) == ADDED
    assert _is_ignored(repo, SETTINGS)
    assert f"/{SETTINGS}\n" in (repo / ".git/info/exclude").read_text()
    assert (repo / ".gitignore").exists() == gitignore_before
    assert ensure_git_ignored(repo, SETTINGS) == GitExclusion(Excluded.ALREADY_IGNORED, SETTINGS)
    assert (repo / ".git/info/exclude").read_text().count(SETTINGS) == 1


def test_already_ignored_by_gitignore_changes_nothing(repo: Path) -> None:
    (repo / ".gitignore").write_text("settings.local.json\n")
    exclude = repo / ".git/info/exclude"
    before = exclude.read_bytes() if exclude.exists() else None
    assert ensure_git_ignored(repo, SETTINGS).outcome is Excluded.ALREADY_IGNORED
    assert (exclude.read_bytes() if exclude.exists() else None) == before
    assert (repo / ".gitignore").read_text() == "settings.local.json\n"


def test_keeps_existing_exclude_lines_and_adds_missing_newline(repo: Path) -> None:
    exclude = repo / ".git/info/exclude"
    exclude.parent.mkdir(exist_ok=True)
    exclude.write_text("*.log")
    ensure_git_ignored(repo, SETTINGS)
    lines = exclude.read_text().splitlines()
    assert lines[0] == "*.log"
    assert lines[-1] == f"/{SETTINGS}"


def test_creates_missing_info_dir(repo: Path) -> None:
    info = repo / ".git/info"
    for child in info.iterdir() if info.exists() else []:
        child.unlink()
    if info.exists():
        info.rmdir()
    assert ensure_git_ignored(repo, SETTINGS) == ADDED
    assert _is_ignored(repo, SETTINGS)


def test_project_in_a_subdirectory_gets_an_anchored_pattern(repo: Path) -> None:
    project = repo / "packages" / "app"
    (project / ".claude").mkdir(parents=True)
    message = ensure_git_ignored(project, SETTINGS)
    assert message == GitExclusion(Excluded.ADDED, SETTINGS, str(repo / ".git/info/exclude"))
    assert _is_ignored(project, SETTINGS)
    assert f"/packages/app/{SETTINGS}" in (repo / ".git/info/exclude").read_text()
    # Anchored: the same path elsewhere in the repository is not ignored.
    (repo / ".claude").mkdir(exist_ok=True)
    assert not _is_ignored(repo, SETTINGS)


def test_glob_characters_in_the_path_are_matched_literally(repo: Path) -> None:
    weird = "we[i]rd *dir?"
    project = repo / weird
    (project / ".claude").mkdir(parents=True)
    sibling = repo / "wei dir1"
    (sibling / ".claude").mkdir(parents=True)
    assert ensure_git_ignored(project, SETTINGS).outcome is Excluded.ADDED
    assert _is_ignored(project, SETTINGS)
    assert not _is_ignored(sibling, SETTINGS)


def test_linked_worktree_uses_the_shared_exclude_file(repo: Path, tmp_path: Path) -> None:
    _git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    worktree = tmp_path / "wt"
    _git(repo, "worktree", "add", "-q", str(worktree))
    (worktree / ".claude").mkdir()
    message = ensure_git_ignored(worktree, SETTINGS)
    assert message == GitExclusion(Excluded.ADDED, SETTINGS, str(repo / ".git/info/exclude"))
    assert _is_ignored(worktree, SETTINGS)
    assert (worktree / ".git").is_file()


def test_tracked_file_is_reported_not_excluded(repo: Path) -> None:
    (repo / SETTINGS).write_text("{}")
    _git(repo, "add", SETTINGS)
    assert ensure_git_ignored(repo, SETTINGS) == GitExclusion(Excluded.TRACKED, SETTINGS)


def test_negation_rule_is_reported(repo: Path) -> None:
    (repo / ".gitignore").write_text(f"!/{SETTINGS}\n")
    message = ensure_git_ignored(repo, SETTINGS)
    assert message == GitExclusion(Excluded.STILL_NOT_IGNORED, SETTINGS, ".git/info/exclude")


def test_missing_git_is_reported(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(repo / "no-bin-here"))
    assert ensure_git_ignored(repo, SETTINGS).outcome is Excluded.NO_GIT


NOT_UTF8 = "caf\udce9"  # the bytes b"caf\xe9" (Latin-1), as Python carries such a name


def test_a_work_tree_whose_path_is_not_utf8_gets_its_exclude_line(tmp_path: Path) -> None:
    root = tmp_path / NOT_UTF8 / "repo"
    (root / NOT_UTF8 / ".claude").mkdir(parents=True)
    _git(root, "init", "-q")
    project = root / NOT_UTF8

    said = ensure_git_ignored(project, SETTINGS)

    assert said.outcome is Excluded.ADDED and said.exclude_file.endswith("/.git/info/exclude")
    assert _is_ignored(project, SETTINGS)
    exclude = (root / ".git" / "info" / "exclude").read_bytes()
    assert exclude.endswith(b"\n/caf\xe9/.claude/settings.local.json\n")


def test_a_directory_whose_path_is_not_utf8_outside_git_is_no_work_tree(tmp_path: Path) -> None:
    project = tmp_path / NOT_UTF8
    (project / ".claude").mkdir(parents=True)

    assert ensure_git_ignored(project, SETTINGS).outcome is Excluded.NOT_A_WORK_TREE
