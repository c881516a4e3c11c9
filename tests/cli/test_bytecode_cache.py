"""cli/bytecode_cache.py: where Python may not write bytecode beside the sources
(PYTHONDONTWRITEBYTECODE), a management command keeps hookman's under its private cache
directory, so the next start does not compile every module again; the runner's and the
status line's starts look at no cache directory; a cache directory others can write is
never used."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import hookman

PACKAGE = Path(hookman.__file__).resolve().parent


def _hookman(home: Path, *words: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "HOOKMAN_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    environment.pop("PYTHONPYCACHEPREFIX", None)
    return subprocess.run(
        [sys.executable, "-m", "hookman", *words],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _cached(home: Path) -> list[Path]:
    mirror = home / "cache" / "pycache" / PACKAGE.relative_to(PACKAGE.anchor)
    return sorted(mirror.rglob("*.pyc")) if mirror.exists() else []


def test_a_command_keeps_hookman_s_bytecode_in_its_private_cache(
    tmp_path: Path, project: Path
) -> None:
    home = tmp_path / "home"
    assert _hookman(home, "list", cwd=project).returncode == 0
    names = {path.name.split(".")[0] for path in _cached(home)}
    assert {"list_hooks", "lean_commands", "config"} <= names, names
    assert (home / "cache" / "pycache").stat().st_mode & 0o077 == 0
    # the next start reads it: no module of hookman is compiled again
    before = {path: path.stat().st_mtime_ns for path in _cached(home)}
    assert _hookman(home, "list", cwd=project).returncode == 0
    assert {path: path.stat().st_mtime_ns for path in _cached(home)} == before


def test_the_status_line_and_the_version_look_at_no_cache(tmp_path: Path, project: Path) -> None:
    home = tmp_path / "home"
    _hookman(home, "--version", cwd=project)
    _hookman(home, "statusline", cwd=project)
    assert not (home / "cache").exists()


def test_a_cache_directory_others_can_write_is_not_used(tmp_path: Path, project: Path) -> None:
    home = tmp_path / "home"
    (home / "cache" / "pycache").mkdir(parents=True)
    (home / "cache").chmod(0o777)
    assert _hookman(home, "list", cwd=project).returncode == 0
    assert _cached(home) == []
