"""Issue 23, class 5: time spent before the runner's clock starts. A python3 that is a
version manager's shim (sleeping, then exec-ing or forking the real interpreter) and a
BASH_ENV that takes seconds (Codex runs `/bin/bash -c`, which reads it) use up the entry's
timeout before the runner starts: the deadline must count from when the client started the
command, so a guard that hangs is still denied before the client's kill, and a start so slow
that too little is left denies at once, saying where the time went.

Through the exact commands (settings.local.json's under each shell of the family as `sh`,
Codex's `/bin/bash -c` with that `sh` inside), judged as each client reads the result, with
generous margins: a short entry timeout, slow conditions of seconds, and only "denied before
the timeout" asserted."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from .attack_support import ALLOW, DENY, guard_that
from .clock_support import (
    TIMED,
    claude_judge,
    family_shell,
    outer_argv,
    run_command,
    sh_dir,
)
from .conftest import RunnerProject
from .test_attack_codex import codex_verdict

TIMEOUT = 6  # the entry's timeout (deadline 5 s)
SLOW_START = 2.5  # seconds the shim or BASH_ENV takes: 2.5 + 5 s would pass the timeout
LATE_TIMEOUT = 8  # deadline 7 s
LATE_START = 6.2  # leaves less than 1 s of the deadline: no hook runs
SHIM_TIMEOUT = 4
SLOWER_SHIM = 6  # seconds: no runner starts before the client's kill
MARKS = """
import os
def hook(pi):
    @pi.on("tool_result")
    def mark(event, ctx):
        open(os.environ["HOOKMAN_TEST_MARK"], "w").close()
"""
HANGS_ON_RM = guard_that(
    "open(os.environ['HOOKMAN_TEST_MARK'], 'w').close()\n"
    "if 'rm' not in event['input'].get('command', ''):\n    return None\ntime.sleep(60)"
)


def _python_shim(directory: Path, seconds: float, *, forks: bool) -> str:
    """A python3 that sleeps, then execs (or forks and waits for) the real one."""
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "python3"
    run = f'"{sys.executable}" "$@"' if forks else f'exec "{sys.executable}" "$@"'
    shim.write_text(f"#!/bin/sh\nsleep {seconds}\n{run}\n", encoding="utf-8")
    shim.chmod(0o755)
    return str(shim)


def _project(runner_project: RunnerProject, timeout: int, event: str = "PreToolUse") -> None:
    if event == "PreToolUse":
        runner_project.add_hook("guard", HANGS_ON_RM, ["tool_call"], [event])
    else:
        runner_project.add_hook("mark", MARKS, ["tool_result"], [event])
    runner_project.entries[event] = {"matcher": None, "timeout": timeout, "deadline": timeout - 1}
    runner_project.write_manifest()


def _rm(project: RunnerProject, event: str = "PreToolUse") -> dict[str, Any]:
    return project.payload(event, tool_name="Bash", tool_input={"command": "rm -rf /"})


def _env(tmp_path: Path, shell: str, **more: str) -> dict[str, str]:
    path = f"{sh_dir(shell, tmp_path)}{os.pathsep}{os.environ.get('PATH', '')}"
    mark = str(tmp_path / "hook-ran")
    return {**os.environ, "PATH": path, "HOOKMAN_TEST_MARK": mark, **more}


def _claude(project: RunnerProject, tmp_path: Path, name: str, timeout: float, event: str):
    shell = family_shell(name)
    argv = outer_argv(project, event, sh_dir(shell, tmp_path) / "sh", codex=False)
    return run_command(
        argv,
        _rm(project, event),
        cwd=project.root,
        env=_env(tmp_path, shell),
        timeout=timeout,
        judge=claude_judge(event),
    )


def _codex(project: RunnerProject, tmp_path: Path, name: str, timeout: float, bash_env: Path):
    shell = family_shell(name)
    argv = outer_argv(project, "PreToolUse", sh_dir(shell, tmp_path) / "sh", codex=True)
    return run_command(
        argv,
        _rm(project),
        cwd=project.root,
        env=_env(tmp_path, shell, BASH_ENV=str(bash_env)),
        timeout=timeout,
        judge=codex_verdict,
    )


def _slow_bash_env(tmp_path: Path, seconds: float) -> Path:
    bash_env = tmp_path / "slow-bash-env.sh"
    bash_env.write_text(f"sleep {seconds}\n", encoding="utf-8")
    return bash_env


@pytest.mark.parametrize("name", TIMED)
def test_a_python_shim_that_forks_the_interpreter_counts_against_the_deadline(
    runner_project: RunnerProject, tmp_path: Path, name: str
) -> None:
    """Today the runner counts its 5 s from its own start, 2.5 s late (the shim is another
    process, its parent): the client's kill at 6 s comes first and the tool runs. The walk up
    from the runner passes over the shim, which does not name the launcher."""
    _project(runner_project, TIMEOUT)
    runner_project.launcher_python = _python_shim(tmp_path / "shim", SLOW_START, forks=True)
    runner_project.write_launcher()
    timed = _claude(runner_project, tmp_path, name, TIMEOUT, "PreToolUse")
    assert timed.verdict.decision == DENY, timed.verdict
    assert "deadline" in timed.verdict.why, timed.verdict


def test_a_python_shim_that_execs_the_interpreter_counts_against_the_deadline(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    """An exec keeps the process the launcher forked, so its start counts (it did before
    issue 23 too: this one guards against counting from the interpreter's own start)."""
    _project(runner_project, TIMEOUT)
    runner_project.launcher_python = _python_shim(tmp_path / "shim", SLOW_START, forks=False)
    runner_project.write_launcher()
    timed = _claude(runner_project, tmp_path, "dash", TIMEOUT, "PreToolUse")
    assert timed.verdict.decision == DENY, timed.verdict


@pytest.mark.parametrize("name", TIMED)
def test_a_slow_bash_env_counts_against_codex_s_deadline(
    runner_project: RunnerProject, tmp_path: Path, name: str
) -> None:
    _project(runner_project, TIMEOUT)
    timed = _codex(runner_project, tmp_path, name, TIMEOUT, _slow_bash_env(tmp_path, SLOW_START))
    assert timed.verdict.decision == DENY, timed.verdict


def _assert_refused_late(project: RunnerProject, tmp_path: Path, why: str) -> None:
    assert "before hookman's runner started" in why, why
    assert not (tmp_path / "hook-ran").exists()  # no hook ran
    records = project.log_records()
    assert [record["outcome"] for record in records] == ["timeout"], records
    assert "before hookman's runner started" in records[0]["notices"][0], records


@pytest.mark.parametrize("name", ["dash", "bash", "mksh"])
def test_a_start_that_leaves_too_little_time_is_denied_at_once(
    runner_project: RunnerProject, tmp_path: Path, name: str
) -> None:
    _project(runner_project, LATE_TIMEOUT)
    runner_project.launcher_python = _python_shim(tmp_path / "shim", LATE_START, forks=False)
    runner_project.write_launcher()
    timed = _claude(runner_project, tmp_path, name, LATE_TIMEOUT, "PreToolUse")
    assert timed.verdict.decision == DENY, timed.verdict
    _assert_refused_late(runner_project, tmp_path, timed.verdict.why)


def test_a_bash_env_that_leaves_too_little_time_is_a_codex_deny_at_once(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    _project(runner_project, LATE_TIMEOUT)
    bash_env = _slow_bash_env(tmp_path, LATE_START)
    timed = _codex(runner_project, tmp_path, "dash", LATE_TIMEOUT, bash_env)
    assert timed.verdict.decision == DENY, timed.verdict
    _assert_refused_late(runner_project, tmp_path, timed.verdict.why)


def test_an_observe_only_event_started_too_late_ends_quietly(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    """No hook runs and the answer is `{}` (nothing for the model or the user to read); the
    firing log says why."""
    _project(runner_project, LATE_TIMEOUT, event="PostToolUse")
    runner_project.launcher_python = _python_shim(tmp_path / "shim", LATE_START, forks=False)
    runner_project.write_launcher()
    timed = _claude(runner_project, tmp_path, "dash", LATE_TIMEOUT, "PostToolUse")
    assert timed.verdict.decision == ALLOW, timed.verdict
    assert timed.verdict.answer == {}, timed.verdict
    _assert_refused_late(runner_project, tmp_path, "before hookman's runner started")


def test_a_command_older_than_its_timeout_counts_from_the_runner_s_start(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    """No client still waits for a command older than the entry's timeout (it kills it
    then): one is the launcher run by hand or from a script, whose runner gets its whole
    deadline from its own start instead of a deny for time it did not lose."""
    _project(runner_project, TIMEOUT)
    shell = family_shell("dash")
    sh = sh_dir(shell, tmp_path) / "sh"
    argv = [str(sh), "-c", f"sleep {TIMEOUT + 1}; {runner_project.command('PreToolUse')}; :"]
    harmless = runner_project.payload("PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    timed = run_command(
        argv,
        harmless,
        cwd=runner_project.root,
        env=_env(tmp_path, shell),
        timeout=3 * TIMEOUT,
        judge=claude_judge("PreToolUse"),
    )
    assert timed.verdict.decision == ALLOW, timed.verdict


# The launcher starts the runner under a timer of its own (timeout(1), counting from the
# client's command), so a python3 shim slower than the entry's timeout is killed before it
# and the launcher denies.
@pytest.mark.parametrize("name", TIMED)
def test_a_python_shim_slower_than_the_timeout_is_denied_before_it(
    runner_project: RunnerProject, tmp_path: Path, name: str
) -> None:
    """No Python clock exists while the shim runs (a version manager's shim can take 45 s):
    only the launcher can answer in time."""
    _project(runner_project, SHIM_TIMEOUT)
    runner_project.launcher_python = _python_shim(tmp_path / "shim", SLOWER_SHIM, forks=False)
    runner_project.write_launcher()
    timed = _claude(runner_project, tmp_path, name, SHIM_TIMEOUT, "PreToolUse")
    assert timed.verdict.decision == DENY, timed.verdict
