"""The plugin launcher and start.py: every way the runner cannot answer is a deny on a
guarded event, and a too-old python3 is told what to install."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hookman.bridge.protocol import GUARDED_DONE_STATUS
from hookman.plugin.launcher import (
    hook_command,
    plugin_launcher_text,
    start_text,
)
from hookman.project.launcher import launcher_text
from tests.client_shell import as_client

GUARDED = ["PreToolUse", "PreSkillShellCommand"]


def write_plugin(tmp_path: Path, start: str | None = None) -> Path:
    runner = tmp_path / "plug dir $x" / "hookman-runner"
    runner.mkdir(parents=True)
    (runner / "run.sh").write_text(plugin_launcher_text("p", GUARDED))
    (runner / "start.py").write_text(start if start is not None else start_text("p", GUARDED))
    return runner


def launch(runner: Path, event: str, path: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        as_client("/bin/sh", str(runner / "run.sh"), event, *extra),
        input="{}",
        capture_output=True,
        text=True,
        env={"PATH": path},
        timeout=60,
        check=False,
    )


def test_the_project_launcher_stays_the_projects() -> None:
    text = launcher_text("/usr/bin/python3", Path("/s/manifest.json"), GUARDED, root="/r")
    assert "python=/usr/bin/python3\nroot=/r\nmanifest=/s/manifest.json\nanswers=/s\n" in text
    assert "Run `hookman install` in the project" in text
    assert "plugin" not in text


def test_a_runner_that_dies_is_a_deny_naming_its_status(tmp_path: Path) -> None:
    runner = write_plugin(tmp_path, start="import os\nos._exit(9)\n")
    done = launch(runner, "PreToolUse", "/usr/bin:/bin")
    assert done.returncode == GUARDED_DONE_STATUS
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "gave no answer (exit status 9)" in reason
    assert "Python 3.10 or newer" in reason


def test_no_python3_on_path_is_a_deny_saying_what_to_install(tmp_path: Path) -> None:
    runner = write_plugin(tmp_path)
    done = launch(runner, "PreSkillShellCommand", "/nonexistent")
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PreSkillShellCommand"
    assert (
        "no `python3` on PATH: install Python 3.10 or newer" in answer["permissionDecisionReason"]
    )
    notice = launch(runner, "SessionStart", "/nonexistent")
    assert "no `python3` on PATH" in json.loads(notice.stdout)["systemMessage"]
    assert launch(runner, "PostToolUse", "/nonexistent", "--async").stdout == ""


def test_a_python3_older_than_3_10_gets_a_deny_saying_what_to_install(tmp_path: Path) -> None:
    start = start_text("p", GUARDED)
    pretend = "import sys\nsys.version_info = (3, 9, 18)\n" + start
    runner = write_plugin(tmp_path, start=pretend)
    done = launch(runner, "PreToolUse", "/usr/bin:/bin")
    assert done.returncode == GUARDED_DONE_STATUS
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "needs Python 3.10 or newer" in reason and "install Python 3.10" in reason
    assert not list(runner.parent.parent.glob("**/.answer-*"))


def test_start_py_parses_as_python_2_syntax_would() -> None:
    text = start_text("p", GUARDED)
    assert "f'" not in text and 'f"' not in text  # no f-strings
    compile(text, "start.py", "exec")


def test_a_missing_launcher_makes_the_command_block(tmp_path: Path) -> None:
    command = hook_command("p", "PreToolUse", guarded=True)
    done = subprocess.run(
        ["sh", "-c", command],
        env={"PATH": "/usr/bin:/bin", "CLAUDE_PLUGIN_ROOT": str(tmp_path / "gone")},
        input="{}",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2  # exit 2 blocks a guarded call whatever stdout holds
    assert done.stdout == ""
    assert "the launcher of the plugin p is missing or broken" in done.stderr


@pytest.mark.parametrize("shellopts", ["errexit", "errexit:nounset"])
def test_the_command_denies_under_the_users_shell_options(tmp_path: Path, shellopts: str) -> None:
    runner = write_plugin(tmp_path, start="import os\nos._exit(9)\n")
    done = subprocess.run(
        ["bash", "-c", hook_command("p", "PreToolUse", guarded=True)],
        env={
            "PATH": "/usr/bin:/bin",
            "CLAUDE_PLUGIN_ROOT": str(runner.parent),
            "SHELLOPTS": shellopts,
        },
        input="{}",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
