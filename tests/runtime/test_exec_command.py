"""pi.exec: argv without a shell, missing programs, timeouts (docs/hook-api.md, `pi.exec`)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from hookman.runtime import ExecResult
from hookman.runtime.exec_command import exec_command

PYTHON = sys.executable


def test_stdout_stderr_and_exit_code_are_reported(tmp_path: Path) -> None:
    script = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    result = exec_command(PYTHON, ["-c", script], str(tmp_path))
    assert result == ExecResult("out\n", "err\n", 3, False)


def test_arguments_are_passed_verbatim_without_a_shell(tmp_path: Path) -> None:
    tricky = ["$HOME", "a b", "; rm -rf /", "*", "'quoted'"]
    result = exec_command(PYTHON, ["-c", "import sys; print(sys.argv[1:])", *tricky], str(tmp_path))
    assert result.stdout.strip() == repr(tricky)


def test_cwd_is_where_the_program_runs(tmp_path: Path) -> None:
    result = exec_command(PYTHON, ["-c", "import os; print(os.getcwd())"], str(tmp_path))
    assert result.stdout.strip() == str(tmp_path)


def test_stdin_is_closed(tmp_path: Path) -> None:
    result = exec_command(
        PYTHON, ["-c", "import sys; print(repr(sys.stdin.read()))"], str(tmp_path)
    )
    assert result.stdout.strip() == "''"


def test_a_missing_program_resolves_with_127_and_the_reason(tmp_path: Path) -> None:
    result = exec_command("hookman-no-such-program", ["x"], str(tmp_path))
    assert result.code == 127
    assert result.killed is False
    assert result.stdout == ""
    assert "hookman-no-such-program" in result.stderr


def test_a_file_that_is_not_executable_resolves_with_126(tmp_path: Path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    result = exec_command(str(script), [], str(tmp_path))
    assert result.code == 126
    assert "Permission denied" in result.stderr


def test_a_missing_cwd_is_reported_not_raised(tmp_path: Path) -> None:
    result = exec_command(PYTHON, ["-c", "pass"], str(tmp_path / "gone"))
    assert result.code != 0
    assert "gone" in result.stderr


def test_undecodable_output_is_replaced_not_raised(tmp_path: Path) -> None:
    script = "import sys; sys.stdout.buffer.write(b'ok \\xff\\xfe')"
    assert exec_command(PYTHON, ["-c", script], str(tmp_path)).stdout == "ok \ufffd\ufffd"


def test_a_timeout_terminates_the_program_and_reports_killed(tmp_path: Path) -> None:
    started = time.monotonic()
    result = exec_command(
        PYTHON,
        ["-c", "import time; print('started', flush=True); time.sleep(30)"],
        str(tmp_path),
        timeout=0.5,
    )
    assert result.killed is True
    assert result.code != 0
    assert result.stdout == "started\n"  # what it wrote before the kill is kept
    assert time.monotonic() - started < 10


def test_a_program_ignoring_sigterm_is_killed_after_the_grace_period(tmp_path: Path) -> None:
    script = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print('ready', flush=True); time.sleep(30)"
    )
    started = time.monotonic()
    result = exec_command(PYTHON, ["-c", script], str(tmp_path), timeout=0.5, kill_grace=0.3)
    assert result.killed is True
    assert result.code == -9
    assert time.monotonic() - started < 10


def test_a_timeout_also_ends_the_programs_children(tmp_path: Path) -> None:
    script = "import subprocess, sys; subprocess.run(['sleep', '30'])"
    started = time.monotonic()
    result = exec_command(PYTHON, ["-c", script], str(tmp_path), timeout=0.5)
    assert result.killed is True
    assert time.monotonic() - started < 10


def test_a_fast_program_with_a_timeout_is_not_killed(tmp_path: Path) -> None:
    assert exec_command(PYTHON, ["-c", "pass"], str(tmp_path), timeout=30).killed is False


@pytest.mark.parametrize("timeout", [0, -1])
def test_a_non_positive_timeout_is_refused(tmp_path: Path, timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout"):
        exec_command(PYTHON, [], str(tmp_path), timeout=timeout)
