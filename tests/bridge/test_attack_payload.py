"""Hostile payloads on stdin, beyond the unreadable ones test_run_command.py covers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time

import pytest

from .attack_support import (
    ALLOW,
    BASH,
    DENY,
    RM_GUARD,
    SHELLS,
    run_like_claude_code,
    short_timeout,
)
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


# Payloads the client never sends but that parse: on a guarded event each is a deny, never
# a tool_call whose input is `{}` (which a guard reading input["command"] would allow).
def _without(payload: dict, key: str) -> dict:
    return {name: value for name, value in payload.items() if name != key}


NEVER_SENT = {
    "tool_input a string": lambda p: {**p, "tool_input": "rm -rf /"},
    "tool_input a list": lambda p: {**p, "tool_input": ["rm", "-rf", "/"]},
    "tool_input null": lambda p: {**p, "tool_input": None},
    "no tool_input": lambda p: _without(p, "tool_input"),
    "tool_name a list": lambda p: {**p, "tool_name": ["Bash"]},
    "tool_name empty": lambda p: {**p, "tool_name": ""},
    "no tool_name": lambda p: _without(p, "tool_name"),
    "Bash without a command": lambda p: {**p, "tool_input": {"cmd": "rm -rf /"}},
    "Bash command a list": lambda p: {**p, "tool_input": {"command": ["rm", "-rf", "/"]}},
    "tool_use_id a number": lambda p: {**p, "tool_use_id": 7},
    "another event's payload": lambda p: {**p, "hook_event_name": "PostToolUse"},
}


@pytest.mark.parametrize("shell", list(SHELLS.values()), ids=list(SHELLS))
@pytest.mark.parametrize("change", list(NEVER_SENT.values()), ids=list(NEVER_SENT))
@pytest.mark.parametrize("event", ["PreToolUse", "PreSkillShellCommand"])
def test_a_payload_the_client_never_sends_is_denied(
    runner_project: RunnerProject, change, event: str, shell: str
) -> None:
    runner_project.claude_version = "2.1.332"
    guard = """
    def hook(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            if "rm" in str(event["input"].get("command")):
                return {"block": True, "reason": "no rm"}
        @pi.on(EVENT)
        def raw(event, ctx):
            return None
    """.replace("EVENT", repr(event))
    runner_project.add_hook("guard", guard, ["tool_call", event], [event])
    payload = change(runner_project.payload(event, tool_input={"command": "rm -rf /"}))

    verdict = run_like_claude_code(runner_project, event, payload, shell=shell)

    assert verdict.decision == DENY, verdict
    subject = "tool call" if event == "PreToolUse" else "shell command"
    assert verdict.why.startswith(f"hookman blocked this {subject} because the {event} payload ")
    assert "Claude Code always sends one" in verdict.why
    record = runner_project.log_records()[-1]
    assert record["outcome"] == "failed-closed"


def test_a_payload_with_every_field_a_guard_reads_still_reaches_the_guards(
    guarded: RunnerProject,
) -> None:
    payload = guarded.payload("PreToolUse", tool_input={"command": "ls"})
    del payload["hook_event_name"]  # fire's payloads often leave it out
    del payload["tool_use_id"]

    verdict = run_like_claude_code(guarded, "PreToolUse", payload)

    assert verdict.decision == ALLOW, verdict
