"""A full disk where the runner's answer file lives (the state dir and $TMPDIR on a full
tmpfs, in a private mount namespace): the file is made (a name costs no block), the
runner's write of its answer fails with ENOSPC, and it exits NO_SPACE_STATUS. The guarded
call is still denied, and the deny (and the notice elsewhere) names the true cause, a full
disk, not a runner gone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookman.bridge.protocol import NO_SPACE_STATUS

from .attack_support import DENY, claude_verdict, guard_that
from .conftest import RunnerProject

FILL = (
    'mount -t tmpfs -o size=64k tmpfs "$1" && { cat /dev/zero > "$1/fill"; } 2>/dev/null; '
    'exec sh -c "$2"'
)


def _namespace_or_skip() -> None:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        if os.environ.get("CI", "").lower() == "true" and os.geteuid() == 0:
            pytest.fail("unshare is not installed (CI must have it)")
        pytest.skip("needs root and unshare for a private tmpfs")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace here: {probe.stderr!r}")


def _on_full_disk(project: RunnerProject, full: Path) -> None:
    """The launcher makes its answer file in `full` (its state dir's place)."""
    text = project.launcher_path.read_text(encoding="utf-8")
    lines = [
        f"answers={full}" if line.startswith("answers=") else line for line in text.split("\n")
    ]
    project.launcher_path.write_text("\n".join(lines), encoding="utf-8")


def _run_full(
    project: RunnerProject, event: str, payload: dict, full: Path
) -> subprocess.CompletedProcess[bytes]:
    full.mkdir(exist_ok=True)
    _on_full_disk(project, full)
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", FILL, "sh", str(full), project.command(event)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=project.root,
        env={**os.environ, "TMPDIR": str(full)},
        timeout=60,
        check=False,
    )


@pytest.fixture
def full_disk_project(runner_project: RunnerProject) -> RunnerProject:
    _namespace_or_skip()
    guard = guard_that("return None", then="return None")  # allows: only the disk denies
    runner_project.add_hook("guard", guard, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("notes", guard, ["agent_end"], ["Stop"])
    return runner_project


def test_a_full_disk_denies_and_says_so(full_disk_project: RunnerProject, tmp_path: Path) -> None:
    project = full_disk_project
    payload = project.payload("PreToolUse", tool_input={"command": "ls"})
    done = _run_full(project, "PreToolUse", payload, tmp_path / "full")
    verdict = claude_verdict(done.returncode, done.stdout, done.stderr, "PreToolUse")
    assert verdict.decision == DENY, verdict
    assert "the disk is full" in verdict.why, verdict
    assert f"exit status {NO_SPACE_STATUS}" in verdict.why
    assert "may be gone" not in verdict.why


def test_a_full_disk_notice_says_so(full_disk_project: RunnerProject, tmp_path: Path) -> None:
    project = full_disk_project
    done = _run_full(project, "Stop", project.payload("Stop"), tmp_path / "full")
    assert done.returncode == 0, done
    assert "the disk is full" in done.stdout.decode(), done
