"""Issue 23, class 6: a built plugin's start.py writes bytecode into CLAUDE_PLUGIN_DATA only
once that directory passed the runner's own check (only the user can write it): before,
it pointed sys.pycache_prefix there first, so bytecode another user planted in a shared
directory was loaded before the runner looked, and the imports wrote into it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.plugin.launcher import LIB_DIR, START_NAME, start_text
from hookman.project.launcher import hookman_root


def _start(tmp_path: Path) -> Path:
    runner = tmp_path / "runner"
    (runner / LIB_DIR).mkdir(parents=True)
    (runner / LIB_DIR / "hookman").symlink_to(Path(hookman_root()) / "hookman")
    (runner / START_NAME).write_text(start_text("p", ["PreToolUse"]), encoding="utf-8")
    return runner / START_NAME


@pytest.mark.parametrize(("mode", "written"), [(0o700, True), (0o777, False)])
def test_bytecode_goes_to_the_data_dir_only_when_only_the_user_can_write_it(
    tmp_path: Path, mode: int, written: bool
) -> None:
    start = _start(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(mode)
    env = {"PATH": os.environ["PATH"], "CLAUDE_PLUGIN_DATA": str(data), "LANG": "C"}
    subprocess.run(
        [sys.executable, "-I", "-S", str(start)],  # no words: the runner's usage, then exit
        input=b"",
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (data / "pycache").exists() is written, (oct(mode), list(data.iterdir()))
