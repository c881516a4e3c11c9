"""Hostile: a hook that stops, starves or kills processes around the runner.

Run as Claude Code runs the entry: detached (its own process group), killed at the entry's
timeout. A stopped or GIL-holding runner can only be answered for from outside it, before
Claude Code's timeout; a hook that signals its own process group reaches the launcher and
the shell too."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from .attack_support import DENY, guard_that, run_like_claude_code, short_timeout
from .conftest import RunnerProject

HANGS_PAST_THE_DEADLINE = {
    # SIGSTOP cannot be caught: the runner, its deadline timer and its backstop thread all
    # stop; the launcher waits for it until Claude Code kills the lot.
    "SIGSTOP to itself": "os.kill(os.getpid(), signal.SIGSTOP)",
    # One C call that holds the GIL: neither the SIGALRM handler nor the backstop thread
    # gets to run Python code until it returns.
    "a long C call holding the GIL": "sum(range(10**10))",
    # SIGALRM blocked, and the backstop thread never gets the GIL from a busy main thread
    "a busy loop with SIGALRM blocked and a huge switch interval": (
        "sys.setswitchinterval(1e6)\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
        "while True: pass"
    ),
}


@pytest.mark.parametrize(
    "body",
    [pytest.param(body, id=name) for name, body in HANGS_PAST_THE_DEADLINE.items()],
)
def test_a_guard_that_stops_or_starves_the_runner_is_denied_in_time(
    runner_project: RunnerProject, body: str
) -> None:
    runner_project.add_hook("guard", guard_that(body), ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict


KILLS_ITS_GROUP = {
    # e.g. a hook cleaning up "everything it started"
    "killpg(getpgrp(), SIGTERM)": "os.killpg(os.getpgrp(), signal.SIGTERM)",
    "kill(0, SIGKILL)": "os.kill(0, signal.SIGKILL)",
    "killpg(0, SIGHUP)": "os.killpg(0, signal.SIGHUP)",
}


@pytest.mark.parametrize("body", list(KILLS_ITS_GROUP.values()), ids=list(KILLS_ITS_GROUP))
def test_an_earlier_hook_that_signals_its_process_group_cannot_pass_a_guard(
    runner_project: RunnerProject, body: str
) -> None:
    runner_project.add_hook("cleanup", guard_that(body, then="pass"), ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("guard", guard_that("pass"), ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict


DEFENDED = {
    # the launcher dies; `|| printf <deny>` in the settings command answers
    "kills the launcher": "os.kill(os.getppid(), signal.SIGKILL)",
    "a real segfault": "ctypes.string_at(0)",
    "SIGALRM blocked, then a busy loop": (
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\nwhile True: pass"
    ),
    "SIGALRM ignored, timer off, then sleeps": (
        "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
        "signal.setitimer(signal.ITIMER_REAL, 0)\ntime.sleep(60)"
    ),
    "SIGPIPE at its default action": (
        "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\nos.kill(os.getpid(), signal.SIGPIPE)"
    ),
    "SIGXFSZ at its default action": (
        "signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\nos.kill(os.getpid(), signal.SIGXFSZ)"
    ),
    "raises a BaseException subclass": "class Odd(BaseException): pass\nraise Odd()",
    "raises SystemExit(0)": "raise SystemExit(0)",
    "overrides sys.exit and os._exit, then ends": (
        "sys.exit = os._exit = lambda *a: None\nos.kill(os.getpid(), signal.SIGKILL)"
    ),
    "recurses without end": "def f(): return f()\nf()",
    "asks for 64 GiB": "b = bytearray(1 << 36)",
    "execs /bin/true": "os.execv('/bin/true', ['true'])",
    # after exec its stdout is the capture file: the answer file's descriptor closed on exec
    "execs a shell that prints a complete allow": (
        "os.execv('/bin/sh', ['sh', '-c', 'printf \"{}\\\\nhookman:answer-complete\\\\n\"'])"
    ),
}


@pytest.mark.parametrize("body", list(DEFENDED.values()), ids=list(DEFENDED))
def test_a_guard_that_ends_or_wedges_the_runner_some_other_way_is_denied_in_time(
    runner_project: RunnerProject, body: str
) -> None:
    runner_project.add_hook("guard", guard_that(body), ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict
    assert verdict.stderr == b"" or b"Killed" in verdict.stderr  # bash reports the dead launcher


def test_a_slow_interpreter_start_is_counted_against_the_deadline(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    slow = tmp_path / "bin" / "python3"
    slow.parent.mkdir()
    slow.write_text(f'#!/bin/sh\nsleep 1.5\nexec {shlex.quote(sys.executable)} "$@"\n')
    slow.chmod(0o755)
    runner_project.launcher_python = str(slow)
    runner_project.add_hook("guard", guard_that("time.sleep(60)"), ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict


def test_a_hook_that_hangs_while_loading_is_denied_in_time(runner_project: RunnerProject) -> None:
    source = "import time\ntime.sleep(60)\n" + guard_that("pass")
    runner_project.add_hook("slow", source, ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict
    assert "'slow'" in verdict.why


PATCHES_THE_EXIT = {
    "then sleeps": "os._exit = lambda *a: None\ntime.sleep(60)",
    "then leaves a non-daemon thread": (
        "os._exit = lambda *a: None\nthreading.Thread(target=time.sleep, args=(60,)).start()"
    ),
}


@pytest.mark.parametrize("body", list(PATCHES_THE_EXIT.values()), ids=list(PATCHES_THE_EXIT))
def test_a_hook_that_replaces_os_exit_cannot_keep_the_runner_alive(
    runner_project: RunnerProject, body: str
) -> None:
    runner_project.add_hook("guard", guard_that(body), ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict


@pytest.mark.xfail(
    strict=True,
    reason="bypass by design: a hook can signal any process of the user, including the "
    "client's shell above the launcher; nothing below the client can answer for a killed "
    "shell",
)
def test_an_earlier_hook_that_kills_the_clients_shell_cannot_pass_a_guard(
    runner_project: RunnerProject,
) -> None:
    # Above the runner: the launcher's timer (timeout(1)) when there is one, the launcher,
    # then the client's shell.
    kills_the_shell = (
        "def parent(pid):\n"
        "    with open(f'/proc/{pid}/stat') as stat:\n"
        "        return int(stat.read().rsplit(')', 1)[1].split()[1])\n"
        "launcher = os.getppid()\n"
        "with open(f'/proc/{launcher}/comm') as comm:\n"
        "    if comm.read().strip() == 'timeout':\n"
        "        launcher = parent(launcher)\n"
        "os.kill(parent(launcher), signal.SIGKILL)"
    )
    runner_project.add_hook(
        "saboteur", guard_that(kills_the_shell, then="pass"), ["tool_call"], ["PreToolUse"]
    )
    runner_project.add_hook("guard", guard_that("pass"), ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict
