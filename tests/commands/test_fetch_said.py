"""`install` and `autoupdate` say when they fetched a new commit into the store and when they
rewrote the committed .claude/hookman-pins.json (and say nothing when they did neither)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookman.json_shapes import InstallJson
from tests.hook_repos import git, make_repo, release
from tests.shape_check import assert_shape

from .helpers import hookman, hookman_json
from .test_repo_hooks import VERSION


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "agent-hooks")


def test_install_and_autoupdate_say_what_they_fetched_and_pinned(project: Path, repo: Path) -> None:
    v1 = git(repo, "rev-parse", "v1.0.0")
    args = ("--project", str(project), *VERSION)
    first = hookman("install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.0", *args)
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert f"fetched {repo} at v1.0.0 ({v1[:12]}) into the store" in lines
    assert "rewrote .claude/hookman-pins.json (commit it, so teammates run the same code):" in lines
    assert f"  {repo} v1.0.0: pinned to {v1[:12]}" in lines

    again = hookman("install", *args)
    assert "fetched" not in again.stdout and "hookman-pins.json" not in again.stdout

    v2 = release(repo, "v2.0.0", reason="two")
    moved = hookman("autoupdate", *args)
    assert moved.exit_code == 0, moved.output
    lines = moved.stdout.splitlines()
    assert f"fetched {repo} at v2.0.0 ({v2[:12]}) into the store" in lines
    assert f"  {repo} v1.0.0: pin dropped (was {v1[:12]}; no hook uses it now)" in lines
    assert f"  {repo} v2.0.0: pinned to {v2[:12]}" in lines


def test_json_carries_them_only_when_something_moved(project: Path, repo: Path) -> None:
    v1 = git(repo, "rev-parse", "v1.0.0")
    args = ("--project", str(project), *VERSION)
    shown = hookman_json("install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.0", *args)
    assert_shape(shown, InstallJson)
    assert shown["fetched"] == [{"repo": str(repo), "rev": "v1.0.0", "commit": v1}]
    assert shown["pins_changed"] == [{"repo": str(repo), "rev": "v1.0.0", "old": None, "new": v1}]
    again = hookman_json("install", *args)
    assert "fetched" not in again and "pins_changed" not in again
