"""doctor is true to what hookman itself wrote, for every supported Claude Code target: a
plugin `hookman plugin build` made (its hooks/since-V.json is meant for newer clients, not a
problem on older ones), a project `hookman install` wrote, and a machine where `claude` does
not answer (the target stays what it said at the last install). A real problem, a too-new
event a hand put into the plugin's files, is still an error."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from hookman.doctor.report import exit_code

from .conftest import GUARD, codes, diagnose, hookman_cli, loud, the, write_hook, write_json

TARGETS = ("2.1.197", "2.1.328", "2.1.332")
CONTEXT = """\
def hook(pi):
    pi.on("session_start", lambda event, ctx: pi.send_message("hello"))
"""


def built_plugin(source_project: Path, home: Path, out: Path) -> Path:
    """The guard built into a plugin (for the newest client, as `plugin build` does by
    default) and enabled in `home`, as `claude plugin install` leaves it."""
    hook = str(write_hook(source_project, "guard", GUARD))
    context = str(write_hook(source_project, "ctx", CONTEXT))
    where = ("--project", str(source_project))
    done = hookman_cli("install", hook, context, "--claude-version", "2.1.332", *where)
    assert done.exit_code == 0, done.output
    done = hookman_cli("plugin", "build", str(out), "--name", "tg", *where)
    assert done.exit_code == 0, done.output
    assert (out / "hooks" / "since-2.1.332.json").is_file()
    write_json(
        home / ".claude" / "plugins" / "installed_plugins.json",
        {"version": 2, "plugins": {"tg@m": [{"scope": "user", "installPath": str(out)}]}},
    )
    write_json(home / ".claude" / "settings.json", {"enabledPlugins": {"tg@m": True}})
    return out


@pytest.fixture
def plugin(tmp_path: Path, isolated_user: Path) -> Path:
    source = tmp_path / "hook-source"
    (source / ".claude").mkdir(parents=True)
    return built_plugin(source, isolated_user, tmp_path / "cache" / "tg")


@pytest.mark.parametrize("target", TARGETS)
def test_a_built_plugin_is_no_problem_on_any_supported_client(
    project: Path, plugin: Path, target: str
) -> None:
    ctx = diagnose(project, version=target)

    assert loud(ctx) == [] and exit_code(ctx) == 0
    loaded = [h.event for h in ctx.handlers if h.source.kind == "plugin" and h.loaded]
    assert "PreToolUse" in loaded
    assert ("PreSkillShellCommand" in loaded) == (target == "2.1.332")
    if target != "2.1.332":
        assert the(ctx, "plugin-hooks-for-newer-client").severity == "info"


@pytest.mark.parametrize("target", TARGETS)
def test_an_installed_project_is_no_problem_on_any_supported_client(
    project: Path, target: str
) -> None:
    hook = str(write_hook(project, "guard", GUARD))
    done = hookman_cli("install", hook, "--claude-version", target, "--project", str(project))
    assert done.exit_code == 0, done.output

    ctx = diagnose(project, version=None)  # the target the install remembered

    assert loud(ctx) == [] and exit_code(ctx) == 0
    assert str(ctx.version) == target


@pytest.mark.parametrize("target", ["2.1.197", "2.1.328"])
def test_a_too_new_event_put_by_hand_into_a_built_plugin_is_still_an_error(
    project: Path, plugin: Path, target: str
) -> None:
    hooks_json = plugin / "hooks" / "hooks.json"
    data = json.loads(hooks_json.read_text())
    data["hooks"]["PreSkillShellCommand"] = data["hooks"]["PreToolUse"]
    hooks_json.write_text(json.dumps(data, indent=2))

    ctx = diagnose(project, version=target)

    assert the(ctx, "event-too-new").file == str(hooks_json)
    assert exit_code(ctx) == 1
    if target == "2.1.197":
        assert the(ctx, "plugin-hooks-file-not-loaded").file == str(hooks_json)


def test_a_hand_edited_per_version_file_is_judged_as_any_file(project: Path, plugin: Path) -> None:
    since = plugin / "hooks" / "since-2.1.332.json"
    data = json.loads(since.read_text())
    data["hooks"]["DirectoryAdded"] = data["hooks"]["PreSkillShellCommand"]
    since.write_text(json.dumps(data, indent=2))

    ctx = diagnose(project, version="2.1.197")

    assert "plugin-hooks-for-newer-client" not in codes(ctx)
    assert the(ctx, "plugin-hooks-file-not-loaded").file == str(since)


def fake_claude(bin_dir: Path, version: str) -> None:
    bin_dir.mkdir(parents=True, exist_ok=True)
    program = bin_dir / "claude"
    program.write_text(f'#!/bin/sh\necho "{version} (Claude Code)"\n', encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)


def test_without_claude_on_path_the_target_stays_what_it_said_at_the_last_install(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installed where `claude --version` said 2.1.332, then doctor and install in a shell
    without `claude`: no hookman-stale, and install keeps the skill-shell guard."""
    bin_dir = tmp_path / "bin"
    fake_claude(bin_dir, "2.1.332")
    plain = os.environ["PATH"]
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), plain]))
    hook = str(write_hook(project, "guard", GUARD))
    done = hookman_cli("install", hook, "--project", str(project))
    assert done.exit_code == 0 and "2.1.332 (from claude --version)" in done.output
    settings = project / ".claude" / "settings.local.json"
    assert "PreSkillShellCommand" in settings.read_text()
    (bin_dir / "claude").unlink()

    ctx = diagnose(project, version=None)

    assert loud(ctx) == [] and str(ctx.version) == "2.1.332"
    again = hookman_cli("install", "--project", str(project))
    assert again.exit_code == 0, again.output
    assert "PreSkillShellCommand" in settings.read_text()
