"""The watchdog outside the runner: it kills the runner's process group at the hard stop
even when the runner is stopped, and leaves at once when the runner ends first."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from hookman.bridge.command_start import seconds_since_start

from .conftest import RunnerProject

# A runner stand-in: leads its own group, arms the watchdog, reports the watchdog's pid
# (its only child), then does what the test asks.
_RUNNER = """
import os, signal, sys, time
from hookman.bridge import watchdog
from hookman.bridge.watchdog import start_watchdog
if {forked}:
    watchdog._BASH_PATHS = ()  # no bash: the forked form
if {reused}:  # the start recorded is not the group leader's at the kill: as when the
    # runner ended, its group emptied and a new process was given its id
    real, calls = watchdog._start_of, []
    def recorded_wrong(pid):
        calls.append(pid)
        return "1" if len(calls) == 1 else real(pid)
    watchdog._start_of = recorded_wrong
os.setpgid(0, 0)
armed = start_watchdog({seconds})
children = open(f"/proc/{{os.getpid()}}/task/{{os.getpid()}}/children").read().split()
print(armed, *children, flush=True)
{then}
"""


FORMS = pytest.mark.parametrize("forked", [False, True], ids=["spawned bash", "forked"])


def _runner(
    seconds: float, then: str, forked: bool = False, reused: bool = False
) -> subprocess.Popen[str]:
    code = _RUNNER.format(seconds=seconds, then=then, forked=forked, reused=reused)
    code = textwrap.dedent(code)
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


@FORMS
def test_a_stopped_runner_and_its_group_are_killed_at_the_hard_stop(forked: bool) -> None:
    runner = _runner(0.5, "os.kill(os.getpid(), signal.SIGSTOP)", forked)
    assert runner.stdout is not None
    armed, watchdog = runner.stdout.readline().split()
    started = time.monotonic()

    status = runner.wait(timeout=10)

    assert armed == "started"
    assert status == -signal.SIGKILL
    assert time.monotonic() - started < 3
    deadline = time.monotonic() + 5
    while _alive(int(watchdog)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(int(watchdog))


@FORMS
def test_the_watchdog_kills_no_group_whose_id_another_process_was_given(forked: bool) -> None:
    runner = _runner(0.5, "os.kill(os.getpid(), signal.SIGSTOP)", forked, reused=True)
    assert runner.stdout is not None
    armed, watchdog = runner.stdout.readline().split()
    try:
        deadline = time.monotonic() + 10
        while _alive(int(watchdog)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert armed == "started"
        assert not _alive(int(watchdog))  # its time is up: it checked and left
        assert runner.poll() is None  # the process it found there lives
    finally:
        os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()


@FORMS
def test_the_watchdog_leaves_as_soon_as_the_runner_ends(forked: bool) -> None:
    runner = _runner(30, "os._exit(0)", forked)
    assert runner.stdout is not None
    armed, watchdog = runner.stdout.readline().split()
    assert runner.wait(timeout=10) == 0
    deadline = time.monotonic() + 5
    while _alive(int(watchdog)) and time.monotonic() < deadline:
        time.sleep(0.05)

    assert armed == "started"
    assert not _alive(int(watchdog))  # long before its 30 s


@FORMS
def test_the_watchdog_is_not_in_the_group_it_kills(forked: bool) -> None:
    runner = _runner(30, "time.sleep(30)", forked)
    assert runner.stdout is not None
    _, watchdog = runner.stdout.readline().split()
    try:
        assert os.getpgid(int(watchdog)) == int(watchdog)
        expected = (lambda name: b"python" in name) if forked else (lambda name: name == b"bash")
        deadline = time.monotonic() + 10  # a spawned watchdog may not have run exec yet
        program = _program(watchdog)
        while not expected(program) and time.monotonic() < deadline:
            time.sleep(0.02)
            program = _program(watchdog)
        assert expected(program), program
        assert os.getpgid(runner.pid) == runner.pid
    finally:
        os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()


def _program(pid: str) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as handle:
        return os.path.basename(handle.read().split(b"\0")[0])


def test_no_watchdog_for_a_process_that_does_not_lead_its_group() -> None:
    # the kill would reach whoever leads the group: the launcher and the client's shell
    code = "from hookman.bridge.watchdog import start_watchdog; print(start_watchdog(5))"
    done = subprocess.run(
        ["sh", "-c", f"{sys.executable} -c {code!r}; true"],
        capture_output=True,
        text=True,
        timeout=30,
        start_new_session=True,
        check=False,
    )

    assert done.stdout == "not-leader\n"


def test_seconds_since_start_counts_from_the_fork() -> None:
    code = (
        "from hookman.bridge.command_start import seconds_since_start; print(seconds_since_start())"
    )
    done = subprocess.run(
        ["sh", "-c", f"sleep 1; exec {sys.executable} -c {code!r}"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )

    assert 0.9 <= float(done.stdout) < 10
    assert 0 <= seconds_since_start() < 600


GROUP_REPORTER = """
import os
def hook(pi):
    def report(event, ctx):
        leads = os.getpgrp() == os.getpid()
        return {"hookSpecificOutput": {"additionalContext": "leads its group: %s" % leads}}
    pi.on("PreToolUse", report)
    pi.on("PostToolUse", report)
"""


def test_only_a_guarded_event_runner_leads_its_own_group(runner_project: RunnerProject) -> None:
    runner_project.add_hook(
        "reporter", GROUP_REPORTER, ["PreToolUse", "PostToolUse"], ["PreToolUse", "PostToolUse"]
    )

    guarded = runner_project.answer_installed("PreToolUse", runner_project.payload("PreToolUse"))
    other = runner_project.answer_installed("PostToolUse", runner_project.payload("PostToolUse"))

    # A guarded runner is out of reach of a hook's group signal (and gets the watchdog);
    # any other stays in the client's group, where the client's kill at its timeout reaches it.
    assert guarded["hookSpecificOutput"]["additionalContext"] == "leads its group: True"
    assert other["hookSpecificOutput"]["additionalContext"] == "leads its group: False"
