from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hookman import __version__


def hookman(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


def test_version() -> None:
    done = hookman("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"hookman {__version__}"


def test_help_lists_every_command() -> None:
    done = hookman("--help")
    assert done.returncode == 0
    for name in ("install", "remove", "list", "registry", "run", "fire", "log", "statusline"):
        assert name in done.stdout


def test_unknown_command_is_a_usage_error_without_traceback() -> None:
    done = hookman("instal")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "No such command" in done.stderr


def test_bad_project_dir_is_one_sentence_and_a_hint(tmp_path: Path) -> None:
    done = hookman("list", "--project", str(tmp_path / "missing"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[0].startswith("hookman: the project directory")
    assert lines[1].strip().startswith("hint:")
