"""`hookman plugin build`: what it prints, its --json shape, and its usage errors."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import GUARD, hookman, write_hook

VERSION = ("--claude-version", "2.1.332")


def _project(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    path = str(project / "hooks" / "guard.py")
    assert hookman("install", path, "--project", str(project), *VERSION).exit_code == 0


def test_it_says_what_it_built_and_how_to_install_it(project: Path, tmp_path: Path) -> None:
    _project(project)
    market = tmp_path / "team-hooks"

    done = hookman(
        "plugin", "build", str(market / "guards"), "--name", "team-guards",
        "--marketplace", str(market), "--project", str(project), *VERSION,
    )  # fmt: skip

    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == (
        f"built the plugin team-guards 0.1.0 in {market / 'guards'}: guard on PreToolUse, "
        "PreSkillShellCommand"
    )
    assert lines[-2] == (
        f"marketplace team-hooks ({market / '.claude-plugin' / 'marketplace.json'}): updated"
    )
    assert lines[-1] == (
        f"install it: claude plugin marketplace add {market} && claude plugin install "
        "team-guards@team-hooks"
    )


def test_json_names_the_plugin_and_the_marketplace(project: Path, tmp_path: Path) -> None:
    _project(project)
    out = tmp_path / "m" / "p"

    done = hookman(
        "plugin", "build", str(out), "--json", "--marketplace", str(tmp_path / "m"),
        "--project", str(project), *VERSION,
    )  # fmt: skip

    data = json.loads(done.output)
    assert set(data) == {
        "plugin", "name", "version", "hooks", "claude_version", "events", "async_events",
        "held_back", "rebuilt", "changed", "warnings", "marketplace",
    }  # fmt: skip
    assert data["hooks"] == ["guard"] and data["events"] == ["PreToolUse", "PreSkillShellCommand"]
    assert data["marketplace"]["name"] == "m" and data["rebuilt"] is False


def test_a_bad_version_is_a_usage_error(project: Path, tmp_path: Path) -> None:
    _project(project)
    done = hookman(
        "plugin", "build", str(tmp_path / "p"), "--version", "one", "--project", str(project)
    )
    assert done.exit_code == 2
    assert "'one' is not a plugin version" in done.output
    assert not (tmp_path / "p").exists()


def test_json_carries_the_plans_warnings_before_the_marketplace(
    project: Path, tmp_path: Path
) -> None:
    """The plan's warnings (commands/plan_wording.py) are put into the object build_plugin
    returns, in its place: a held-back guard event for an older target."""
    _project(project)
    done = hookman(
        "plugin", "build", str(tmp_path / "plug"), "--project", str(project),
        "--claude-version", "2.1.197", "--json",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert list(data)[-2:] == ["warnings", "marketplace"]
    assert [warning.split(" (")[0] for warning in data["warnings"]] == [
        "PreSkillShellCommand is held back"
    ]
