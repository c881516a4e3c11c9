"""Hostile: configurations `hookman install` accepts that leave a guard unable to block,
checked through real installs and the exact settings command they write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .attack_support import (
    DENY,
    hookman_install,
    installed_handlers,
    run_settings_command,
)

BASH_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "ATTACK: no rm -rf"}
"""


def _payload(project: Path, event: str, **extra: object) -> dict:
    return {
        "session_id": "attack-session",
        "transcript_path": str(project / "transcript.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf victim"},
        "tool_use_id": "toolu_attack",
        **extra,
    }


def _write_guard(project: Path) -> str:
    (project / "hooks").mkdir(exist_ok=True)
    (project / "hooks" / "guard.py").write_text(BASH_GUARD, encoding="utf-8")
    return "hooks/guard.py"


def _verdicts(project: Path, settings: dict, event: str, payload: dict) -> list[str]:
    """What Claude Code does with each handler hookman wrote under `event` (async ones are
    not waited for: their answer is never read)."""
    verdicts = []
    for handler in installed_handlers(settings, event):
        if handler.get("async"):
            verdicts.append("not waited for")
            continue
        verdict = run_settings_command(
            handler["command"], event, payload, timeout=handler.get("timeout", 600), cwd=project
        )
        verdicts.append(verdict.decision)
    return verdicts


def test_the_installed_guard_denies_rm_rf(project: Path, hookman_home: Path) -> None:
    settings = hookman_install(project, _write_guard(project), "--claude-version", "2.1.328")

    verdicts = _verdicts(project, settings, "PreToolUse", _payload(project, "PreToolUse"))

    assert verdicts == [DENY]


def test_install_async_never_turns_a_guard_into_one_that_cannot_block(
    project: Path, hookman_home: Path
) -> None:
    settings = hookman_install(
        project, _write_guard(project), "--async", "--claude-version", "2.1.328"
    )

    verdicts = _verdicts(project, settings, "PreToolUse", _payload(project, "PreToolUse"))

    assert DENY in verdicts, verdicts


SKILL_SHELL = "PreSkillShellCommand"


def test_a_bash_guard_also_guards_skill_shell_commands_on_2_1_332(
    project: Path, hookman_home: Path
) -> None:
    settings = hookman_install(project, _write_guard(project), "--claude-version", "2.1.332")
    payload = _payload(
        project,
        SKILL_SHELL,
        command_name="clean",
        command_source="projectSettings",
        invoked_by="user",
    )

    verdicts = _verdicts(project, settings, SKILL_SHELL, payload)

    assert verdicts == [DENY]


def test_a_guard_for_a_miscased_tool_name_is_flagged_at_install(
    project: Path, hookman_home: Path
) -> None:
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(
        BASH_GUARD.replace('tools=["Bash"]', 'tools=["bash"]'), encoding="utf-8"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookman",
            "install",
            "hooks/guard.py",
            "--claude-version",
            "2.1.328",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode != 0 or "Bash" in done.stdout + done.stderr, done
