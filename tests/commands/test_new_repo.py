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
    assert "cannot add a hook to" in result.output and "nothing was written" in result.output
    assert "is not valid TOML" in result.output
    assert (root / "hookman-hooks.toml").read_text() == "mine\n"
    assert sorted(p.name for p in root.iterdir()) == ["hookman-hooks.toml"]


def test_a_second_hook_is_added_to_an_existing_repository(tmp_path: Path, project: Path) -> None:
    root = tmp_path / "hooks-repo"
    assert hookman("new", "first", "--repo", str(root)).exit_code == 0
    manifest_file = root / "hookman-hooks.toml"
    edited = manifest_file.read_text() + "# kept: the author's note\n"
    manifest_file.write_text(edited)
    commit(root, "v0.1.0")
    result = hookman("new", "second-guard", "--repo", str(root))
    assert result.exit_code == 0, result.output
    assert f"added the hook second-guard to the hook repository {root}" in result.stdout
    assert "git tag v0.1.1" in result.stdout  # the next release, a command that works
    assert manifest_file.read_text().startswith(edited)  # the author's text kept
    manifest = read_repository_manifest(root, "scaffold")
    assert manifest.names() == ["first", "second-guard"]
    assert (root / "hooks" / "second_guard.py").is_file()
    assert (root / "hooks" / "test_second_guard.py").is_file()
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", str(root)],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    ).stdout
    assert "__pycache__" not in status and "hooks/second_guard.py" in status
    commit(root, "v0.1.1")
    installed = hookman(
        "install",
        "second-guard",
        "--repo",
        str(root),
        "--rev",
        "v0.1.1",
        "--project",
        str(project),
        *VERSION,
    )
    assert installed.exit_code == 0, installed.output
    assert decision(run_guard(project))[0] == "deny"


def test_only_a_real_clash_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    root = tmp_path / "hooks-repo"
    assert hookman("new", "first", "--repo", str(root)).exit_code == 0
    before = {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}
    same_name = hookman("new", "first", "--repo", str(root))
    assert same_name.exit_code == 1
    assert "already offers a hook named 'first'; nothing was written." in same_name.output
    assert f"hookman new OTHER_NAME --repo {root}" in same_name.output
    (root / "hooks" / "taken.py").write_text("mine\n")
    module_there = hookman("new", "taken", "--repo", str(root))
    assert module_there.exit_code == 1
    assert "taken.py already exists; hookman never overwrites it" in module_there.output
    (root / "hooks" / "taken.py").unlink()
    after = {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}
    assert after == before
    ok = hookman("new", "OTHER_NAME", "--repo", str(root))  # the hint's command works
    assert ok.exit_code == 0, ok.output
