"""Hooks from hook repositories: install --repo, pins, the teammate's clone, moved tags, a
missing store entry at run time, sibling imports, and bad input that writes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookman import paths
from hookman.bridge.protocol import GUARDED_DONE_STATUS
from hookman.hooks import store
from tests.client_shell import as_client
from tests.hook_repos import git, make_repo, release

from .helpers import hookman, hookman_json

VERSION = ("--claude-version", "2.1.332")
RM_RF = {
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /"},
    "session_id": "s",
    "cwd": "/tmp",
    "transcript_path": "/tmp/t.jsonl",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "agent-hooks")


def run_guard(project: Path, command: str = "rm -rf /") -> dict:
    """What the installed launcher answers Claude Code for a Bash call (the real runner)."""
    launcher = paths.manifest_path(project).parent / "hookman-run.sh"
    payload = {**RM_RF, "tool_input": {"command": command}}
    done = subprocess.run(
        as_client("sh", str(launcher), "PreToolUse"),
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == GUARDED_DONE_STATUS, done.stderr
    return json.loads(done.stdout or "{}")


def decision(answer: dict) -> tuple[str | None, str | None]:
    specific = answer.get("hookSpecificOutput") or {}
    return specific.get("permissionDecision"), specific.get("permissionDecisionReason")


def install_repo(project: Path, repo: str, rev: str = "v1.0.0", *names: str) -> dict:
    return hookman_json(
        "install",
        *(names or ("no-rm-rf",)),
        "--repo",
        repo,
        "--rev",
        rev,
        "--project",
        str(project),
        *VERSION,
    )


def test_install_from_a_repository_pins_the_commit_and_the_guard_denies(
    project: Path, repo: Path
) -> None:
    result = install_repo(project, f"file://{repo}")
    assert result["installed"] == ["no-rm-rf"]
    assert result["hooks"][0]["source"] == {
        "kind": "repo",
        "value": f"file://{repo}",
        "rev": "v1.0.0",
        "hook": "no-rm-rf",
    }
    toml = (project / ".claude" / "hookman.toml").read_text()
    assert f'repo = "file://{repo}"\nrev = "v1.0.0"\n' in toml
    pins = json.loads((project / ".claude" / "hookman-pins.json").read_text())
    sha = git(repo, "rev-parse", "v1.0.0")
    assert pins == {
        "format": 1,
        "pins": [{"repo": f"file://{repo}", "rev": "v1.0.0", "commit": sha, "ref": "tag"}],
    }
    manifest = json.loads(paths.manifest_path(project).read_text())
    [record] = manifest["hooks"]
    tree = store.tree_dir(f"file://{repo}", sha)
    assert record["path"] == str(tree / "guards" / "no_rm_rf.py")
    assert record["package_root"] == str(tree)
    assert (record["repo"], record["rev"], record["commit"]) == (f"file://{repo}", "v1.0.0", sha)
    assert decision(run_guard(project)) == ("deny", "repo says no")
    assert decision(run_guard(project, "ls")) == (None, None)


def test_a_second_install_from_a_warm_store_writes_nothing(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    before = {p: p.read_bytes() for p in (project / ".claude").iterdir() if p.is_file()}
    shutil.rmtree(repo)  # a warm store and a pin: git is never asked
    again = hookman_json("install", "--project", str(project), *VERSION)
    assert again["settings_changed"] is False and again["missing"] == []
    assert {p: p.read_bytes() for p in (project / ".claude").iterdir() if p.is_file()} == before


def test_a_teammates_clone_with_its_own_home_gets_the_same_code_and_answers(
    project: Path, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_repo(project, f"file://{repo}")
    mine = run_guard(project)
    release(repo, "v1.0.0-moved", reason="other")
    git(repo, "tag", "-f", "v1.0.0")  # the tag moved on the server after we pinned it
    teammate = tmp_path / "teammate"
    (teammate / ".claude").mkdir(parents=True)
    for name in ("hookman.toml", "hookman-pins.json"):
        shutil.copy(project / ".claude" / name, teammate / ".claude" / name)
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "teammate-home"))
    result = hookman("install", "--project", str(teammate), *VERSION)
    assert result.exit_code == 0, result.output
    assert "the tag 'v1.0.0' of file://" in result.stdout
    assert "hookman runs the pinned commit" in result.stdout
    assert run_guard(teammate) == mine
    sha = json.loads((teammate / ".claude" / "hookman-pins.json").read_text())["pins"][0]["commit"]
    assert sha != git(repo, "rev-parse", "v1.0.0")
    theirs = store.tree_dir(f"file://{repo}", sha)
    assert (theirs / "guards" / "no_rm_rf.py").read_text().count("repo says no") == 1


def test_a_missing_store_entry_denies_naming_hookman_install(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    shutil.rmtree(store.store_root())
    verdict, reason = decision(run_guard(project, "ls"))
    assert verdict == "deny"
    assert f"its repository {repo} at v1.0.0 is not in this machine's hookman store; " in reason
    assert "run `hookman install` to fetch it" in reason
    assert hookman("install", "--project", str(project), *VERSION).exit_code == 0
    assert decision(run_guard(project, "ls")) == (None, None)


def test_a_module_gone_from_the_store_denies(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    record = json.loads(paths.manifest_path(project).read_text())["hooks"][0]
    Path(record["path"]).unlink()
    assert decision(run_guard(project, "ls"))[0] == "deny"


def test_siblings_of_two_repositories_never_meet(project: Path, tmp_path: Path) -> None:
    first = make_repo(tmp_path / "one", reason="one says no", refused="rm -rf")
    second = make_repo(tmp_path / "two", reason="two says no", refused="git push -f")
    install_repo(project, str(first))
    hookman_json(
        "install",
        "no-rm-rf",
        "--repo",
        str(second),
        "--rev",
        "v1.0.0",
        "--name",
        "no-push",
        "--project",
        str(project),
        *VERSION,
    )
    assert 'hook = "no-rm-rf"' in (project / ".claude" / "hookman.toml").read_text()
    assert decision(run_guard(project, "rm -rf /")) == ("deny", "one says no")
    assert decision(run_guard(project, "git push -f")) == ("deny", "two says no")


@pytest.mark.parametrize(
    ("rev", "hook", "message"),
    [
        ("v9.9.9", "no-rm-rf", "has no tag or branch named 'v9.9.9'"),
        ("v1.0.0", "nope", "offers no hook named 'nope' (it offers no-rm-rf)."),
    ],
)
def test_bad_rev_or_hook_name_writes_nothing(
    project: Path, repo: Path, rev: str, hook: str, message: str
) -> None:
    result = hookman(
        "install", hook, "--repo", str(repo), "--rev", rev, "--project", str(project), *VERSION
    )
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in (project / ".claude").iterdir()) == []


@pytest.mark.parametrize("kind", ["missing", "not git"])
def test_an_unreachable_url_writes_nothing(project: Path, tmp_path: Path, kind: str) -> None:
    target = tmp_path / "nowhere"
    if kind == "not git":
        target.mkdir()
    result = hookman(
        "install", "x", "--repo", f"file://{target}", "--rev", "v1", "--project", str(project)
    )
    assert result.exit_code == 1
    assert f"hookman cannot read the git repository file://{target}: " in result.output
    assert list((project / ".claude").iterdir()) == []


def test_a_manifest_that_does_not_parse_writes_nothing(project: Path, repo: Path) -> None:
    (repo / "hookman-hooks.toml").write_text("[[hooks]\n")
    git(repo, "commit", "-qam", "broken")
    git(repo, "tag", "v1.0.1")
    result = hookman(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.1", "--project", str(project)
    )
    assert result.exit_code == 1
    assert f"hookman-hooks.toml of {repo} at v1.0.1 is not valid TOML." in result.output
    assert list((project / ".claude").iterdir()) == []


def test_repo_and_rev_go_together(project: Path, repo: Path) -> None:
    result = hookman("install", "no-rm-rf", "--repo", str(repo), "--project", str(project))
    assert result.exit_code == 2
    assert "--repo and --rev go together" in result.output


def test_a_hand_written_repo_entry_is_pinned_and_fetched_by_install(
    project: Path, repo: Path
) -> None:
    (project / ".claude" / "hookman.toml").write_text(
        '# ours\n[[hooks]]\nname = "no-rm-rf"\n'
        f'repo = "{repo}"  # shared\nrev = "v1.0.0"\nevents = ["tool_call"]\n'
    )
    result = hookman("install", "--project", str(project), *VERSION)
    assert result.exit_code == 0, result.output
    assert decision(run_guard(project)) == ("deny", "repo says no")
    assert (project / ".claude" / "hookman.toml").read_text().startswith("# ours\n")


def test_a_repo_key_without_rev_is_refused_and_the_file_untouched(project: Path) -> None:
    text = '[[hooks]]\nname = "x"\nrepo = "https://example.org/h.git"\n'
    (project / ".claude" / "hookman.toml").write_text(text)
    result = hookman("install", "--project", str(project))
    assert result.exit_code == 1
    assert "a `repo` hook needs `rev`" in result.output
    assert (project / ".claude" / "hookman.toml").read_text() == text


def test_registry_entries_can_point_at_a_repository(project: Path, repo: Path) -> None:
    added = hookman(
        "registry",
        "add",
        str(repo),
        "--rev",
        "v1.0.0",
        "--hook",
        "no-rm-rf",
        "--name",
        "team-guard",
    )
    assert added.exit_code == 0, added.output
    assert f"registered team-guard: no-rm-rf from {repo} at v1.0.0" in added.stdout
    listing = hookman_json("registry", "list")
    assert listing["repositories"] == [
        {"name": "team-guard", "repo": str(repo), "rev": "v1.0.0", "hook": "no-rm-rf"}
    ]
    hookman_json("install", "team-guard", "--project", str(project), *VERSION)
    toml = (project / ".claude" / "hookman.toml").read_text()
    assert f'name = "team-guard"\nrepo = "{repo}"\nrev = "v1.0.0"\nhook = "no-rm-rf"' in toml
    assert decision(run_guard(project)) == ("deny", "repo says no")


def test_registry_add_refuses_a_hook_the_repository_does_not_offer(repo: Path) -> None:
    result = hookman("registry", "add", str(repo), "--rev", "v1.0.0", "--hook", "other")
    assert result.exit_code == 1
    assert "offers no hook named 'other'" in result.output
    assert not Path(os.environ["HOOKMAN_HOME"], "config", "registry.toml").exists()


def test_list_shows_the_repository_rev_and_pinned_commit(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    sha = git(repo, "rev-parse", "v1.0.0")
    listing = hookman_json("list", "--project", str(project))
    assert listing["hooks"][0]["source"] == {
        "kind": "repo",
        "value": str(repo),
        "rev": "v1.0.0",
        "hook": "no-rm-rf",
        "commit": sha,
    }
    text = hookman("list", "--project", str(project)).stdout
    assert f"[repo {repo} at v1.0.0 ({sha[:12]})]" in text


def test_min_hookman_newer_than_this_hookman_is_refused(project: Path, repo: Path) -> None:
    manifest = (repo / "hookman-hooks.toml").read_text() + 'min_hookman = "99.0"\n'
    (repo / "hookman-hooks.toml").write_text(manifest)
    git(repo, "commit", "-qam", "needs new")
    git(repo, "tag", "v2.0.0")
    result = hookman(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", "v2.0.0", "--project", str(project)
    )
    assert result.exit_code == 1
    assert "needs hookman >= 99.0" in result.output


def test_remove_drops_the_pin_and_disable_keeps_it(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    pins = project / ".claude" / "hookman-pins.json"
    assert hookman("disable", "no-rm-rf", "--project", str(project)).exit_code == 0
    assert pins.is_file()
    assert hookman("remove", "no-rm-rf", "--project", str(project)).exit_code == 0
    assert not pins.exists()
