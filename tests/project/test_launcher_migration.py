"""An install made before launcher format 5 (issue 23): its settings command and launcher
fail open under a hostile shell (format 3: a hostile shell's stderr; format 4: ksh93's
status 3 for a launcher cut inside its function passed as answered), so doctor calls them
stale and a bare `hookman install` rewrites both. The old bytes are the ones each format
wrote (fixtures/launcher-format-N.sh is the recorded launcher; the command is its one line)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.project.launcher import LAUNCHER_FORMAT, MISSING_LAUNCHER_TEXT
from hookman.project.settings_entries import build_command

FIXTURES = Path(__file__).parent / "fixtures"
GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "no rm -rf"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


def _format_3_command(launcher: Path, event: str) -> str:
    quoted = shlex.quote(str(launcher))
    return (
        f"[ -f {quoted} ] && sh {quoted} {event} && false || case $? in 3) ;; 2) exit 2 ;; "
        f"*) echo {shlex.quote(MISSING_LAUNCHER_TEXT)} >&2; exit 2 ;; esac"
    )


def _format_4_command(launcher: Path, event: str) -> str:
    quoted = shlex.quote(str(launcher))
    why = MISSING_LAUNCHER_TEXT.removeprefix("hookman: ")
    return (
        f"[ -f {quoted} ] && sh {quoted} {event} && false || case $? in 3) ;; 4) exit 2 ;; "
        f'*) (unset hookman; : "${{hookman?{why}}}") || exit 2; exit 2 ;; esac'
    )


OLD_COMMANDS = {3: _format_3_command, 4: _format_4_command}


def _hookman(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ.copy(),
        check=False,
    )


def _handlers(settings_path: Path) -> list[dict[str, object]]:
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    return [
        handler
        for groups in settings["hooks"].values()
        for group in groups
        for handler in group["hooks"]
    ]


@pytest.mark.parametrize("old", sorted(OLD_COMMANDS))
def test_an_older_format_install_is_stale_for_doctor_and_rewritten_by_install(
    project: Path, hookman_home: Path, old: int
) -> None:
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(GUARD, encoding="utf-8")
    assert _hookman(project, "install", "hooks/guard.py").returncode == 0
    settings_path = project / ".claude" / "settings.local.json"
    handler = _handlers(settings_path)[0]
    words = shlex.split(str(handler["command"]))
    launcher = Path(next(word for word in words if word.endswith("/hookman-run.sh")))
    new_command, new_launcher = handler["command"], launcher.read_text(encoding="utf-8")
    # Put back the bytes the older format wrote.
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    group = settings["hooks"]["PreToolUse"][0]
    group["hooks"][0]["command"] = OLD_COMMANDS[old](launcher, "PreToolUse")
    settings_path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    fixture = FIXTURES / f"launcher-format-{old}.sh"
    launcher.write_text(fixture.read_text(encoding="utf-8"), encoding="utf-8")

    doctor = _hookman(project, "doctor", "--json")
    stale = [f for f in json.loads(doctor.stdout)["findings"] if f["code"] == "hookman-stale"]
    assert stale and "an older hookman wrote" in stale[0]["message"], doctor.stdout

    assert _hookman(project, "install").returncode == 0
    assert _handlers(settings_path)[0]["command"] == new_command
    assert new_command == build_command("PreToolUse", launcher, guarded=True)
    assert launcher.read_text(encoding="utf-8") == new_launcher
    assert new_launcher.startswith(f"# hookman launcher (format {LAUNCHER_FORMAT})")
    doctor = _hookman(project, "doctor", "--json")
    assert not [f for f in json.loads(doctor.stdout)["findings"] if f["code"] == "hookman-stale"]
