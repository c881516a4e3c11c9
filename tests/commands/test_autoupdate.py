"""`hookman autoupdate`: newest release tag, --freeze, --repo, comments kept, settings
rewritten, and the newer release's code is what runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hook_repos import git, make_repo, release

from .helpers import hookman, hookman_json
from .test_repo_hooks import VERSION, decision, install_repo, run_guard


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "agent-hooks")


def _toml(project: Path) -> str:
    return (project / ".claude" / "hookman.toml").read_text()


def test_autoupdate_moves_to_the_newest_release_and_runs_it(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    path = project / ".claude" / "hookman.toml"
    path.write_text(path.read_text().replace('rev = "v1.0.0"', 'rev = "v1.0.0"   # reviewed'))
    release(repo, "v1.1.0", reason="v1.1 says no")
    release(repo, "v1.10.0", reason="v1.10 says no")
    release(repo, "nightly", reason="nightly")
    result = hookman("autoupdate", "--project", str(project), *VERSION)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"{repo}: v1.0.0 -> v1.10.0"
    assert 'rev = "v1.10.0"   # reviewed\n' in _toml(project)
    assert decision(run_guard(project)) == ("deny", "v1.10 says no")
    pins = json.loads((project / ".claude" / "hookman-pins.json").read_text())["pins"]
    assert [(p["rev"], p["commit"]) for p in pins] == [
        ("v1.10.0", git(repo, "rev-parse", "v1.10.0"))
    ]
    again = hookman("autoupdate", "--project", str(project), *VERSION)
    assert again.stdout == f"{repo}: already up to date (v1.10.0)\n"


def test_freeze_writes_the_sha_with_the_frozen_comment_and_back(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    sha = release(repo, "v2.0.0", reason="two", annotated=True)
    frozen = hookman_json("autoupdate", "--freeze", "--project", str(project), *VERSION)
    assert frozen["updates"] == [
        {
            "repo": str(repo),
            "old": "v1.0.0",
            "new": f"{sha} (frozen: v2.0.0)",
            "commit": sha,
            "changed": True,
        }
    ]
    assert f'rev = "{sha}"  # frozen: v2.0.0\n' in _toml(project)
    assert decision(run_guard(project)) == ("deny", "two")
    thawed = hookman("autoupdate", "--project", str(project), *VERSION)
    assert thawed.stdout.splitlines()[0] == f"{repo}: {sha} (frozen: v2.0.0) -> v2.0.0"
    assert 'rev = "v2.0.0"\n' in _toml(project)


def test_only_the_named_repository_moves(project: Path, tmp_path: Path) -> None:
    first = make_repo(tmp_path / "one")
    second = make_repo(tmp_path / "two")
    install_repo(project, str(first))
    hookman_json(
        "install",
        "no-rm-rf",
        "--repo",
        str(second),
        "--rev",
        "v1.0.0",
        "--name",
        "other",
        "--project",
        str(project),
        *VERSION,
    )
    release(first, "v1.1.0", reason="x")
    release(second, "v1.1.0", reason="y")
    result = hookman("autoupdate", "--repo", str(second), "--project", str(project), *VERSION)
    assert result.stdout.splitlines()[0] == f"{second}: v1.0.0 -> v1.1.0"
    assert _toml(project).count('rev = "v1.0.0"') == 1


def test_a_moved_tag_is_shown_and_taken(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    old = git(repo, "rev-parse", "v1.0.0")
    new = release(repo, "v1.0.0-next", reason="moved")
    git(repo, "tag", "-f", "v1.0.0")
    git(repo, "tag", "-d", "v1.0.0-next")
    result = hookman("autoupdate", "--project", str(project), *VERSION)
    assert result.stdout.splitlines()[0] == (
        f"{repo}: v1.0.0 ({old[:12]}, the tag moved since) -> v1.0.0 ({new[:12]})"
    )
    assert decision(run_guard(project)) == ("deny", "moved")


def test_a_release_that_drops_the_hook_changes_nothing(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    before = {p.name: p.read_bytes() for p in (project / ".claude").iterdir()}
    (repo / "hookman-hooks.toml").write_text(
        (repo / "hookman-hooks.toml").read_text().replace('"no-rm-rf"', '"renamed"')
    )
    git(repo, "commit", "-qam", "rename")
    git(repo, "tag", "v3.0.0")
    result = hookman("autoupdate", "--project", str(project), *VERSION)
    assert result.exit_code == 1
    assert "offers no hook named 'no-rm-rf' (it offers renamed)" in result.output
    assert {p.name: p.read_bytes() for p in (project / ".claude").iterdir()} == before


def test_no_release_tag_is_one_sentence(project: Path, repo: Path) -> None:
    install_repo(project, str(repo), git(repo, "rev-parse", "HEAD"))
    git(repo, "tag", "-d", "v1.0.0")
    result = hookman("autoupdate", "--project", str(project))
    assert result.exit_code == 1
    assert "has no release tag (such as v1.2.0)" in result.output


def test_an_unknown_repo_flag_and_no_repo_hooks(project: Path, repo: Path) -> None:
    assert hookman("autoupdate", "--project", str(project)).stdout == (
        "no hook in .claude/hookman.toml comes from a hook repository.\n"
    )
    install_repo(project, str(repo))
    result = hookman("autoupdate", "--repo", "elsewhere", "--project", str(project))
    assert result.exit_code == 2
    assert "hookman.toml has no hook from the repository 'elsewhere'" in result.output
