"""What happens before the runner's clock starts and around its answer channel, through the
exact settings command under `sh` and `bash` (issue classes 2, 3, 4 and 7): stalls in the
interpreter's start (a blocking `.pth`, a `sitecustomize` on PYTHONPATH), FIFOs where the
manifest, the launcher or an answer file should be, files planted at the answer file's
name, an entry timeout lowered by hand, and a watchdog shell that is not bash. Each ends in
a deny before the client's kill, and no runner outlives it."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from .attack_support import (
    BASH,
    DENY,
    SHORT_TIMEOUT,
    guard_that,
    make_base_venv,
    run_like_claude_code,
    short_timeout,
    venv_with_pth,
)
from .conftest import RunnerProject

SHELLS = ["sh", BASH]
SHELL_IDS = ["sh", "bash"]
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
    short_timeout(runner_project)
    return runner_project


def _rm_rf(project: RunnerProject) -> dict:
    return project.payload("PreToolUse", tool_input={"command": "rm -rf /"})


def _runners_of(project: RunnerProject) -> list[int]:
    """Live processes whose command line names this project's manifest (its runners)."""
    found = []
    needle = str(project.manifest_path).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if needle in handle.read():
                    with open(f"/proc/{entry}/stat", "rb") as stat:
                        if stat.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                            found.append(int(entry))
        except OSError:
            continue
    return found


def _assert_no_runner_outlives_the_kill(project: RunnerProject) -> None:
    give_up = time.monotonic() + 5
    while _runners_of(project) and time.monotonic() < give_up:
        time.sleep(0.05)
    assert _runners_of(project) == []


# --- class 2: stalls before the runner's clock starts ---------------------------------------


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
def test_a_blocking_pth_in_the_venv_is_denied_in_time(
    guarded: RunnerProject, tmp_path: Path, base_venv: Path, shell: str
) -> None:
    guarded.launcher_python = venv_with_pth(
        base_venv, tmp_path / "venv", "import time; time.sleep(3600)"
    )
    guarded.write_launcher()

    verdict = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), shell=shell)

    assert verdict.decision == DENY, verdict
    _assert_no_runner_outlives_the_kill(guarded)


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
@pytest.mark.parametrize(
    "code",
    ["import time; time.sleep(3600)", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"],
    ids=["sleeps", "stops itself"],
)
def test_a_sitecustomize_on_pythonpath_that_stalls_is_denied_in_time(
    guarded: RunnerProject, tmp_path: Path, shell: str, code: str
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(code + "\n", encoding="utf-8")

    verdict = run_like_claude_code(
        guarded, "PreToolUse", _rm_rf(guarded), env={"PYTHONPATH": str(site)}, shell=shell
    )

    assert verdict.decision == DENY, verdict
    _assert_no_runner_outlives_the_kill(guarded)


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
@pytest.mark.parametrize("where", ["manifest", "launcher"])
def test_a_fifo_where_a_state_file_should_be_is_denied_in_time(
    guarded: RunnerProject, shell: str, where: str
) -> None:
    path = guarded.manifest_path if where == "manifest" else guarded.launcher_path
    path.unlink()
    os.mkfifo(path)

    verdict = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), shell=shell)

    assert verdict.decision == DENY, verdict
    _assert_no_runner_outlives_the_kill(guarded)


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
def test_pythons_variables_cannot_run_code_before_the_clock(
    guarded: RunnerProject, tmp_path: Path, shell: str
) -> None:
    startup = tmp_path / "startup.py"
    startup.write_text("import time; time.sleep(3600)\n", encoding="utf-8")
    env = {
        "PYTHONSTARTUP": str(startup),
        "PYTHONINSPECT": "1",
        "PYTHONWARNINGS": "error",
        "PYTHONHOME": str(tmp_path / "no-such-home"),
        "PYTHONSAFEPATH": "",
        "PYTHONPLATLIBDIR": "nowhere",
    }

    verdict = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), env=env, shell=shell)

    assert verdict.decision == DENY, verdict
    assert "rm -rf is not allowed" in verdict.why  # the guard itself decided


# --- class 3: the answer channel belongs to one invocation ----------------------------------


def _next_pids(count: int) -> range:
    with open("/proc/sys/kernel/ns_last_pid") as handle:
        last = int(handle.read())
    return range(last + 1, last + 1 + count)


def _plant_at_answer_names(directories: list[Path], kind: str) -> None:
    """Something at every name an answer file of the next launchers could get (their pid
    is not known: every pid that may come next), in the format-3 and format-2 schemes."""
    forged = b"hookman:answer-start\n{}\nhookman:answer-complete\n"
    for directory in directories:
        for pid in _next_pids(400):
            for name in (f".hookman-answer-{pid}-0", f".answer-{pid}", f".hookman-answer-{pid}"):
                path = directory / name
                if kind == "fifo":
                    os.mkfifo(path)
                elif kind == "forged allow":
                    path.write_bytes(forged)
                else:
                    path.symlink_to(directory / "elsewhere")


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
@pytest.mark.parametrize("kind", ["fifo", "forged allow", "symlink"])
def test_a_file_planted_at_the_answer_name_never_becomes_the_answer(
    guarded: RunnerProject, tmp_path: Path, shell: str, kind: str
) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    _plant_at_answer_names([guarded.state_dir, temporary], kind)

    verdict = run_like_claude_code(
        guarded, "PreToolUse", _rm_rf(guarded), env={"TMPDIR": str(temporary)}, shell=shell
    )

    assert verdict.decision == DENY, verdict
    assert "rm -rf is not allowed" in verdict.why  # the runner's own answer, not a planted one
    if kind == "forged allow":
        assert not (temporary / "elsewhere").exists()


# --- class 4: the timeout that counts is the entry's ----------------------------------------

SLOW_GUARD = guard_that("time.sleep(3600)")


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
def test_an_entry_timeout_lowered_by_hand_still_gets_a_deny_before_the_kill(
    runner_project: RunnerProject, shell: str
) -> None:
    runner_project.add_hook("slow", SLOW_GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"] = {"matcher": None, "timeout": 60, "deadline": 54.0}
    runner_project.write_manifest()
    lowered = 5
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": runner_project.command("PreToolUse"),
                            "timeout": lowered,
                        }
                    ]
                }
            ]
        }
    }
    (runner_project.root / ".claude").mkdir(exist_ok=True)
    (runner_project.root / ".claude" / "settings.local.json").write_text(json.dumps(settings))

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", _rm_rf(runner_project), shell=shell, timeout=lowered
    )

    assert verdict.decision == DENY, verdict
    assert "'slow'" in verdict.why
    _assert_no_runner_outlives_the_kill(runner_project)


# --- class 7: a watchdog that does not work --------------------------------------------------

_BOOT = """
import os, sys
paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
sys.path[0:0] = paths
import site; site.main()
import hookman.bridge.watchdog as watchdog
watchdog._BASH_PATHS = ({shell!r},)  # `bash` is this shell
code_at = sys.argv.index("-c")
code, rest = sys.argv[code_at + 1], sys.argv[code_at + 2:]
sys.argv = ["-c", *rest]
exec(compile(code, "<launcher>", "exec"))
"""


def _python_whose_bash_is(tmp_path: Path, shell_path: str) -> str:
    boot = tmp_path / "boot.py"
    boot.write_text(_BOOT.format(shell=shell_path), encoding="utf-8")
    wrapper = tmp_path / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S {boot} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.mark.parametrize("shell", SHELLS, ids=SHELL_IDS)
@pytest.mark.parametrize("fake_bash", ["dash", "true"])
def test_a_watchdog_shell_that_is_not_bash_is_replaced_before_any_hook_runs(
    runner_project: RunnerProject, tmp_path: Path, shell: str, fake_bash: str
) -> None:
    fake = shutil.which(fake_bash)
    assert fake is not None
    stops = guard_that("os.kill(os.getpid(), signal.SIGSTOP)")
    runner_project.add_hook("stops", stops, ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)
    runner_project.launcher_python = _python_whose_bash_is(tmp_path, fake)
    runner_project.write_launcher()

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", _rm_rf(runner_project), shell=shell
    )

    assert verdict.decision == DENY, verdict
    _assert_no_runner_outlives_the_kill(runner_project)
    assert SHORT_TIMEOUT  # the entry's timeout the verdict was reached within
