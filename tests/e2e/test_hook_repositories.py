"""A guard from a hook repository, in the real client: it denies rm -rf, `autoupdate` makes
the newer release's code what runs, and a teammate's clone with its own HOME (and so its
own store) ends with the same answers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hook_repos import make_repo, release

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e


def _denied_and_harmless(project: E2EProject) -> tuple[dict, dict, Path]:
    victim = project.root / "victim"
    victim.mkdir(exist_ok=True)
    run = project.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )
    assert run.returncode == 0, run.describe()
    denied, harmless = run.tool_results()
    return denied, harmless, victim


def test_a_repository_guard_denies_autoupdate_runs_the_new_release_and_a_teammate_agrees(
    e2e: E2EProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(e2e.scratch / "agent hooks", reason="REPO-E2E v1.0.0: no rm -rf")
    url = f"file://{repo}"
    e2e.hookman("install", "no-rm-rf", "--repo", url, "--rev", "v1.0.0")

    denied, harmless, victim = _denied_and_harmless(e2e)
    assert denied["is_error"] is True
    assert "REPO-E2E v1.0.0: no rm -rf" in denied["content"]
    assert victim.is_dir()
    assert harmless["content"] == "harmless-42"

    release(repo, "v1.1.0", reason="REPO-E2E v1.1.0: still no rm -rf")
    updated = e2e.hookman("autoupdate")
    assert updated.stdout.splitlines()[0] == f"{url}: v1.0.0 -> v1.1.0"

    denied, harmless, victim = _denied_and_harmless(e2e)
    assert "REPO-E2E v1.1.0: still no rm -rf" in denied["content"], denied
    assert "v1.0.0" not in denied["content"]
    assert victim.is_dir() and harmless["content"] == "harmless-42"
    mine = denied["content"]

    # A teammate clones the project: hookman.toml and the pins, nothing else; own HOME.
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "teammate-hookman-home"))
    teammate = E2EProject(e2e.client, e2e.mock, e2e.isolation, tmp_path / "teammate")
    for name in ("hookman.toml", "hookman-pins.json"):
        shutil.copy(e2e.root / ".claude" / name, teammate.root / ".claude" / name)
    teammate.hookman("install")
    denied, harmless, victim = _denied_and_harmless(teammate)
    assert denied["content"] == mine.replace(str(e2e.root), str(teammate.root))
    assert victim.is_dir() and harmless["content"] == "harmless-42"


def test_a_guard_whose_store_copy_is_gone_denies_and_names_hookman_install(
    e2e: E2EProject,
) -> None:
    repo = make_repo(e2e.scratch / "agent-hooks", reason="REPO-E2E: no")
    e2e.hookman("install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.0")
    hookman_home = Path(e2e.env()["HOOKMAN_HOME"])
    shutil.rmtree(hookman_home / "cache" / "repos")
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert (
        f"its repository {repo} at v1.0.0 is not in this machine's hookman store"
        in (denied["content"])
    )
    assert "run `hookman install` to fetch it" in denied["content"]
    assert not witness.exists()


def test_a_guard_whose_store_copy_was_edited_denies_and_install_repairs_it(
    e2e: E2EProject,
) -> None:
    """Issue 23, class 7: a store copy edited to let everything through is not what runs;
    the client sees a deny naming `hookman install`, and after it the fetched guard again."""
    repo = make_repo(e2e.scratch / "agent-hooks", reason="REPO-E2E: no")
    e2e.hookman("install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.0")
    [tree] = (Path(e2e.env()["HOOKMAN_HOME"]) / "cache" / "repos").glob("*/*/tree")
    (tree / "guards" / "words.py").write_text("REFUSED = 'nothing anyone types'\n")

    denied, harmless, victim = _denied_and_harmless(e2e)
    assert denied["is_error"] is True
    assert "guards/words.py changed in the hookman store" in denied["content"], denied
    assert "run `hookman install`" in denied["content"]
    assert victim.is_dir()

    e2e.hookman("install")
    denied, harmless, victim = _denied_and_harmless(e2e)
    assert "REPO-E2E: no" in denied["content"], denied
    assert victim.is_dir() and harmless["content"] == "harmless-42"
