"""`hookman try-repo`: a trial outside hookman.toml that fire and doctor see, ended by
install or remove."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman import paths
from tests.hook_repos import commit, git, make_repo

from .helpers import GUARD, hookman, hookman_json, write_hook
from .test_repo_hooks import VERSION, decision, run_guard


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "agent-hooks")
    (root / "hookman-hooks.toml").write_text(
        (root / "hookman-hooks.toml").read_text()
        + '\n[[hooks]]\nname = "notes"\npath = "notes.py"\ndescription = "Takes notes."\n'
    )
    (root / "notes.py").write_text('def hook(pi):\n    pi.on("session_start", lambda e, c: None)\n')
    commit(root, "v1.1.0")
    return root


def test_a_trial_runs_without_touching_hookman_toml_and_install_ends_it(
    project: Path, repo: Path
) -> None:
    write_hook(project, "mine", GUARD)
    hookman_json("install", str(project / "hooks" / "mine.py"), "--project", str(project), *VERSION)
    toml = (project / ".claude" / "hookman.toml").read_bytes()
    result = hookman("try-repo", str(repo), "no-rm-rf", "--project", str(project), *VERSION)
    assert result.exit_code == 0, result.output
    assert "trying no-rm-rf" in result.stdout
    assert f"trial of {repo} at HEAD (" in result.stdout
    assert (project / ".claude" / "hookman.toml").read_bytes() == toml
    assert not (project / ".claude" / "hookman-pins.json").exists()
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert [(h["name"], h.get("trial", False)) for h in manifest["hooks"]] == [
        ("mine", False),
        ("no-rm-rf", True),
    ]
    assert decision(run_guard(project, "rm -rf x")) == ("deny", "no")  # mine runs first
    listing = hookman_json("list", "--project", str(project))
    assert [(h["name"], h["trial"]) for h in listing["hooks"]] == [
        ("mine", False),
        ("no-rm-rf", True),
    ]
    assert "(trial: not in hookman.toml)" in hookman("list", "--project", str(project)).stdout
    fired = hookman_json("fire", "PreToolUse", "--project", str(project))
    assert [hook["name"] for hook in fired["hooks"]] == ["mine", "no-rm-rf"]
    doctor = hookman_json("doctor", "--project", str(project), *VERSION)
    assert "hookman-stale" not in [finding["code"] for finding in doctor["findings"]]
    hookman_json("install", "--project", str(project), *VERSION)
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert [h["name"] for h in manifest["hooks"]] == ["mine"]


def test_remove_of_a_trial_hook_ends_the_trial(project: Path, repo: Path) -> None:
    hookman_json("try-repo", str(repo), "--rev", "v1.1.0", "--project", str(project), *VERSION)
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert [h["name"] for h in manifest["hooks"]] == ["no-rm-rf", "notes"]
    assert decision(run_guard(project))[0] == "deny"
    result = hookman("remove", "no-rm-rf", "--project", str(project), *VERSION)
    assert result.exit_code == 0, result.output
    assert json.loads(paths.manifest_path(project).read_text())["hooks"] == []
    assert decision(run_guard(project)) == (None, None)


def test_a_trial_hook_named_like_a_listed_one_is_refused(project: Path, repo: Path) -> None:
    hookman_json(
        "install",
        "no-rm-rf",
        "--repo",
        str(repo),
        "--rev",
        "v1.0.0",
        "--project",
        str(project),
        *VERSION,
    )
    before = paths.manifest_path(project).read_bytes()
    result = hookman("try-repo", str(repo), "no-rm-rf", "--project", str(project))
    assert result.exit_code == 1
    assert "hookman.toml already has a hook named 'no-rm-rf'" in result.output
    assert paths.manifest_path(project).read_bytes() == before


def test_a_hook_the_repository_does_not_offer(project: Path, repo: Path) -> None:
    result = hookman("try-repo", str(repo), "ghost", "--project", str(project))
    assert result.exit_code == 1
    assert "offers no hook named 'ghost' (it offers no-rm-rf, notes)." in result.output
    assert not paths.manifest_path(project).exists()


def test_a_repository_without_a_manifest(project: Path, tmp_path: Path) -> None:
    bare = tmp_path / "plain"
    bare.mkdir()
    git(bare, "init", "-q")
    (bare / "x.py").write_text("")
    commit(bare)
    result = hookman("try-repo", str(bare), "--project", str(project))
    assert result.exit_code == 1
    assert f"the repository {bare} at HEAD has no hookman-hooks.toml at its root" in result.output
