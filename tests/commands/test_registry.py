from __future__ import annotations

import json
from pathlib import Path

from hookman import paths

from .helpers import GUARD, hookman, write_hook

VERSION = ("--claude-version", "2.1.328")


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
        "repositories": [],  # hook-repository entries (registry add REPO --rev --hook)
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


def _write_registry(text: str) -> None:
    paths.registry_path().parent.mkdir(parents=True, exist_ok=True)
    paths.registry_path().write_text(text)


def test_a_stale_or_broken_entry_blocks_no_other_hook(project: Path, tmp_path: Path) -> None:
    good = write_hook(tmp_path / "shared", "good", GUARD)
    _write_registry(
        f'[hooks.stale]\npath = "{tmp_path}/gone.py"\n\n[hooks.bad]\npath = "relative.py"\n\n'
        f'[hooks.good]\npath = "{good}"\n'
    )

    installed = hookman("install", "good", "--project", str(project), *VERSION)
    added = hookman("registry", "add", str(good), "--name", "other")
    listed = hookman("registry", "list")

    assert installed.exit_code == 0, installed.output
    assert added.exit_code == 0, added.output
    assert listed.stdout.splitlines() == [
        "bad  broken: needs an absolute `path`  "
        "(fix it with `hookman registry add PATH --name bad`)",
        f"stale  {tmp_path}/gone.py  (missing file)",
        f"good  {good}",
        f"other  {good}",
    ]


TEAM_TOML = """\
[[hooks]]
name = "team-guard"
registry = "team-guard"
events = ["tool_call"]
tools = {tool_call = ["Bash"]}

[[hooks]]
name = "mine"
path = "hooks/mine.py"
events = ["session_start"]
"""


def test_a_teammates_registry_hook_says_how_to_get_it_and_the_rest_installs(
    project: Path, tmp_path: Path
) -> None:
    write_hook(project, "mine", "def hook(pi):\n    pi.on('session_start', lambda e, c: None)\n")
    (project / ".claude" / "hookman.toml").write_text(TEAM_TOML)

    cloned = hookman("install", "--project", str(project), *VERSION)

    assert cloned.exit_code == 1
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert sorted(settings["hooks"]) == ["PreToolUse", "SessionStart", "UserPromptSubmit"]
    lines = cloned.stdout.splitlines()
    assert lines[-3:] == [
        "missing: the hook 'team-guard' comes from the registry entry 'team-guard', which is "
        "not in this machine's user registry.",
        "  until it is there, team-guard fails to load whenever it should run (a guard denies "
        "its tool calls).",
        "  fix: get its file (from whoever added it to hookman.toml) and register it with "
        "`hookman registry add PATH --name team-guard`, or take the hook out with "
        "`hookman remove team-guard`.",
    ]
    fired = json.loads(hookman("fire", "PreToolUse", "--project", str(project), "--json").stdout)
    decision = fired["answer"]["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "team-guard" in decision["permissionDecisionReason"]

    shared = write_hook(tmp_path / "shared", "team-guard", GUARD)
    assert hookman("registry", "add", str(shared), "--name", "team-guard").exit_code == 0
    fixed = hookman("install", "--project", str(project), *VERSION)
    assert fixed.exit_code == 0, fixed.output
    assert "missing" not in fixed.stdout
