"""The user's shell and interpreter start-up against a guard, through the exact settings
command under `sh` and `bash` (issue classes 1 and 8): shell options from SHELLOPTS, start-up
files that turn on errexit or print, and interpreter start-up code that writes to stdout
before the answer. The deny must reach the client whatever they bring; only the answer may
be on stdout."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .attack_support import (
    ALLOW,
    BASH,
    DENY,
    TOOL_RUNS,
    guard_that,
    make_base_venv,
    run_like_claude_code,
    venv_with_pth,
)
from .conftest import RunnerProject

SHELLS = ["sh", BASH]
RM_GUARD = guard_that(
    "if 'rm -rf' not in event['input'].get('command', ''):\n    return None",
    then="return {'block': True, 'reason': 'rm -rf is not allowed'}",
)


@pytest.fixture(scope="module")
def base_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_base_venv(tmp_path_factory.mktemp("venv") / "base")


@pytest.fixture
def guarded(runner_project: RunnerProject) -> RunnerProject:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    return runner_project


def _rm_rf(project: RunnerProject) -> dict:
    return project.payload("PreToolUse", tool_input={"command": "rm -rf /"})


def _ls(project: RunnerProject) -> dict:
    return project.payload("PreToolUse", tool_input={"command": "ls"})


def _start_up_file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "start-up.sh"
    path.write_text(body + "\n", encoding="utf-8")
    return str(path)


def _sh_is_bash(tmp_path: Path) -> str:
    """A PATH on which `sh` is bash (as on macOS), so the launcher runs under bash too."""
    directory = tmp_path / "sh-is-bash"
    directory.mkdir(exist_ok=True)
    link = directory / "sh"
    if not link.exists():
        link.symlink_to(shutil.which("bash") or "/bin/bash")
    return f"{directory}{os.pathsep}{os.environ['PATH']}"


HOSTILE_SHELLS = {
    "SHELLOPTS errexit": lambda tmp: {"SHELLOPTS": "errexit"},
    "SHELLOPTS errexit:nounset:noclobber": lambda tmp: {"SHELLOPTS": "errexit:nounset:noclobber"},
    "BASH_ENV set -e": lambda tmp: {"BASH_ENV": _start_up_file(tmp, "set -euC")},
    "BASH_ENV prints a line": lambda tmp: {"BASH_ENV": _start_up_file(tmp, "echo welcome")},
    "BASH_ENV prints a brace": lambda tmp: {"BASH_ENV": _start_up_file(tmp, "printf '{'")},
    "BASH_ENV set -e and prints": lambda tmp: {
        "BASH_ENV": _start_up_file(tmp, "set -e; echo hello"),
        "SHELLOPTS": "errexit",
    },
    "sh is bash, errexit": lambda tmp: {"SHELLOPTS": "errexit", "PATH": _sh_is_bash(tmp)},
    "sh is bash, BASH_ENV prints": lambda tmp: {
        "BASH_ENV": _start_up_file(tmp, "echo hi; set -e"),
        "PATH": _sh_is_bash(tmp),
    },
}


@pytest.mark.parametrize("shell", SHELLS, ids=["sh", "bash"])
@pytest.mark.parametrize("hostile", list(HOSTILE_SHELLS.values()), ids=list(HOSTILE_SHELLS))
def test_a_deny_reaches_the_client_whatever_the_shell_brings(
    guarded: RunnerProject, tmp_path: Path, shell: str, hostile
) -> None:
    env = hostile(tmp_path)

    denied = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), env=env, shell=shell)
    allowed = run_like_claude_code(guarded, "PreToolUse", _ls(guarded), env=env, shell=shell)

    assert denied.decision == DENY, denied
    assert "rm -rf is not allowed" in denied.why, denied
    assert allowed.decision in (ALLOW, TOOL_RUNS), allowed  # `ls` runs either way


@pytest.mark.parametrize("shell", SHELLS, ids=["sh", "bash"])
def test_a_broken_launcher_still_denies_under_errexit_and_a_printing_start_up_file(
    guarded: RunnerProject, tmp_path: Path, shell: str
) -> None:
    env = {"SHELLOPTS": "errexit", "BASH_ENV": _start_up_file(tmp_path, "echo hi")}
    guarded.launcher_path.write_text("# emptied\n", encoding="utf-8")

    verdict = run_like_claude_code(guarded, "PreToolUse", _ls(guarded), env=env, shell=shell)

    assert verdict.decision == DENY, verdict
    assert "hookman install" in verdict.why


CHANGES_THE_INPUT = """
def hook(pi):
    pi.on("PreToolUse", lambda event, ctx: {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "updatedInput": {"command": "echo safe"}}})
"""


@pytest.mark.parametrize("shell", SHELLS, ids=["sh", "bash"])
def test_an_answer_that_cannot_be_passed_on_past_a_start_up_file_is_a_deny(
    runner_project: RunnerProject, tmp_path: Path, shell: str
) -> None:
    # changed input that the client would read as plain text: the tool would run unchanged
    runner_project.add_hook("rewrite", CHANGES_THE_INPUT, ["PreToolUse"], ["PreToolUse"])
    env = {"BASH_ENV": _start_up_file(tmp_path, "echo hi")}

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", _rm_rf(runner_project), env=env, shell=shell
    )

    assert verdict.decision == DENY, verdict
    assert "BASH_ENV is set" in verdict.why


# --- class 8: stdout written before the answer -----------------------------------------------

WRITES_BEFORE_THE_ANSWER = {
    "a brace": "import os; os.write(1, b'{')",
    "a whole line": "import os; os.write(1, b'hello\\n')",
    "a fake answer": "import os; os.write(1, b'{}\\nhookman:answer-complete\\n')",
    "print without newline": "import sys; sys.stdout.write('{'); sys.stdout.flush()",
}


@pytest.mark.parametrize("shell", SHELLS, ids=["sh", "bash"])
@pytest.mark.parametrize(
    "code", list(WRITES_BEFORE_THE_ANSWER.values()), ids=list(WRITES_BEFORE_THE_ANSWER)
)
@pytest.mark.parametrize("where", ["sitecustomize on PYTHONPATH", "a .pth in the venv"])
def test_start_up_code_that_writes_to_stdout_cannot_spoil_the_answer(
    guarded: RunnerProject,
    tmp_path: Path,
    base_venv: Path,
    shell: str,
    code: str,
    where: str,
) -> None:
    env: dict[str, str] = {}
    if where.startswith("sitecustomize"):
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(code + "\n", encoding="utf-8")
        env = {"PYTHONPATH": str(site)}
    else:
        guarded.launcher_python = venv_with_pth(base_venv, tmp_path / "venv", code)
        guarded.write_launcher()

    denied = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), env=env, shell=shell)
    allowed = run_like_claude_code(guarded, "PreToolUse", _ls(guarded), env=env, shell=shell)

    assert denied.decision == DENY, denied
    assert "rm -rf is not allowed" in denied.why, denied
    assert allowed.decision == ALLOW and allowed.answer == {}, allowed


@pytest.mark.parametrize("shell", SHELLS, ids=["sh", "bash"])
def test_a_runner_without_an_answer_is_a_deny_past_a_printing_start_up_file(
    guarded: RunnerProject, tmp_path: Path, shell: str
) -> None:
    guarded.launcher_python = str(tmp_path / "gone" / "python3")  # the launcher answers
    guarded.write_launcher()
    env = {"BASH_ENV": _start_up_file(tmp_path, "echo welcome")}

    verdict = run_like_claude_code(guarded, "PreToolUse", _ls(guarded), env=env, shell=shell)

    assert verdict.decision == DENY, verdict
    assert "runner gave no answer (exit status 127)" in verdict.why
