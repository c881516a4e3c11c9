"""`hookman new NAME --repo DIR`: a hook repository that installs and whose test passes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hookman.hooks.repository import read_repository_manifest
from tests.hook_repos import commit

from .helpers import hookman
from .test_repo_hooks import VERSION, decision, run_guard


def test_the_scaffold_is_a_repository_that_installs_and_whose_test_passes(
    tmp_path: Path, project: Path
) -> None:
    root = tmp_path / "agent hooks"
    result = hookman("new", "no-rm-rf", "--repo", str(root))
    assert result.exit_code == 0, result.output
    assert f"created the hook repository {root}" in result.stdout
    manifest = read_repository_manifest(root, "scaffold")
    assert manifest.names() == ["no-rm-rf"]
    assert manifest.hooks[0].path == "hooks/no_rm_rf.py"
    assert (root / ".git").is_dir()
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(root)],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    commit(root, "v0.1.0")
    installed = hookman(
        "install",
        "no-rm-rf",
        "--repo",
        str(root),
        "--rev",
        "v0.1.0",
        "--project",
        str(project),
        *VERSION,
    )
    assert installed.exit_code == 0, installed.output
    assert decision(run_guard(project))[0] == "deny"


def test_nothing_is_overwritten(tmp_path: Path) -> None:
    root = tmp_path / "hooks-repo"
    root.mkdir()
    (root / "hookman-hooks.toml").write_text("mine\n")
    result = hookman("new", "guard", "--repo", str(root))
    assert result.exit_code == 1
    assert "hookman-hooks.toml already exists; hookman never overwrites it" in result.output
    assert (root / "hookman-hooks.toml").read_text() == "mine\n"
    assert sorted(p.name for p in root.iterdir()) == ["hookman-hooks.toml"]
