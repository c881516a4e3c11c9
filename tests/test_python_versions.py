"""The commands a new user runs first work on the interpreter running this test.

pyproject.toml supports Python 3.10 and up; CI runs this file (with the rest of the
non-E2E suite) under each of 3.10, 3.11, 3.12 and 3.13, so an import only a newer Python has
(tomllib without its tomli fallback crashed `doctor` on 3.10) fails here. Each command runs
as a user runs it, `python -m hookman ...` in a child process, with the home directories, the
Claude Code and Codex config dirs and hookman's own under the test's temporary directory, and
no `claude` or `codex` on PATH. What is checked is that none ends in an internal error (a
traceback, or error_handler's "internal error" line), and that each did its job.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLAUDE_VERSION = "2.1.332"
CODEX_VERSION = "0.171.0"


@pytest.fixture
def user_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = tmp_path / "bin"  # git only: no claude or codex of the machine answers
    bin_dir.mkdir()
    git = shutil.which("git")
    assert git is not None, "git is needed (the quick start runs in a git repository)"
    (bin_dir / "git").symlink_to(git)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLAUDE", "CODEX", "XDG_", "HOOKMAN", "PYTHON"))
    }
    env.update(
        HOME=str(home),
        HOOKMAN_HOME=str(tmp_path / "hookman-home"),
        CLAUDE_CONFIG_DIR=str(home / ".claude"),
        CODEX_HOME=str(home / ".codex"),
        PATH=os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable)]),
        NO_COLOR="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )
    return env


def _hookman(
    args: list[str], cwd: Path, env: dict[str, str], *, exit_codes: tuple[int, ...] = (0,)
) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    said = done.stdout + done.stderr
    assert "internal error" not in said and "Traceback" not in said, said
    assert done.returncode in exit_codes, (
        f"hookman {' '.join(args)}: exit {done.returncode}\n{said}"
    )
    return done.stdout


def _git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_the_quick_start_runs(tmp_path: Path, user_env: dict[str, str]) -> None:
    """README's quick start, in a copy of examples/quickstart inside a fresh git repository:
    `python -m hookman install && python -m hookman fire PreToolUse --payload ...`."""
    example = _git_repo(tmp_path / "clone") / "examples" / "quickstart"
    shutil.copytree(ROOT / "examples" / "quickstart", example)

    _hookman(["install"], example, user_env)
    settings = json.loads((example / ".claude" / "settings.local.json").read_text())
    assert "PreToolUse" in settings["hooks"]

    fired = _hookman(["fire", "PreToolUse", "--payload", "payload-rm-rf.json"], example, user_env)
    assert '"permissionDecision": "deny"' in fired


def test_new_install_fire_list_doctor_and_install_for_codex_run(
    tmp_path: Path, user_env: dict[str, str]
) -> None:
    project = _git_repo(tmp_path / "project")
    payload = ROOT / "examples" / "quickstart" / "payload-rm-rf.json"

    _hookman(["new", "guard", "--template", "bash_guard"], project, user_env)
    assert (project / ".claude" / "hooks" / "guard.py").is_file()
    _hookman(["install", "--claude-version", CLAUDE_VERSION], project, user_env)
    assert (project / ".claude" / "settings.local.json").is_file()
    fired = _hookman(["fire", "PreToolUse", "--payload", str(payload)], project, user_env)
    assert "hook guard" in fired

    listed = json.loads(_hookman(["list", "--json"], project, user_env))
    assert "guard" in json.dumps(listed)
    _hookman(["list"], project, user_env)
    _hookman(["doctor"], project, user_env, exit_codes=(0, 1))

    _hookman(["install", "--agent", "codex", "--codex-version", CODEX_VERSION], project, user_env)
    codex_hooks = json.loads((project / ".codex" / "hooks.json").read_text())
    assert "PreToolUse" in codex_hooks["hooks"]
    # doctor now reads Codex's files too: its config.toml (tomllib, or tomli on 3.10) included
    (Path(user_env["CODEX_HOME"])).mkdir(parents=True, exist_ok=True)
    (Path(user_env["CODEX_HOME"]) / "config.toml").write_text(
        f'[projects."{project}"]\ntrust_level = "trusted"\n', encoding="utf-8"
    )
    _hookman(["doctor"], project, user_env, exit_codes=(0, 1))
    _hookman(["doctor", "--json"], project, user_env, exit_codes=(0, 1))
