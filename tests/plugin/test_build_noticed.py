"""`hookman plugin build`: what tools/mutants.py found no test noticing (plugin/build.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.commands.helpers import hookman

from .conftest import VERSION


def build(project: Path, out: Path, *args: str):  # type: ignore[no-untyped-def]
    return hookman("plugin", "build", str(out), "--project", str(project), *VERSION, *args)


def test_an_out_dir_that_is_a_symlink_is_refused(built_project: Path, tmp_path: Path) -> None:
    target = tmp_path / "real"
    target.mkdir()
    link = tmp_path / "plug"
    link.symlink_to(target)
    done = build(built_project, link)
    assert done.exit_code == 1 and "it is not a directory" in " ".join(done.output.split())
    assert list(target.iterdir()) == [] and link.is_symlink()


def test_a_disabled_hook_is_left_out_unless_named(built_project: Path, tmp_path: Path) -> None:
    assert hookman("disable", "notes", "--project", str(built_project)).exit_code == 0
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    manifest = json.loads((out / "hookman-runner" / "manifest.json").read_text())
    assert [hook["name"] for hook in manifest["hooks"]] == ["guard"]
    assert not (out / "hookman-runner" / "hooks" / "notes.py").exists()
    named = tmp_path / "named"
    assert build(built_project, named, "--hooks", "notes").exit_code == 0
    manifest = json.loads((named / "hookman-runner" / "manifest.json").read_text())
    assert [hook["name"] for hook in manifest["hooks"]] == ["notes"]
