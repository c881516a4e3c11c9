"""doctor's findings about hooks from hook repositories (no network)."""

from __future__ import annotations

import json
import os
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
    assert finding["severity"] == "error"
    assert "changed since it was fetched (guards/words.py)" in finding["message"]
    # list says the same, and exits 1: the runner refuses the hook (the walk found list silent)
    listed = hookman("list", "--project", str(project), *VERSION)
    said = " ".join(listed.output.split())
    assert listed.exit_code == 1 and "does not load: the store copy of" in said, said
    assert "(guards/words.py): the hook" in said and "run `hookman install`" in said


def test_a_file_only_added_to_the_store_copy_is_a_warning_that_nothing_fails(
    project: Path, repo: Path
) -> None:
    """An `__init__.py` planted beside the fetched modules never runs (the runner imports only
    what the pinned commit recorded) and the hooks load: a warning, not a predicted deny."""
    install_repo(project, str(repo))
    (_tree(project, repo) / "guards" / "__init__.py").write_text("raise SystemExit('planted')\n")
    finding = codes(project)["hookman-repo-store-changed"]
    assert finding["severity"] == "warning", finding
    assert "files were added to the store copy" in finding["message"]
    assert "(guards/__init__.py)" in finding["message"]
    assert "the runner never runs a file the pinned commit lacks" in finding["message"]
    assert hookman("list", "--project", str(project), *VERSION).exit_code == 0


def test_a_named_pipe_planted_in_the_store_copy_does_not_stall_doctor(
    project: Path, repo: Path
) -> None:
    install_repo(project, str(repo))
    words = _tree(project, repo) / "guards" / "words.py"
    words.unlink()
    os.mkfifo(words)  # read in blocking mode, this would wait for a writer forever
    assert store.changed_files(str(repo), _pin_commit(project)) == ["guards/words.py"]
    assert codes(project)["hookman-repo-store-changed"]["severity"] == "error"


def _pin_commit(project: Path) -> str:
    return json.loads((project / ".claude" / "hookman-pins.json").read_text())["pins"][0]["commit"]


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
