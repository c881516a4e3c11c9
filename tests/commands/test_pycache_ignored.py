"""Committing .claude/hooks/ never commits Python's bytecode: `new` and `install` write
.claude/hooks/.gitignore (`__pycache__/`) once, when git does not ignore it already."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import GUARD, hookman

VERSION = ("--claude-version", "2.1.328")


def untracked(project: Path) -> list[str]:
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line[3:] for line in done.stdout.splitlines()]


@pytest.fixture
def repo(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return project


def test_new_then_the_hook_test_leaves_no_bytecode_for_git(repo: Path) -> None:
    result = hookman("new", "guard", "--template", "bash_guard")
    assert result.exit_code == 0, result.output
    assert "wrote .claude/hooks/.gitignore (`__pycache__/`)" in result.output
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", ".claude/hooks"],
        cwd=repo,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert (repo / ".claude" / "hooks" / "__pycache__").is_dir()
    assert not [path for path in untracked(repo) if "__pycache__" in path]
    assert ".claude/hooks/.gitignore" in untracked(repo)


def test_install_writes_it_once_and_leaves_the_teams_file(repo: Path) -> None:
    hooks = repo / ".claude" / "hooks"
    hooks.mkdir()
    (hooks / "guard.py").write_text(GUARD)
    result = hookman("install", ".claude/hooks/guard.py", *VERSION)
    assert result.exit_code == 0, result.output
    assert "git: wrote .claude/hooks/.gitignore" in result.output
    (hooks / ".gitignore").write_text("__pycache__/\n*.log\n")  # the team's now
    again = hookman("install")
    assert ".gitignore" not in again.output
    assert (hooks / ".gitignore").read_text() == "__pycache__/\n*.log\n"


def test_nothing_is_written_when_git_ignores_bytecode_already(repo: Path) -> None:
    (repo / ".gitignore").write_text("__pycache__/\n")
    hooks = repo / ".claude" / "hooks"
    hooks.mkdir()
    (hooks / "guard.py").write_text(GUARD)
    result = hookman("install", ".claude/hooks/guard.py", *VERSION)
    assert result.exit_code == 0, result.output
    assert not (hooks / ".gitignore").exists()
