"""Hostile payloads on stdin, beyond the unreadable ones test_run_command.py covers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time

import pytest

from .attack_support import BASH, DENY, RM_GUARD, run_like_claude_code, short_timeout
from .conftest import RunnerProject


@pytest.fixture
def guarded(runner_project: RunnerProject) -> RunnerProject:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    return runner_project


def _rm_rf_text(project: RunnerProject) -> str:
    return json.dumps(project.payload("PreToolUse", tool_input={"command": "rm -rf /"}))


PAYLOADS = {
    "null": lambda project: b"null",
    "true": lambda project: b"true",
    "a number": lambda project: b"42",
    "a byte-order mark first": lambda project: b"\xef\xbb\xbf" + _rm_rf_text(project).encode(),
    "UTF-16": lambda project: _rm_rf_text(project).encode("utf-16"),
    # JSON.stringify never writes these, but Python's parser takes them: the guard still
    # sees the command
    "NaN and Infinity beside the command": lambda project: (
        _rm_rf_text(project)
        .replace('"tool_name"', '"x": NaN, "y": -Infinity, "tool_name"')
        .encode()
    ),
    "10 MB command": lambda project: json.dumps(
        project.payload("PreToolUse", tool_input={"command": "rm -rf /" + " " * 10_000_000})
    ).encode(),
    "escaped command": lambda project: _rm_rf_text(project).replace("rm", "\\u0072m").encode(),
}


@pytest.mark.parametrize("make", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_an_odd_payload_never_lets_rm_through(guarded: RunnerProject, make) -> None:
    verdict = run_like_claude_code(guarded, "PreToolUse", make(guarded))

    assert verdict.decision == DENY, verdict


def test_a_payload_stream_that_never_ends_is_denied_in_time(guarded: RunnerProject) -> None:
    short_timeout(guarded)
    process = subprocess.Popen(
        [BASH, "-c", guarded.command("PreToolUse")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=guarded.root,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(_rm_rf_text(guarded).encode())
    process.stdin.flush()  # and never closed, as a client that forgot to end it
    started = time.monotonic()
    try:
        process.wait(timeout=guarded.entries["PreToolUse"]["timeout"])
        answer = json.loads(process.stdout.read())
    except subprocess.TimeoutExpired:
        answer = {}
    finally:
        with contextlib.suppress(ProcessLookupError):  # the group is gone when all ended
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        process.stdin.close()
        process.stdout.close()

    assert answer.get("hookSpecificOutput", {}).get("permissionDecision") == DENY
    assert time.monotonic() - started < guarded.entries["PreToolUse"]["timeout"]
