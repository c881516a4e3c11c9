from __future__ import annotations

import json
from pathlib import Path

from hookman import paths

from .helpers import GUARD, hookman, write_hook


def _listed() -> dict:
    result = hookman("registry", "list", "--json")
    assert result.exit_code == 0
    return json.loads(result.stdout)


def test_add_list_remove(tmp_path: Path) -> None:
    guard = write_hook(tmp_path, "guard", GUARD)
    added = hookman("registry", "add", str(guard))
    assert added.exit_code == 0
    assert "registered guard" in added.stdout
    assert _listed() == {
        "registry": str(paths.registry_path()),
        "hooks": [{"name": "guard", "path": str(guard.resolve()), "exists": True, "shadows": []}],
    }
    assert "guard" in hookman("registry", "list").stdout
    assert hookman("registry", "remove", "guard").exit_code == 0
    assert _listed()["hooks"] == []


def test_add_with_a_name_and_relative_path_stores_an_absolute_path(
    tmp_path: Path, monkeypatch
) -> None:
    write_hook(tmp_path, "guard", GUARD)
    monkeypatch.chdir(tmp_path)
    assert hookman("registry", "add", "hooks/guard.py", "--name", "team-guard").exit_code == 0
    [entry] = _listed()["hooks"]
    assert entry["name"] == "team-guard"
    assert Path(entry["path"]).is_absolute()


def test_add_refuses_what_is_not_a_python_file(tmp_path: Path) -> None:
    result = hookman("registry", "add", str(tmp_path / "missing.py"))
    assert result.exit_code == 1
    assert "not a .py file" in result.stderr
    assert not paths.registry_path().exists()


def test_remove_unknown_suggests_a_name(tmp_path: Path) -> None:
    hookman("registry", "add", str(write_hook(tmp_path, "guard", GUARD)))
    result = hookman("registry", "remove", "gard")
    assert result.exit_code == 1
    assert "did you mean 'guard'?" in result.stderr


def test_a_missing_module_is_flagged_in_the_list(tmp_path: Path) -> None:
    guard = write_hook(tmp_path, "guard", GUARD)
    hookman("registry", "add", str(guard))
    guard.unlink()
    assert _listed()["hooks"][0]["exists"] is False
    assert "missing file" in hookman("registry", "list").stdout


def test_removing_a_broken_entry_names_no_bogus_path() -> None:
    registry = paths.registry_path()
    registry.parent.mkdir(parents=True)
    registry.write_text("[hooks]\nodd = 1\n")
    result = hookman("registry", "remove", "odd")
    assert result.exit_code == 0, result.output
    assert "removed odd from the registry" in result.stdout
    assert "None" not in result.stdout
