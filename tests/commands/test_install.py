from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookman import paths
from hookman.project.config import MAX_HOOK_TIMEOUT_S
from hookman.project.sentinel import stamp_path
from hookman.project.settings_entries import (
    BLOCKING,
    SENTINEL,
    RunnerRef,
    find_hookman_entries,
    hookman_command_is_async,
    hookman_command_is_sentinel,
    hookman_command_runner,
    hookman_handler_kind,
    is_hookman_command,
)
from tests.bridge.attack_support import installed_handlers
from tests.direct_command import build_direct_command

from .helpers import (
    ASYNC_GUARD,
    ASYNC_VERSION,
    DIRS,
    GUARD,
    NOTES,
    NOTIFIER,
    hookman,
    hookman_json,
    local_settings,
    snapshot,
    write_hook,
)

COMMITTED = '{\n  "permissions": {"allow": ["Bash(ls)"]},\n  "hooks": {"Stop": []}\n}\n'
FOREIGN_LOCAL = """{
    "env": {"DEBUG": "1"},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}
        ]
    }
}
"""


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


# what install prints for every installed project's prompt gate (ARCHITECTURE.md)
GATE_LINE = (
    "  UserPromptSubmit timeout 30s (prompt gate: stops a prompt when the project changed "
    "since install)"
)
# and for the PreToolUse sentinel of a project whose PreToolUse entry matches some tools only
# (project/sentinel.py)
SENTINEL_LINE = (
    "  PreToolUse every other tool timeout 30s (sentinel: denies if the project changed)"
)


def _project_files(project: Path) -> list[Path]:
    return [
        project / ".claude" / "hookman.toml",
        project / ".claude" / "settings.local.json",
        paths.manifest_path(project),
    ]


def test_install_two_list_remove_one_keeps_the_users_settings(project: Path) -> None:
    committed = project / ".claude" / "settings.json"
    committed.write_text(COMMITTED)
    (project / ".claude" / "settings.local.json").write_text(FOREIGN_LOCAL)
    write_hook(project, "guard", GUARD)
    write_hook(project, "notes", NOTES)
    flags = ("--project", str(project), "--claude-version", "2.1.328")

    installed = hookman_json("install", "hooks/guard.py", "hooks/notes.py", *flags)
    assert installed["installed"] == ["guard", "notes"]
    assert installed["written"]["PreToolUse"] == {"matcher": "Bash", "timeout": 30}
    assert installed["written"]["PostToolUse"] == {"matcher": "Edit|Write", "timeout": 30}
    assert set(installed["written"]) == {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",  # the prompt gate
        "SessionStart",
    }

    listed = hookman_json("list", *flags)
    assert [hook["name"] for hook in listed["hooks"]] == ["guard", "notes"]
    assert listed["hooks"][0]["claude_events"] == {
        "PreToolUse": {"status": "written", "matcher": "Bash", "since": None},
        "PreSkillShellCommand": {"status": "held_back", "matcher": None, "since": "2.1.332"},
    }

    removed = hookman_json("remove", "notes", *flags)
    assert removed["removed"] == ["notes"]
    assert set(removed["written"]) == {"PreToolUse", "UserPromptSubmit"}  # and the gate
    settings = local_settings(project)
    assert [(event, hookman_handler_kind(h)) for event, h in find_hookman_entries(settings)] == [
        ("PreToolUse", BLOCKING),
        ("PreToolUse", SENTINEL),  # every tool but Bash (project/sentinel.py)
        ("UserPromptSubmit", BLOCKING),
    ]

    hookman_json("remove", "guard", *flags)
    assert committed.read_text() == COMMITTED
    assert (project / ".claude" / "settings.local.json").read_text() == FOREIGN_LOCAL


def test_installed_entries_run_the_runner_for_their_event(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json(
        "install", "hooks/guard.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    settings = local_settings(project)
    [group, sentinel_group] = settings["hooks"]["PreToolUse"]
    [handler] = group["hooks"]
    assert group["matcher"] == "Bash"
    assert is_hookman_command(handler["command"])
    assert not hookman_command_is_sentinel(handler["command"])
    launcher = paths.manifest_path(project).parent / "hookman-run.sh"
    assert f"EXIT; [ -f {launcher} ] && sh {launcher} PreToolUse && " in handler["command"]
    assert hookman_command_runner(handler["command"]) == RunnerRef(
        sys.executable, str(paths.manifest_path(project)), str(launcher)
    )
    # the sentinel: every other tool; the same command, behind the stamp's tests of the
    # files install read (hookman.toml and the path hook's module) and their directories
    [sentinel] = sentinel_group["hooks"]
    assert sentinel_group["matcher"] == "^(?!(?:Bash)$).*"
    assert hookman_command_is_sentinel(sentinel["command"])
    stamp = stamp_path(project)
    assert sentinel["command"] == (
        f"[ {stamp} -nt {project / '.claude' / 'hookman.toml'} ] && "
        f"[ {stamp} -nt {project / 'hooks' / 'guard.py'} ] && "
        f"[ {stamp} -nt {project / '.claude'} ] && "
        f"[ {stamp} -nt {project / 'hooks'} ] && exit 0; {handler['command']}"
    )
    assert sentinel["timeout"] == handler["timeout"] == 30
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert manifest["client"]["guarded_events"] == ["PreToolUse", "PreSkillShellCommand"]
    assert manifest["hooks"][0]["path"] == str(project / "hooks" / "guard.py")
    assert manifest["entries"]["PreToolUse"]["deadline"] == 27.0
    # PreSkillShellCommand is held back on 2.1.328: no sentinel for it either
    assert manifest["sentinels"] == {"PreToolUse": {"matcher": "^(?!(?:Bash)$).*"}}


def test_the_version_gate_holds_back_directory_added(project: Path) -> None:
    write_hook(project, "dirs", DIRS)
    old = hookman(
        "install", "hooks/dirs.py", "--project", str(project), "--claude-version", "2.1.197"
    )
    assert old.exit_code == 0
    assert "held back DirectoryAdded: needs Claude Code >= 2.1.219, target is 2.1.197" in old.stdout
    assert "DirectoryAdded" not in local_settings(project)["hooks"]
    assert json.loads(paths.manifest_path(project).read_text())["held_back"] == {
        "DirectoryAdded": "2.1.219"
    }
    new = hookman_json("install", "--project", str(project), "--claude-version", "2.1.328")
    assert new["held_back"] == {}
    assert "DirectoryAdded" in local_settings(project)["hooks"]


def test_claude_version_in_hookman_toml_is_the_target(project: Path) -> None:
    write_hook(project, "dirs", DIRS)
    (project / ".claude" / "hookman.toml").write_text('claude_version = "2.1.197"\n')
    result = hookman_json("install", "hooks/dirs.py", "--project", str(project))
    assert (result["claude_version"], result["claude_version_source"]) == (
        "2.1.197",
        "hookman.toml",
    )
    assert result["held_back"] == {"DirectoryAdded": {"since": "2.1.219"}}


def test_the_installed_claude_binary_is_the_target_when_nothing_else_says(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bin" / "claude"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\necho "2.1.328 (Claude Code)"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    write_hook(project, "dirs", DIRS)
    result = hookman_json("install", "hooks/dirs.py", "--project", str(project))
    assert (result["claude_version"], result["claude_version_source"]) == (
        "2.1.328",
        "claude --version",
    )
    assert "DirectoryAdded" in result["written"]


def test_a_typod_event_is_refused_with_the_suggestion_and_nothing_written(project: Path) -> None:
    write_hook(project, "typo", "def hook(pi):\n    pi.on('PreToolUze', lambda e, c: None)\n")
    result = hookman(
        "install", "hooks/typo.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 1
    assert "'PreToolUze'" in result.stderr
    assert "did you mean 'PreToolUse'?" in result.stderr
    assert "Traceback" not in result.output
    assert all(state is None for state in snapshot(*_project_files(project)).values())


def test_allow_unknown_event_keeps_it_inert_and_warns(project: Path) -> None:
    write_hook(project, "future", "def hook(pi):\n    pi.on('FutureEvent', lambda e, c: None)\n")
    result = hookman_json(
        "install",
        "hooks/future.py",
        "--allow-unknown-event",
        "--project",
        str(project),
        "--claude-version",
        "2.1.328",
    )
    assert result["written"] == {}
    assert any("FutureEvent" in warning for warning in result["warnings"])
    assert 'events = ["FutureEvent"]' in (project / ".claude" / "hookman.toml").read_text()


def test_runtime_only_hooks_install_with_a_plain_warning(project: Path) -> None:
    write_hook(project, "turns", "def hook(pi):\n    pi.on('turn_start', lambda e, c: None)\n")
    result = hookman(
        "install", "hooks/turns.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 0
    assert "never sends" in result.stdout
    assert "turns" in (project / ".claude" / "hookman.toml").read_text()


def test_reinstalling_with_nothing_new_changes_no_byte_or_mtime(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    flags = ("--project", str(project), "--claude-version", "2.1.328")
    hookman_json("install", "hooks/guard.py", *flags)
    before = snapshot(*_project_files(project))
    time.sleep(0.01)
    again = hookman_json("install", "hooks/guard.py", *flags)
    hookman_json("install", *flags)
    hookman_json("install", "guard", *flags)
    assert not again["settings_changed"]
    assert snapshot(*_project_files(project)) == before


def test_installing_a_listed_hook_relearns_its_subscriptions(project: Path) -> None:
    guard = write_hook(project, "guard", GUARD)
    flags = ("--project", str(project), "--claude-version", "2.1.328")
    hookman_json("install", "hooks/guard.py", *flags)
    guard.write_text(GUARD.replace('tools=["Bash"]', 'tools=["Bash", "Write"]'))
    result = hookman_json("install", "guard", *flags)
    assert result["written"]["PreToolUse"]["matcher"] == "Bash|Write"
    assert 'tool_call = ["Bash", "Write"]' in (project / ".claude" / "hookman.toml").read_text()


def test_a_disabled_hook_stays_listed_but_writes_nothing(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    flags = ("--project", str(project), "--claude-version", "2.1.328")
    hookman_json("install", "hooks/guard.py", *flags)
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(toml.read_text().replace("enabled = true", "enabled = false"))
    result = hookman_json("install", *flags)
    assert result["written"] == {}
    assert "hooks" not in local_settings(project)
    assert json.loads(paths.manifest_path(project).read_text())["hooks"] == []
    assert hookman_json("list", *flags)["hooks"][0]["enabled"] is False


def test_dry_run_prints_the_diff_and_writes_nothing(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    result = hookman(
        "install",
        "hooks/guard.py",
        "--dry-run",
        "--project",
        str(project),
        "--claude-version",
        "2.1.328",
    )
    assert result.exit_code == 0
    assert "+++" in result.stdout
    assert '"matcher": "Bash"' in result.stdout
    assert '+name = "guard"' in result.stdout
    assert all(state is None for state in snapshot(*_project_files(project)).values())
    as_json = hookman_json(
        "install",
        "hooks/guard.py",
        "--dry-run",
        "--project",
        str(project),
        "--claude-version",
        "2.1.328",
    )
    assert as_json["dry_run"] and as_json["diff"] and as_json["config_diff"]


def test_dry_run_creates_nothing_outside_the_project_either(
    project: Path, hookman_home: Path
) -> None:
    write_hook(project, "guard", GUARD)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    exclude = project / ".git" / "info" / "exclude"
    exclude_before = exclude.read_bytes()
    result = hookman(
        "install", "hooks/guard.py", "--dry-run", "--project", str(project),
        "--claude-version", "2.1.328",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert list(hookman_home.iterdir()) == []  # no manifest, no lock file, no state dir
    assert exclude.read_bytes() == exclude_before


def test_two_hooks_given_under_one_name_are_refused_not_dropped(project: Path) -> None:
    write_hook(project, "a/guard", GUARD)
    write_hook(project, "b/guard", NOTES)
    result = hookman(
        "install", "hooks/a/guard.py", "hooks/b/guard.py", "--project", str(project),
        "--claude-version", "2.1.328",
    )  # fmt: skip
    assert result.exit_code == 1
    assert "both be named 'guard'" in result.stderr
    assert "--name" in result.stderr
    assert all(state is None for state in snapshot(*_project_files(project)).values())
    again = hookman(
        "install", "hooks/a/guard.py", "hooks/a/guard.py", "--project", str(project),
        "--claude-version", "2.1.328",
    )  # fmt: skip
    assert again.exit_code == 0, again.output


def test_an_empty_tool_name_is_a_clear_error(project: Path) -> None:
    write_hook(project, "odd", GUARD.replace('["Bash"]', '[""]'))
    result = hookman(
        "install", "hooks/odd.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 1
    assert "empty tool name" in result.stderr
    assert "internal error" not in result.stderr


def test_mcp_tool_names_with_dashes_and_dots_get_an_anchored_matcher(project: Path) -> None:
    write_hook(project, "mcp", GUARD.replace('["Bash"]', '["mcp__my-server__do.it", "Bash"]'))
    as_json = hookman_json(
        "install", "hooks/mcp.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    matcher = as_json["written"]["PreToolUse"]["matcher"]
    assert matcher == "^(?:Bash|mcp__my-server__do\\.it)$"
    assert local_settings(project)["hooks"]["PreToolUse"][0]["matcher"] == matcher


def test_a_factory_that_forks_a_helper_installs_without_waiting_for_it(project: Path) -> None:
    source = (
        "import os, time\n"
        "def hook(pi):\n"
        "    pi.on('tool_call', lambda e, c: None)\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(30)\n"
        "        os._exit(0)\n"
    )
    write_hook(project, "forker", source)
    started = time.monotonic()
    result = hookman(
        "install", "hooks/forker.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started < 8  # the learning timeout is 10 s


def test_a_read_only_claude_dir_is_one_clear_error_and_changes_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_hook(project, "guard", GUARD)
    manifest = paths.manifest_path(project)

    real_mkstemp = tempfile.mkstemp

    def refuse_in_claude_dir(*args: Any, **kwargs: Any) -> tuple[int, str]:
        if Path(kwargs["dir"]) == project / ".claude":
            raise PermissionError(13, "Permission denied")
        return real_mkstemp(*args, **kwargs)

    # Root ignores directory modes, so the refusal is simulated where the temp file is made.
    monkeypatch.setattr("hookman.atomic_file.tempfile.mkstemp", refuse_in_claude_dir)
    result = hookman(
        "install", "hooks/guard.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 1
    assert "Permission denied" in result.stderr
    assert "internal error" not in result.stderr
    assert not manifest.exists()
    assert all(state is None for state in snapshot(*_project_files(project)).values())


@pytest.mark.parametrize(
    "broken",
    ['{"hooks": {', "[1, 2]", '{"hooks": {"PreToolUse": {"not": "a list"}}}'],
)
def test_malformed_settings_are_refused_and_nothing_is_written(project: Path, broken: str) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.write_text(broken)
    write_hook(project, "guard", GUARD)
    result = hookman(
        "install", "hooks/guard.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 1
    assert "hint:" in result.stderr
    assert "Traceback" not in result.output
    assert settings.read_text() == broken
    assert not (project / ".claude" / "hookman.toml").exists()
    assert not paths.manifest_path(project).exists()


def test_malformed_hookman_toml_is_refused_and_untouched(project: Path) -> None:
    toml = project / ".claude" / "hookman.toml"
    toml.write_text("[[hooks]\nname = 'x'\n")
    write_hook(project, "guard", GUARD)
    result = hookman(
        "install", "hooks/guard.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result.exit_code == 1
    assert "line 1" in result.stderr
    assert "hint:" in result.stderr
    assert toml.read_text() == "[[hooks]\nname = 'x'\n"
    assert not (project / ".claude" / "settings.local.json").exists()


def test_a_hanging_factory_is_a_clear_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hookman.hooks import subscriptions

    monkeypatch.setattr(subscriptions, "LEARN_TIMEOUT_S", 1.0)
    write_hook(project, "slow", "import time\ndef hook(pi):\n    time.sleep(30)\n")
    started = time.monotonic()
    result = hookman(
        "install", "hooks/slow.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert time.monotonic() - started < 10
    assert result.exit_code == 1
    assert "did not finish within" in result.stderr
    assert not (project / ".claude" / "hookman.toml").exists()


def test_a_path_outside_the_project_is_refused(project: Path, tmp_path: Path) -> None:
    outside = write_hook(tmp_path / "elsewhere", "guard", GUARD)
    result = hookman("install", str(outside), "--project", str(project))
    assert result.exit_code == 1
    assert "hookman registry add" in result.stderr


def test_registry_and_name_install(project: Path, tmp_path: Path) -> None:
    shared = write_hook(tmp_path / "shared", "guard", GUARD)
    assert hookman("registry", "add", str(shared), "--name", "team-guard").exit_code == 0
    result = hookman_json(
        "install", "team-guard", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result["hooks"][0]["source"] == {"kind": "registry", "value": "team-guard"}
    toml = (project / ".claude" / "hookman.toml").read_text()
    assert 'registry = "team-guard"' in toml
    assert str(tmp_path) not in toml
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert manifest["hooks"][0]["path"] == str(shared)


def test_git_work_tree_gets_settings_local_excluded(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    write_hook(project, "guard", GUARD)
    result = hookman_json(
        "install", "hooks/guard.py", "--project", str(project), "--claude-version", "2.1.328"
    )
    assert result["git"] == "added to .git/info/exclude"
    assert "/.claude/settings.local.json" in (project / ".git" / "info" / "exclude").read_text()


def test_name_with_several_hooks_is_a_usage_error(project: Path) -> None:
    result = hookman("install", "a.py", "b.py", "--name", "x", "--project", str(project))
    assert result.exit_code == 2


def test_concurrent_installs_lose_nothing(project: Path) -> None:
    count = 16
    for index in range(count):
        write_hook(project, f"h{index}", GUARD.replace('"Bash"', f'"Tool{index}"'))
    env = {**os.environ, "HOOKMAN_HOME": os.environ["HOOKMAN_HOME"]}
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hookman",
                "install",
                f"hooks/h{index}.py",
                "--project",
                str(project),
                "--claude-version",
                "2.1.328",
            ],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for index in range(count)
    ]
    for process in processes:
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr.decode()
    names = {f"h{index}" for index in range(count)}
    listed = hookman_json("list", "--project", str(project), "--claude-version", "2.1.328")
    assert {hook["name"] for hook in listed["hooks"]} == names
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert {hook["name"] for hook in manifest["hooks"]} == names
    matcher = local_settings(project)["hooks"]["PreToolUse"][0]["matcher"]
    assert set(matcher.split("|")) == {f"Tool{index}" for index in range(count)}


def _pre_tool_use_handlers(project: Path) -> list[dict[str, Any]]:
    """The blocking PreToolUse handlers (not the sentinel)."""
    return installed_handlers(local_settings(project), "PreToolUse")


def _handlers(project: Path, event: str) -> list[dict[str, Any]]:
    return [
        handler for group in local_settings(project)["hooks"][event] for handler in group["hooks"]
    ]


def test_an_async_guard_keeps_its_guarded_part_blocking_and_says_so(project: Path) -> None:
    write_hook(project, "guard", ASYNC_GUARD)

    done = hookman("install", "hooks/guard.py", "--async", *ASYNC_VERSION)

    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[2:7] == [
        "  PreToolUse matcher Bash timeout 30s",
        GATE_LINE,
        "  PostToolUse (async) matcher Bash timeout 30s",
        "  PostToolUseFailure (async) matcher Bash timeout 30s",
        SENTINEL_LINE,
    ]
    assert lines[-1] == (
        "warning: the hook 'guard' is async, but Claude Code never waits for an async hook, "
        "so a guard there could not deny: its PreToolUse part stays in the blocking entry "
        "(its other events run async)."
    )
    (blocking,) = _pre_tool_use_handlers(project)
    assert "async" not in blocking
    assert [h.get("async") for h in _handlers(project, "PostToolUse")] == [True]


def test_async_hooks_get_a_second_entry_and_the_manifest_says_so(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notifier", NOTIFIER)
    installed = hookman_json("install", "hooks/guard.py", *ASYNC_VERSION)
    installed = hookman_json("install", "hooks/notifier.py", "--async", *ASYNC_VERSION)

    assert installed["written"] == {
        "PreToolUse": {"matcher": "Bash", "timeout": 30},
        "UserPromptSubmit": {"matcher": None, "timeout": 30},  # the prompt gate
    }
    assert installed["written_async"] == {
        "PostToolUse": {"matcher": "Bash", "timeout": 30},
        "PostToolUseFailure": {"matcher": "Bash", "timeout": 30},
    }
    assert [hook["async"] for hook in installed["hooks"]] == [False, True]
    (blocking,) = _pre_tool_use_handlers(project)
    (observer,) = _handlers(project, "PostToolUse")
    assert "async" not in blocking and not hookman_command_is_async(blocking["command"])
    assert observer["async"] is True and hookman_command_is_async(observer["command"])
    assert observer["command"].endswith(" PostToolUse --async || :")  # no deny: never read
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert [hook["async"] for hook in manifest["hooks"]] == [False, True]
    assert manifest["async_entries"] == {
        "PostToolUse": {"matcher": "Bash", "timeout": 30, "deadline": 27.0},
        "PostToolUseFailure": {"matcher": "Bash", "timeout": 30, "deadline": 27.0},
    }
    assert "async = true" in (project / ".claude" / "hookman.toml").read_text()


def test_reinstalling_keeps_async_and_no_async_unsets_it(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notifier", NOTIFIER)
    hookman_json("install", "hooks/notifier.py", "--async", *ASYNC_VERSION)
    again = hookman_json("install", "notifier", *ASYNC_VERSION)
    assert again["hooks"][0]["async"] is True
    assert [h.get("async") for h in _handlers(project, "PostToolUse")] == [True]

    back = hookman_json("install", "notifier", "--no-async", *ASYNC_VERSION)

    assert back["hooks"][0]["async"] is False
    assert back["written_async"] == {}
    assert [h.get("async") for h in _handlers(project, "PostToolUse")] == [None]
    assert "async" not in (project / ".claude" / "hookman.toml").read_text()


def test_async_without_hooks_is_a_usage_error(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notifier", NOTIFIER)
    result = hookman("install", "--async", *ASYNC_VERSION)
    assert result.exit_code == 2
    assert "none was" in result.output


@pytest.mark.parametrize(
    ("argument", "extra", "retry"),
    [
        ("hooks/x.py", [], "hookman install hooks/x.py"),
        ("hooks/x.py", ["--name", "y"], "hookman install hooks/x.py --name y"),
    ],
)
def test_a_new_hook_that_fails_to_load_gets_a_hint_that_works(
    project: Path, monkeypatch: pytest.MonkeyPatch, argument: str, extra: list[str], retry: str
) -> None:
    monkeypatch.chdir(project)
    hook = write_hook(project, "x", "def hook(pi):\n    pi.on('tool_call', lambda e, c: None\n")

    failed = hookman("install", argument, *extra)

    assert failed.exit_code == 1
    hint = failed.stderr.split("hint:", 1)[1]
    assert f"`{retry}`" in hint
    hook.write_text(GUARD)
    again = hookman(*retry.split()[1:])
    assert again.exit_code == 0, again.output


SKILL_SHELL_VERSION = ("--claude-version", "2.1.332")
SAMPLES = Path(__file__).resolve().parents[2] / "hookman" / "catalog" / "payloads"
WHERE_FROM_GUARD = """\
def hook(pi):
    def check(event, ctx):
        if event["input"].get("command", "").startswith("rm -rf"):
            where = event["source"], event.get("command_name"), event.get("invoked_by")
            return {"block": True, "reason": "no rm -rf from %s %s %s" % where}
    pi.on("tool_call", check, tools=["Bash"])
"""
RAISING_GUARD = """\
def hook(pi):
    def check(event, ctx):
        raise RuntimeError("guard bug")
    pi.on("tool_call", check, tools=["Bash"])
"""


def _run_written_entry(project: Path, event: str, **overrides: Any) -> dict[str, Any]:
    """Run the blocking command hookman wrote for `event` through a shell, as Claude Code
    does (the sentinel beside it matches the other tools)."""
    [handler] = installed_handlers(local_settings(project), event)
    text = (SAMPLES / f"{event}.json").read_text(encoding="utf-8")
    payload = {**json.loads(text.replace("<WORK>/proj", str(project))), **overrides}
    done = subprocess.run(
        ["sh", "-c", handler["command"]],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done
    return json.loads(done.stdout)


def test_a_bash_guard_also_guards_skill_shell_commands(project: Path) -> None:
    write_hook(project, "guard", WHERE_FROM_GUARD)

    result = hookman_json("install", "hooks/guard.py", *SKILL_SHELL_VERSION)

    assert result["written"]["PreSkillShellCommand"] == {"matcher": "Bash", "timeout": 30}
    assert result["held_back"] == {}
    denied = _run_written_entry(project, "PreSkillShellCommand")
    assert denied == {
        "hookSpecificOutput": {
            "hookEventName": "PreSkillShellCommand",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm -rf from skill_shell clean user",
        }
    }
    harmless = _run_written_entry(project, "PreSkillShellCommand", tool_input={"command": "ls"})
    assert harmless == {}
    tool = _run_written_entry(project, "PreToolUse", tool_input={"command": "rm -rf /x"})
    assert tool["hookSpecificOutput"]["permissionDecisionReason"] == "no rm -rf from tool None None"


def test_a_guard_that_raises_on_a_skill_shell_command_denies_it(project: Path) -> None:
    write_hook(project, "buggy", RAISING_GUARD)
    hookman_json("install", "hooks/buggy.py", *SKILL_SHELL_VERSION)

    answer = _run_written_entry(project, "PreSkillShellCommand")

    specific = answer["hookSpecificOutput"]
    assert (specific["hookEventName"], specific["permissionDecision"]) == (
        "PreSkillShellCommand",
        "deny",
    )
    assert "hookman blocked this shell command" in specific["permissionDecisionReason"]
    assert "'buggy' raised an error" in specific["permissionDecisionReason"]
    assert "hookman fire PreSkillShellCommand" in specific["permissionDecisionReason"]


def test_a_guard_that_no_longer_loads_denies_skill_shell_commands(project: Path) -> None:
    guard = write_hook(project, "fragile", GUARD)
    hookman_json("install", "hooks/fragile.py", *SKILL_SHELL_VERSION)
    guard.write_text("import module_that_does_not_exist_anywhere\n", encoding="utf-8")

    answer = _run_written_entry(project, "PreSkillShellCommand", tool_input={"command": "ls"})

    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "'fragile' failed to load" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_older_targets_hold_skill_shell_commands_back_and_say_what_that_means(
    project: Path,
) -> None:
    write_hook(project, "guard", GUARD)

    result = hookman("install", "hooks/guard.py", "--claude-version", "2.1.328")

    assert result.exit_code == 0, result.output
    assert "PreSkillShellCommand" not in local_settings(project)["hooks"]
    assert result.stdout.splitlines() == [
        "installed guard",
        "Claude Code target: 2.1.328 (from flag)",
        "  PreToolUse matcher Bash timeout 30s",
        GATE_LINE,
        SENTINEL_LINE,
        "held back PreSkillShellCommand: needs Claude Code >= 2.1.332, target is 2.1.328",
        ".claude/hookman.toml changed",
        ".claude/settings.local.json changed",
        "warning: PreSkillShellCommand is held back (it needs Claude Code >= 2.1.332), so "
        "tool_call guards do not see the inline shell commands (!`cmd`) of skills and slash "
        "commands, which run unguarded on that client; upgrade Claude Code and run `hookman "
        "install` again to guard them.",
    ]
    listed = hookman_json("list", "--claude-version", "2.1.328")
    assert listed["warnings"] == [result.stdout.splitlines()[-1].removeprefix("warning: ")]


def test_a_target_newer_than_any_checked_version_says_what_is_assumed(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    newer = ("--claude-version", "2.1.400")
    assumed = (
        "Claude Code 2.1.400 is newer than 2.1.332, the newest version hookman has facts for, "
        "so hookman assumes it behaves like 2.1.332: the same events, answers and texts the "
        "model reads."
    )

    installed = hookman("install", "hooks/guard.py", *newer)
    listed = hookman("list", *newer)

    assert installed.stdout.splitlines()[-1] == f"warning: {assumed}"
    assert listed.stdout.splitlines()[-1] == f"warning: {assumed}"
    assert hookman_json("install", *newer)["warnings"] == [assumed]
    assert hookman_json("list", *newer)["warnings"] == [assumed]
    checked = hookman_json("list", "--claude-version", "2.1.332")
    assert checked["warnings"] == []


@pytest.mark.parametrize("command", [("install", "hooks/guard.py"), ("remove", "guard")])
def test_a_local_settings_symlink_to_settings_json_is_refused_and_nothing_is_written(
    project: Path, command: tuple[str, ...]
) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.328")
    local = project / ".claude" / "settings.local.json"
    committed = project / ".claude" / "settings.json"
    committed.write_text(COMMITTED)
    local.unlink()
    local.symlink_to("settings.json")
    before = snapshot(committed, *_project_files(project)[:1], paths.manifest_path(project))

    result = hookman(*command, "--claude-version", "2.1.328")

    assert result.exit_code == 1
    assert result.stderr == (
        f"hookman: {local} is a symlink to {committed}, which is not a local settings file of "
        "this project, so hookman will not write through it (it modifies no settings file but "
        ".claude/settings.local.json).\n"
        f"  hint: replace the link with a plain file (`rm {local}`, then `hookman install`), "
        "or point it at a file named settings.local.json outside any other .claude directory.\n"
    )
    assert snapshot(committed, *_project_files(project)[:1], paths.manifest_path(project)) == before


# --- hostile but parseable hookman.toml -------------------------------------------------------

HOSTILE_SCALARS = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -0.0, 1e308, 10**30, 1e-320, 5e-324, 2**63, 2**31, 86401, 1e16]),
    st.booleans(),
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "a" * 5000, "../x.py", "/abs.py", "hooks/guard.py\x00"]),
)
HOSTILE_VALUES = st.recursive(
    HOSTILE_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
HOOK_KEYS = ["name", "path", "registry", "template", "enabled", "events", "tools", "timeout"]
HOOK_KEYS += ["async", "unknown"]


def _hostile_toml(draw: st.DrawFn) -> str:
    document = tomlkit.document()
    if draw(st.booleans()):
        document["claude_version"] = draw(st.one_of(HOSTILE_SCALARS, st.just("2.1.332")))
    table = tomlkit.table()
    table["name"] = "guard"
    table["path"] = "hooks/guard.py"
    table["events"] = ["tool_call"]
    for key in draw(st.lists(st.sampled_from(HOOK_KEYS), min_size=1, max_size=3, unique=True)):
        table[key] = draw(HOSTILE_VALUES)
    hooks = tomlkit.aot()
    hooks.append(table)
    document["hooks"] = hooks
    return tomlkit.dumps(document)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.composite(_hostile_toml)())
@example(text='[[hooks]]\nname = "guard"\npath = "0"\nevents = ["tool_call"]\n')  # no module
def test_hostile_hookman_toml_values_are_refused_clearly_or_installed(
    project: Path, text: str
) -> None:
    write_hook(project, "guard", GUARD)
    config = project / ".claude" / "hookman.toml"
    config.write_text(text, encoding="utf-8")
    local = project / ".claude" / "settings.local.json"
    local.unlink(missing_ok=True)

    result = hookman("install", "--claude-version", "2.1.332")

    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    if result.exit_code == 1 and not result.stderr:
        # installed (a guard that cannot load denies), and said: a path to no module
        assert "the module of the hook 'guard'" in result.stdout, result.stdout
        assert "\n  fix: " in result.stdout, result.stdout
        assert config.read_text(encoding="utf-8") == text
        return
    if result.exit_code == 1:
        [sentence, hint] = result.stderr.splitlines()
        assert sentence.startswith("hookman: ") and hint.startswith("  hint: "), result.stderr
        assert config.read_text(encoding="utf-8") == text
        assert not local.exists()
        return
    written = local_settings(project) if local.exists() else {}
    for group in written.get("hooks", {}).values():
        for entry in group:
            [handler] = entry["hooks"]
            assert 0 < handler["timeout"] <= MAX_HOOK_TIMEOUT_S


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("1e308", "1e+308"),
        ("100000000000000000000000000000000", "100000000000000000000000000000000"),
        ("86401", "86401"),
        ("-5", "-5"),
        ("0", "0"),
        ("nan", "NaN"),
        ("-inf", "-Infinity"),
        ("true", "true"),
        ('"30"', '"30"'),
        ("[30]", "[30]"),
        ('"' + "9" * 100 + '"', '"' + "9" * 36 + "..."),
    ],
)
def test_a_hostile_timeout_is_refused_in_one_sentence(
    project: Path, value: str, shown: str
) -> None:
    write_hook(project, "guard", GUARD)
    text = '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nevents = ["tool_call"]\n'
    text += f"timeout = {value}\n"
    (project / ".claude" / "hookman.toml").write_text(text)

    result = hookman("install", "--claude-version", "2.1.332")

    assert result.exit_code == 1
    assert result.stderr == (
        "hookman: hook 'guard' in .claude/hookman.toml: `timeout` must be a number of seconds "
        f"above 0 and at most 86400 (one day), not {shown}.\n"
        "  hint: fix .claude/hookman.toml by hand; hookman left it untouched.\n"
    )
    assert not (project / ".claude" / "settings.local.json").exists()


def test_the_largest_timeout_is_written_as_it_is(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    text = '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nevents = ["tool_call"]\n'
    (project / ".claude" / "hookman.toml").write_text(text + "timeout = 86400\n")

    result = hookman_json("install", "--claude-version", "2.1.332")

    assert result["written"]["PreToolUse"]["timeout"] == 86400


def test_a_project_directory_whose_name_is_not_utf8_is_refused_clearly(tmp_path: Path) -> None:
    project = tmp_path / os.fsdecode(b"caf\xe9-latin1")
    (project / ".claude").mkdir(parents=True)
    write_hook(project, "guard", GUARD)

    result = hookman(
        "install",
        str(project / "hooks" / "guard.py"),
        "--project",
        str(project),
        "--claude-version",
        "2.1.332",
    )

    assert result.exit_code == 1
    shown = f"{tmp_path}/caf\\xe9-latin1"
    assert result.stderr == (
        f"hookman: the project directory {shown} has a name that is not valid UTF-8, so hookman "
        "cannot write it into Claude Code's settings (JSON text is UTF-8); nothing was changed.\n"
        "  hint: rename the directory to a UTF-8 name (e.g. with `mv`), then run the command "
        "again.\n"
    )
    assert sorted(path.name for path in (project / ".claude").iterdir()) == []
    assert not paths.manifest_path(project).exists()


def test_a_git_work_tree_whose_path_is_not_utf8_is_refused_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project is found through git (run in a subdirectory, no .claude/ yet): git's
    answer holds the name's bytes; `new` works there, and `install` refuses with a sentence
    and a hint, never a decode error."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    root = tmp_path / os.fsdecode(b"caf\xe9-repo")
    (root / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    monkeypatch.chdir(root / "sub")

    created = hookman("new", "guard", "--template", "bash_guard")
    result = hookman("install", "--claude-version", "2.1.332")

    assert created.exit_code == 0, created.output
    assert (root / ".claude" / "hooks" / "guard.py").is_file()
    assert result.exit_code == 1
    assert result.stderr == (
        f"hookman: the project directory {tmp_path}/caf\\xe9-repo has a name that is not valid "
        "UTF-8, so hookman cannot write it into Claude Code's settings (JSON text is UTF-8); "
        "nothing was changed.\n"
        "  hint: rename the directory to a UTF-8 name (e.g. with `mv`), then run the command "
        "again.\n"
    )
    assert not (root / ".claude" / "settings.local.json").exists()
    assert b"hookman" not in (root / ".git" / "info" / "exclude").read_bytes()


def _claude_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str | None) -> None:
    """PATH holds only a fake `claude` answering `version` (None: no claude at all)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "claude"
    fake.unlink(missing_ok=True)
    if version is not None:
        fake.write_text(f"#!/bin/sh\necho '{version} (Claude Code)'\n")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))


def test_an_explicit_target_is_remembered_by_list_and_the_next_install(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _claude_on_path(tmp_path, monkeypatch, None)
    write_hook(project, "guard", GUARD)

    installed = hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.332")
    listed = hookman_json("list")
    again = hookman_json("install")

    assert set(installed["written"]) == {"PreToolUse", "PreSkillShellCommand", "UserPromptSubmit"}
    assert (listed["claude_version"], listed["claude_version_source"]) == (
        "2.1.332",
        "earlier flag",
    )
    assert listed["held_back"] == {}
    assert listed["hooks"][0]["claude_events"]["PreSkillShellCommand"]["status"] == "written"
    assert (again["claude_version"], again["claude_version_source"]) == ("2.1.332", "earlier flag")
    assert again["settings_changed"] is False
    assert set(local_settings(project)["hooks"]) == {
        "PreToolUse",
        "PreSkillShellCommand",
        "UserPromptSubmit",
    }
    assert hookman("list").stdout.splitlines()[0] == (
        f"project {project}, Claude Code target 2.1.332 (from --claude-version, remembered "
        "from the last install)"
    )


def test_a_remembered_target_wins_over_claude_version_and_says_how_to_follow_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _claude_on_path(tmp_path, monkeypatch, "2.1.328")
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.332")
    note = (
        "`claude --version` says 2.1.328, but the target stays 2.1.332, given with "
        "--claude-version to an earlier install; pass --claude-version 2.1.328 to write for "
        "the installed client instead."
    )

    again = hookman("install")
    listed = hookman_json("list")

    assert again.exit_code == 0
    assert f"warning: {note}" in again.stdout.splitlines()
    assert listed["warnings"] == [note]
    assert "PreSkillShellCommand" in local_settings(project)["hooks"]
    followed = hookman_json("install", "--claude-version", "2.1.328")
    assert "PreSkillShellCommand" not in local_settings(project)["hooks"]
    assert followed["held_back"] == {"PreSkillShellCommand": {"since": "2.1.332"}}
    assert hookman_json("list")["warnings"] == [followed["warnings"][0]]
    assert hookman_json("list")["claude_version_source"] == "earlier flag"


def test_without_a_flag_the_target_is_detected_again_each_time(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _claude_on_path(tmp_path, monkeypatch, "2.1.332")
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py")
    _claude_on_path(tmp_path, monkeypatch, "2.1.328")

    listed = hookman_json("list")
    again = hookman_json("install")

    assert (listed["claude_version"], listed["claude_version_source"]) == (
        "2.1.328",
        "claude --version",
    )
    assert again["held_back"] == {"PreSkillShellCommand": {"since": "2.1.332"}}
    assert "PreSkillShellCommand" not in local_settings(project)["hooks"]


def test_without_claude_on_path_install_list_doctor_and_fire_keep_the_last_target(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One rule: no client answers here now, so the target is what the last install wrote
    for; doctor does not call that stale, and following doctor never drops the skill-shell
    guard."""
    _claude_on_path(tmp_path, monkeypatch, "2.1.332")
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py")
    _claude_on_path(tmp_path, monkeypatch, None)

    listed = hookman_json("list")
    report = hookman_json("doctor")
    again = hookman_json("install")

    assert (listed["claude_version"], listed["claude_version_source"]) == (
        "2.1.332",
        "last install",
    )
    assert "hookman-stale" not in [finding["code"] for finding in report["findings"]]
    assert "target-version-unknown" not in [finding["code"] for finding in report["findings"]]
    assert again["settings_changed"] is False and again["held_back"] == {}
    assert set(local_settings(project)["hooks"]) == {
        "PreToolUse",
        "PreSkillShellCommand",
        "UserPromptSubmit",
    }
    assert "2.1.332 (what the last install wrote for: `claude --version` did not answer)" in (
        hookman("install").stdout
    )


def test_a_dry_run_with_a_flag_is_not_remembered(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _claude_on_path(tmp_path, monkeypatch, None)
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.328")

    hookman_json("install", "--claude-version", "2.1.332", "--dry-run")

    assert hookman_json("list")["claude_version"] == "2.1.328"


def test_a_raw_pre_tool_use_guard_is_warned_that_skill_shell_commands_pass_it(
    project: Path,
) -> None:
    source = 'def hook(pi):\n    pi.on("PreToolUse", lambda event, ctx: None, tools=["Bash"])\n'
    write_hook(project, "raw", source)

    result = hookman_json("install", "hooks/raw.py", *SKILL_SHELL_VERSION)

    assert "PreSkillShellCommand" not in result["written"]
    assert result["warnings"] == [
        "the hook 'raw' guards through raw handlers, which Claude Code does not call for the "
        "inline shell commands (!`cmd`) of skills and slash commands (it sends those to "
        "PreSkillShellCommand): listen to `tool_call` to guard them too, or to "
        "'PreSkillShellCommand' as well."
    ]


def test_a_hook_module_whose_path_is_not_utf8_is_refused_clearly(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / os.fsdecode(b"lib\xff") / "guard.py"
    elsewhere.parent.mkdir()
    elsewhere.write_text(GUARD)
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", *SKILL_SHELL_VERSION)
    monkeypatch.setattr(
        "hookman.install.resolution.module_path", lambda hook, project_dir: elsewhere
    )
    before = snapshot(*_project_files(project))

    result = hookman("install", *SKILL_SHELL_VERSION)

    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"hookman: the module of the hook 'guard', {tmp_path}/lib\\xff/guard.py has a name that "
        "is not valid UTF-8"
    )
    assert snapshot(*_project_files(project)) == before


def test_an_empty_tools_list_is_refused_and_nothing_is_written(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    config = project / ".claude" / "hookman.toml"
    text = '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nevents = ["tool_call"]\n'
    config.write_text(text + "tools = { tool_call = [] }\n")
    settings_path = project / ".claude" / "settings.local.json"
    before = snapshot(config, settings_path, paths.manifest_path(project))

    result = hookman("install", "--project", str(project), "--claude-version", "2.1.328")

    assert result.exit_code == 1
    assert result.output == (
        "hookman: hook 'guard' in .claude/hookman.toml: `tools` gives 'tool_call' an empty list, "
        "which names no tool; name the tools ({ tool_call = [\"Bash\"] }) or leave 'tool_call' "
        "out of `tools` for every tool.\n"
        "  hint: fix .claude/hookman.toml by hand; hookman left it untouched.\n"
    )
    assert snapshot(config, settings_path, paths.manifest_path(project)) == before


def test_install_replaces_an_entry_of_the_older_direct_form(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--project", str(project), *ASYNC_VERSION)
    settings_path = project / ".claude" / "settings.local.json"
    settings = json.loads(settings_path.read_text())
    old = build_direct_command("PreToolUse", paths.manifest_path(project))
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = old
    settings_path.write_text(json.dumps(settings))

    hookman_json("install", "--project", str(project), *ASYNC_VERSION)

    [handler] = local_settings(project)["hooks"]["PreToolUse"][0]["hooks"]
    assert (
        "EXIT; [ -f " in handler["command"]
        and "hookman-run.sh PreToolUse && false || case $? in" in handler["command"]
    )


MISCASED_WARNING = (
    "warning: the hook 'guard' asks for the tool 'bash', but tool names are case-sensitive "
    "and no tool is named so, so it never runs for it: did you mean 'Bash'? Fix the name in "
    "the hook (or in hookman.toml) and run `hookman install`."
)


def test_a_miscased_tool_name_is_flagged_at_install_and_in_list(project: Path) -> None:
    write_hook(project, "guard", GUARD.replace('tools=["Bash"]', 'tools=["bash"]'))

    installed = hookman("install", "hooks/guard.py", *ASYNC_VERSION)
    listed = hookman("list", *ASYNC_VERSION)

    assert installed.exit_code == 0, installed.output
    assert MISCASED_WARNING in installed.stdout.splitlines()
    assert MISCASED_WARNING in listed.stdout.splitlines()
    assert (
        MISCASED_WARNING.removeprefix("warning: ")
        in hookman_json("list", *ASYNC_VERSION)["warnings"]
    )


def test_a_well_cased_or_unknown_tool_name_is_not_flagged(project: Path) -> None:
    write_hook(project, "guard", GUARD.replace('tools=["Bash"]', 'tools=["Bash", "MyTool"]'))

    installed = hookman_json("install", "hooks/guard.py", *ASYNC_VERSION)

    assert not any("case-sensitive" in warning for warning in installed["warnings"])
