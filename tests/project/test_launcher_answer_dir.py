"""Issue 23, class 6, the launcher's part: where its answer file may lie, and what it says when
the runner refuses one. In a directory another user can write without the sticky bit (a
shared, non-sticky `$TMPDIR`) the file the launcher makes with noclobber, then opens again
by name for the runner, could be swapped for a link in between: the launcher takes a pipe
instead. The runner's own refusal (status 71) is said as its cause and its fix (TMPDIR)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from bridge.conftest import RunnerProject

from hookman.bridge.protocol import UNSAFE_ANSWER_FILE_STATUS
from hookman.bridge.run_command import EXIT_UNSAFE_ANSWER_FILE

ANSWER = "printf 'hookman:answer-start\\n{}\\nhookman:answer-complete\\n'"


def _fake_python(directory: Path, body: str) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    fake = directory / "python3"
    fake.write_text(f"#!/bin/sh\ncat >/dev/null\n{body}\n", encoding="utf-8")
    fake.chmod(0o755)
    return str(fake)


@pytest.fixture
def runner_project(project: Path, hookman_home: Path) -> RunnerProject:
    return RunnerProject(project, hookman_home)


def _without_state_dir(runner_project: RunnerProject) -> None:
    """The launcher's state dir cannot hold its answer file: the next place is $TMPDIR."""
    runner_project.write_manifest()
    runner_project.write_launcher()
    text = runner_project.launcher_path.read_text(encoding="utf-8")
    lines = [
        "answers=/nonexistent/state" if line.startswith("answers=") else line
        for line in text.split("\n")
    ]
    runner_project.launcher_path.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize(("mode", "used"), [(0o777, False), (0o1777, True), (0o700, True)])
def test_the_answer_file_lies_in_tmpdir_only_when_it_is_sticky_or_the_user_s(
    runner_project: RunnerProject, tmp_path: Path, mode: int, used: bool
) -> None:
    runner_project.launcher_python = _fake_python(tmp_path / "bin", ANSWER)
    _without_state_dir(runner_project)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    if not used:
        os.chown(shared, 65534, 65534)  # another user's, writable by all, not sticky
    payload = runner_project.payload("Stop")
    answer = runner_project.answer_installed("Stop", payload, env={"TMPDIR": str(shared)})
    assert answer == {}
    # The fake runner leaves its answer file (the real one unlinks it at once).
    assert bool(list(shared.glob(".hookman-answer-*"))) is used, (oct(mode), used)


def test_posh_which_cannot_test_the_directory_never_uses_tmpdir(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    posh = shutil.which("posh")
    if posh is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("posh is not installed (CI must have it: .ci/run)")
        pytest.skip("posh is not installed")
    runner_project.launcher_python = _fake_python(tmp_path / "bin", ANSWER)
    _without_state_dir(runner_project)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    sh_dir = tmp_path / "sh-is-posh"
    sh_dir.mkdir()
    (sh_dir / "sh").symlink_to(posh)
    env = {"TMPDIR": str(shared), "PATH": f"{sh_dir}:{os.environ['PATH']}"}
    answer = runner_project.answer_installed("Stop", runner_project.payload("Stop"), env=env)
    assert answer == {}
    assert not list(shared.glob(".hookman-answer-*"))


def test_the_runner_s_refusal_of_its_answer_file_is_said_with_its_fix(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    assert UNSAFE_ANSWER_FILE_STATUS == EXIT_UNSAFE_ANSWER_FILE
    runner_project.launcher_python = _fake_python(tmp_path / "bin", "exit 71")
    runner_project.write_manifest()
    runner_project.write_launcher()
    payload = runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    answer = runner_project.answer_installed("PreToolUse", payload)
    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "another user can write" in reason and "TMPDIR" in reason, reason
    notice = runner_project.answer_installed("Stop", runner_project.payload("Stop"))
    assert "another user can write" in notice["systemMessage"], json.dumps(notice)
