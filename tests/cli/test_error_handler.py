from __future__ import annotations

from pathlib import Path

import pytest
import typer

from hookman.cli.error_handler import run_command
from hookman.errors import HookmanError


def test_success_exits_with_the_commands_code() -> None:
    with pytest.raises(typer.Exit) as exit_:
        run_command(False, lambda: 0)
    assert exit_.value.exit_code == 0


def test_hookman_error_prints_message_and_hint(capsys: pytest.CaptureFixture[str]) -> None:
    def refuse() -> int:
        raise HookmanError("the file [x] is broken.", "fix it by hand.", exit_code=1)

    with pytest.raises(typer.Exit) as exit_:
        run_command(False, refuse)
    assert exit_.value.exit_code == 1
    err = capsys.readouterr().err
    assert "hookman: the file [x] is broken." in err
    assert "hint: fix it by hand." in err
    assert "Traceback" not in err


def test_internal_error_keeps_traceback_in_crash_log(
    capsys: pytest.CaptureFixture[str], hookman_home: Path
) -> None:
    def crash() -> int:
        raise ZeroDivisionError("boom")

    with pytest.raises(typer.Exit) as exit_:
        run_command(False, crash)
    assert exit_.value.exit_code == 1
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: boom" in err
    assert "Traceback" not in err
    crash_log = (hookman_home / "log" / "crash.log").read_text()
    assert "Traceback" in crash_log and "ZeroDivisionError" in crash_log


def test_debug_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    def crash() -> int:
        raise ZeroDivisionError("boom")

    with pytest.raises(typer.Exit):
        run_command(True, crash)
    assert "Traceback" in capsys.readouterr().err
