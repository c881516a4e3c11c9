from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman import paths

from .helpers import GUARD, NOTES, hookman, hookman_json, local_settings, write_hook

FLAGS = ("--claude-version", "2.1.328")


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


def test_removing_the_last_hook_leaves_no_hookman_entry(project: Path) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.write_text('{\n  "env": {"A": "1"}\n}\n')
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", *FLAGS)
    assert "hooks" in local_settings(project)
    result = hookman_json("remove", "guard", *FLAGS)
    assert result["written"] == {}
    assert result["hooks"] == []
    assert settings.read_text() == '{\n  "env": {"A": "1"}\n}\n'
    assert json.loads(paths.manifest_path(project).read_text())["hooks"] == []
    assert "guard" not in (project / ".claude" / "hookman.toml").read_text()


def test_removing_one_keeps_the_others_in_order(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notes", NOTES)
    write_hook(project, "third", GUARD)
    hookman_json("install", "hooks/guard.py", "hooks/notes.py", "hooks/third.py", *FLAGS)
    result = hookman_json("remove", "notes", *FLAGS)
    assert [hook["name"] for hook in result["hooks"]] == ["guard", "third"]
    assert "SessionStart" not in local_settings(project)["hooks"]


def test_an_unknown_name_is_refused_with_a_suggestion(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", *FLAGS)
    toml_before = (project / ".claude" / "hookman.toml").read_bytes()
    result = hookman("remove", "gaurd", *FLAGS)
    assert result.exit_code == 1
    assert "did you mean 'guard'?" in result.stderr
    assert (project / ".claude" / "hookman.toml").read_bytes() == toml_before


def test_dry_run_changes_nothing(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", *FLAGS)
    files = [project / ".claude" / "hookman.toml", project / ".claude" / "settings.local.json"]
    before = [path.read_bytes() for path in files]
    result = hookman_json("remove", "guard", "--dry-run", *FLAGS)
    assert result["dry_run"]
    assert '-name = "guard"' in result["config_diff"]
    assert "PreToolUse" in result["diff"]
    assert [path.read_bytes() for path in files] == before


def test_hooks_whose_modules_are_gone_block_nothing_and_are_named_with_their_fix(
    project: Path,
) -> None:
    for name in ("keep", "gone1", "gone2"):
        write_hook(project, name, GUARD)
        hookman_json("install", f"hooks/{name}.py", *FLAGS)
    (project / "hooks" / "gone1.py").unlink()
    (project / "hooks" / "gone2.py").unlink()

    partly = hookman("remove", "gone1", *FLAGS)

    assert partly.exit_code == 1  # done, but gone2 is still missing
    assert "gone1" not in (project / ".claude" / "hookman.toml").read_text()
    lines = partly.stdout.splitlines()
    assert (
        f"missing: the module of the hook 'gone2' ({project / 'hooks' / 'gone2.py'}) "
        "does not exist." in lines
    )
    assert "  fix: restore the file, or take the hook out with `hookman remove gone2`." in lines
    removed = hookman_json("remove", "gone2", *FLAGS)
    assert [hook["name"] for hook in removed["hooks"]] == ["keep"] and removed["missing"] == []


def test_removing_an_unknown_name_changes_nothing(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", *FLAGS)
    files = [project / ".claude" / "hookman.toml", project / ".claude" / "settings.local.json"]
    before = [(path.read_bytes(), path.stat().st_mtime_ns) for path in files]
    result = hookman("remove", "guard", "nope", *FLAGS)
    assert result.exit_code == 1
    assert "no hook named 'nope'" in result.stderr
    assert [(path.read_bytes(), path.stat().st_mtime_ns) for path in files] == before
