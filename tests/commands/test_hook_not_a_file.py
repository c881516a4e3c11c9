"""A hook's module replaced by a named pipe (FIFO), a directory or another non-file: every
command and the runner say what it is at once, and none waits on it (opening a FIFO to read
waits for a writer: doctor hung, and the runner and the prompt gate waited to their
deadlines). Each step runs in a child process with a timeout, so that a regression fails
instead of hanging the suite."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.runtime.hook_paths import NotAFile, refuse_non_file
from hookman.runtime.verified_import import StoreCopyChanged, read_verified

from .helpers import GUARD, write_hook

LIMIT_S = 30  # far beyond the few hundred ms each step takes; a wait on the FIFO is forever


def _hookman(project: Path, *words: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *words],
        cwd=project,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project)},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
    )


@pytest.fixture
def piped(project: Path, hookman_home: Path) -> Path:
    """An installed guard whose module was then replaced by a FIFO."""
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    path = write_hook(project, "guard", GUARD)
    done = _hookman(project, "install", "hooks/guard.py", "--claude-version", "2.1.332")
    assert done.returncode == 0, done.stderr
    path.unlink()
    os.mkfifo(path)
    return path


def test_the_runner_denies_at_once_naming_the_fifo(project: Path, piped: Path) -> None:
    payload = json.dumps(
        {
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "cwd": str(project),
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
    )
    manifest = next(Path(os.environ["HOOKMAN_HOME"]).glob("state/projects/*/manifest.json"))
    done = _hookman(project, "run", "PreToolUse", "--manifest", str(manifest), stdin=payload)
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert (
        f"{piped} is a named pipe (FIFO), not a Python file" in answer["permissionDecisionReason"]
    )


def test_doctor_list_fire_and_install_name_it_and_return(project: Path, piped: Path) -> None:
    said = f"{piped}) is a named pipe (FIFO), not a Python file"
    doctor = _hookman(project, "doctor")
    assert "hookman-hook-does-not-load" in doctor.stdout, doctor.stdout
    assert f"{piped} is a named pipe (FIFO), not a Python file" in doctor.stdout  # as list
    listed = _hookman(project, "list")
    assert said in listed.stdout + listed.stderr, listed.stdout
    fired = _hookman(project, "fire", "PreToolUse")
    assert "named pipe (FIFO)" in fired.stdout and '"deny"' in fired.stdout, fired.stdout
    installed = _hookman(project, "install")
    assert installed.returncode == 1 and said in installed.stdout + installed.stderr
    # Labelled as list labels it: the module is there, it is no file ("missing:" said not)
    told = [line for line in installed.stdout.splitlines() if str(piped) in line]
    assert told and told[0].startswith("does not load: "), installed.stdout
    assert "until it is there" not in installed.stdout, installed.stdout


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_reading_a_module_never_waits_and_names_what_it_is(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "guard.py"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    shown = "a named pipe (FIFO)" if kind == "fifo" else "a directory"
    with pytest.raises(NotAFile, match=re.escape(f"is {shown}, not a Python file")):
        refuse_non_file(str(path))  # a FIFO opened to read in blocking mode would wait
    with pytest.raises(StoreCopyChanged, match=re.escape(f"is {shown}, not a Python file")):
        read_verified({"guard.py": "0" * 64}, "guard.py", str(path))


def test_a_hook_install_could_not_find_denies_naming_the_fix_not_a_placeholder(
    project: Path, hookman_home: Path
) -> None:
    """A registry hook of another machine: install records a placeholder path (so that the
    hook fails closed); the deny the model reads says what happened, not that placeholder."""
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / ".claude" / "hookman.toml").write_text(
        '[[hooks]]\nname = "guard"\nregistry = "team-guard"\nevents = ["tool_call"]\n'
        'tools = { tool_call = ["Bash"] }\n'
    )
    assert _hookman(project, "install", "--claude-version", "2.1.332").returncode == 1
    fired = " ".join(_hookman(project, "fire", "PreToolUse").stdout.split())
    assert "its module was not on this machine when `hookman install` last ran" in fired, fired
    assert "put it back, then run `hookman install`" in fired
    assert "missing-hooks" not in fired and '"deny"' in fired


def test_after_install_the_runner_still_names_the_fifo(project: Path, piped: Path) -> None:
    assert _hookman(project, "install").returncode == 1
    fired = _hookman(project, "fire", "PreToolUse").stdout
    assert f"{piped} is a named pipe (FIFO), not a Python file" in fired, fired


@pytest.mark.parametrize("kind", ["symlink-loop", "socket", "dangling-symlink"])
def test_a_module_that_is_there_but_no_file_is_one_story(
    project: Path, hookman_home: Path, tmp_path: Path, kind: str
) -> None:
    """A symlink loop was 'missing: ... does not exist' for install and list, while doctor
    and the runner named the loop; a socket was 'is a socket' for all but doctor ('No such
    device or address'). Each command now names what the runner names, and the guard
    denies."""
    import socket

    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    path = write_hook(project, "guard", GUARD)
    assert (
        _hookman(project, "install", "hooks/guard.py", "--claude-version", "2.1.332").returncode
        == 0
    )
    path.unlink()
    held = None
    if kind == "symlink-loop":
        path.symlink_to(path.name)
        said = "cannot be read (Too many levels of symbolic links)"
    elif kind == "dangling-symlink":
        path.symlink_to("gone.py")
        said = "does not exist"
    else:
        short = tmp_path / "s"  # a socket's path must be short
        held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        held.bind(str(short))
        path.symlink_to(short)
        said = "is a socket, not a Python file"
    try:
        installed = _hookman(project, "install")
        listed = _hookman(project, "list")
        doctor = _hookman(project, "doctor")
        fired = _hookman(project, "fire", "PreToolUse")
    finally:
        if held is not None:
            held.close()
    assert installed.returncode == 1
    assert said in installed.stdout, installed.stdout
    label = "missing: " if kind == "dangling-symlink" else "does not load: "  # as list says
    assert installed.stdout.count(label) == 1, installed.stdout
    if kind != "dangling-symlink":
        assert "does not exist" not in installed.stdout, installed.stdout
    assert said in listed.stdout + listed.stderr, listed.stdout
    assert said in doctor.stdout, doctor.stdout
    assert '"deny"' in fired.stdout, fired.stdout
