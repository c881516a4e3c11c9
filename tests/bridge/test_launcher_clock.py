"""Issue 23, class 5 before Python: a `python3` that is a slow shim (a version manager's can
take 45 s) runs before any clock of the runner's exists, and the client kills the command
at its timeout, which lets the tool run. The launcher starts the runner under timeout(1),
set from the entry's timeout install wrote, counting from the client's shell's start: the
deny comes before the client's kill. Through the exact settings command, each shell of the
family as `sh` (the outer shell too, as Claude Code's `/bin/sh -c`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from . import sh_family
from .attack_support import DENY, claude_verdict, guard_that
from .clock_support import TIMED
from .conftest import RunnerProject

TIMEOUT = 4  # the entry's timeout: the launcher's timer fires at 3.75 s
SHIM_SLEEP = 6  # the shim's start-up, longer than the timeout
# Spent in the client's shell before the launcher starts (a slow start-up file): the timer
# counts it (from the shell's start), or it would fire at 4.75 s, after the client's kill.
BEFORE = "sleep 1; "


def _shell(name: str) -> str:
    path = sh_family.shell_path(name)
    if path is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{name} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{name} is not installed")
    if shutil.which("timeout") is None:
        pytest.skip("no timeout(1) on PATH")
    return path


def _shim(directory: Path, python: str) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "python3"
    shim.write_text(f'#!/bin/sh\nsleep {SHIM_SLEEP}\nexec {python} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return str(shim)


@pytest.mark.parametrize("name", TIMED)
def test_a_python_shim_slower_than_the_timeout_is_denied_before_it(
    runner_project: RunnerProject, tmp_path: Path, name: str
) -> None:
    shell = _shell(name)
    runner_project.add_hook("guard", guard_that("pass"), ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"] = {"matcher": None, "timeout": TIMEOUT, "deadline": 3.0}
    runner_project.write_manifest()
    python = runner_project.launcher_python
    runner_project.launcher_python = _shim(tmp_path / "shim", python)
    runner_project.write_launcher()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "sh").symlink_to(shell)
    payload = runner_project.payload("PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    started = time.monotonic()
    with subprocess.Popen(
        ["sh", "-c", BEFORE + runner_project.command("PreToolUse")],
        executable=shell,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=runner_project.root,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(json.dumps(payload).encode(), timeout=TIMEOUT)
        except subprocess.TimeoutExpired:  # the client's kill: the tool runs
            os.killpg(process.pid, 9)
            process.communicate()
            pytest.fail(f"no answer within the entry's {TIMEOUT} s timeout under {name}")
    elapsed = time.monotonic() - started
    verdict = claude_verdict(process.returncode, out, err, "PreToolUse")
    assert verdict.decision == DENY, (name, verdict)
    assert elapsed < TIMEOUT, elapsed
