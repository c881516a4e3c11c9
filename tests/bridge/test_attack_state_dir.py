"""Issue 23, class 6, for a project: hookman's per-project state directory (the launcher, the
manifest, the hooks' bytecode cache) under HOOKMAN_HOME, XDG_STATE_HOME or HOME when those
point somewhere another user can write. `hookman install` refuses before it writes anything
there; a state directory that became writable by others after the install makes the runner
deny, without loading a byte of what was planted in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.user_dirs import project_state_dir
from tests.state_attack_support import OTHER, needs_root, plant_bytecode, theirs

from .attack_support import DENY, hookman_install, installed_handlers, run_settings_command

pytestmark = needs_root
GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no"}
    pi.on("tool_call", check, tools=["Bash"])
"""
PAYLOAD = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /tmp/x"},
    "cwd": "/tmp",
}


def _guard(project: Path) -> Path:
    path = project / "hooks" / "guard.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GUARD)
    return path


@pytest.mark.parametrize("where", ["HOOKMAN_HOME", "XDG_STATE_HOME", "HOME"])
def test_install_refuses_a_state_dir_another_user_made_first(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    shared = theirs(tmp_path / "shared")
    monkeypatch.setenv(where, str(shared))
    if where != "HOOKMAN_HOME":
        monkeypatch.delenv("HOOKMAN_HOME")
    if where == "HOME":
        monkeypatch.delenv("XDG_STATE_HOME")
    state = Path(project_state_dir(str(project.resolve())))
    for directory in reversed(state.relative_to(shared).parents):
        theirs(shared / directory)
    theirs(state)
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    (state / "project.lock").symlink_to(victim)

    done = subprocess.run(
        [sys.executable, "-m", "hookman", "install", str(_guard(project))],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode != 0, done.stdout
    assert "another user could change what the hooks run" in done.stderr, done.stderr
    assert str(shared) in done.stderr and "chmod go-w" in done.stderr
    assert sorted(path.name for path in state.iterdir()) == ["project.lock"]
    assert victim.read_text() == "the victim's own file\n"
    assert not (project / ".claude" / "settings.local.json").exists()


@pytest.mark.parametrize("opened", ["state dir", "above it"])
def test_a_state_dir_opened_to_others_after_install_denies_unloaded(
    project: Path, tmp_path: Path, opened: str
) -> None:
    guard = _guard(project)
    settings = hookman_install(project, str(guard), "--claude-version", "2.1.332")
    command = installed_handlers(settings, "PreToolUse")[0]["command"]
    state = Path(project_state_dir(str(project.resolve())))
    plant_bytecode(state, guard.resolve())
    # the other user's bytecode sits in the user's state directory, which is now open
    (state if opened == "state dir" else state.parent).chmod(0o777)

    verdict = run_settings_command(
        command, "PreToolUse", PAYLOAD, timeout=30, cwd=project, shell="/bin/sh"
    )
    # The runner itself, without the launcher's answer file (which lies in that directory,
    # so the runner refuses to answer through it and the launcher denies): its reason.
    direct = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookman",
            "run",
            "PreToolUse",
            "--manifest",
            str(state / "manifest.json"),
        ],
        input=json.dumps(PAYLOAD),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert verdict.decision == DENY, verdict
    reason = json.loads(direct.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "can be written by other users (mode 777)" in reason, reason
    assert "no guard ran" in reason and "chmod go-w" in reason, reason


@pytest.mark.parametrize("planted", [True, False])
def test_the_project_log_is_not_written_where_others_can_write(
    project: Path, tmp_path: Path, hookman_home: Path, planted: bool
) -> None:
    """The firing log's directory opened to others, with (or without) their symlink at the
    log's name: the guard still answers, and no line is written there at all."""
    guard = _guard(project)
    settings = hookman_install(project, str(guard), "--claude-version", "2.1.332")
    command = installed_handlers(settings, "PreToolUse")[0]["command"]
    log_dir = hookman_home / "log"
    log_dir.mkdir(exist_ok=True)
    log_dir.chmod(0o777)
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    log = log_dir / "firing.jsonl"
    log.unlink(missing_ok=True)
    if planted:
        log.symlink_to(victim)
        os.chown(log, OTHER, OTHER, follow_symlinks=False)

    verdict = run_settings_command(
        command, "PreToolUse", PAYLOAD, timeout=30, cwd=project, shell="/bin/sh"
    )

    assert (verdict.decision, verdict.why) == (DENY, "no"), verdict
    assert victim.read_text() == "the victim's own file\n"
    assert log.is_symlink() == planted and (planted or not log.exists())
