"""doctor's findings about hooks from hook repositories (no network)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hookman.hooks import store
from tests.commands.helpers import hookman
from tests.commands.test_repo_hooks import VERSION, install_repo
from tests.hook_repos import make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "agent-hooks")


def codes(project: Path) -> dict[str, dict]:
    result = hookman("doctor", "--project", str(project), "--json", *VERSION)
    return {f["code"]: f for f in json.loads(result.stdout)["findings"]}


def _tree(project: Path, repo: Path) -> Path:
    pin = json.loads((project / ".claude" / "hookman-pins.json").read_text())["pins"][0]
    return store.tree_dir(str(repo), pin["commit"])


def test_a_healthy_repository_hook_has_no_repo_finding(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    assert not [code for code in codes(project) if code.startswith("hookman-repo-")]


def test_a_missing_store_entry(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    shutil.rmtree(store.store_root())
    finding = codes(project)["hookman-repo-not-fetched"]
    assert finding["severity"] == "error"
    assert "is not in this machine's hookman store" in finding["message"]
    assert finding["fix"] == "run `hookman install` in the project."
    assert "hookman-template-missing" not in codes(project)


def test_a_rev_not_pinned_yet(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    (project / ".claude" / "hookman-pins.json").unlink()
    assert "does not pin yet" in codes(project)["hookman-repo-not-fetched"]["message"]


def test_a_branch_rev(project: Path, repo: Path) -> None:
    install_repo(project, str(repo), "main")
    finding = codes(project)["hookman-repo-rev-is-branch"]
    assert finding["severity"] == "warning"
    assert "the rev 'main' of" in finding["message"]


def test_a_changed_store_copy(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    (_tree(project, repo) / "guards" / "words.py").write_text("REFUSED = 'never'\n")
    finding = codes(project)["hookman-repo-store-changed"]
    assert "changed since it was fetched (guards/words.py)" in finding["message"]


def test_a_manifest_gone_from_the_store(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    (_tree(project, repo) / "hookman-hooks.toml").unlink()
    found = codes(project)
    assert "has no hookman-hooks.toml at its root" in found["hookman-repo-no-manifest"]["message"]


def test_a_hook_not_listed_and_min_hookman(project: Path, repo: Path) -> None:
    install_repo(project, str(repo))
    manifest = _tree(project, repo) / "hookman-hooks.toml"
    manifest.write_text(manifest.read_text() + 'min_hookman = "99.0"\n')
    assert "needs hookman >= 99.0" in codes(project)["hookman-repo-needs-newer-hookman"]["message"]
    manifest.write_text(manifest.read_text().replace('"no-rm-rf"', '"other"'))
    message = codes(project)["hookman-repo-hook-not-listed"]["message"]
    assert "offers no hook named 'no-rm-rf' (it offers other)" in message
