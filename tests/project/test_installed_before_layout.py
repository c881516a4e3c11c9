"""A project installed by the hookman before the package was regrouped keeps working without
a reinstall: its settings command, launcher (format 2) and manifest, as that hookman wrote
them (fixtures/installed_before_layout/, paths made placeholders), are answered by this one."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.project.launcher import LAUNCHER_FORMAT
from hookman.project.sentinel import stamp_path
from hookman.project.settings_entries import hookman_command_is_sentinel

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "installed_before_layout"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _render(name: str, values: dict[str, str]) -> str:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    for placeholder, value in values.items():
        text = text.replace(placeholder, value)
    if sys.version_info < (3, 11):  # that hookman wrote -P only for a Python that takes it
        text = text.replace(" -P -c ", " -c ")
    assert "@" not in text.replace("$@", "").replace('"$@"', ""), name
    return text


@pytest.fixture
def old_install(tmp_path: Path) -> dict[str, object]:
    project = tmp_path / "proj"
    state = tmp_path / "state" / "projects" / "proj-0123456789ab"
    (project / ".claude").mkdir(parents=True)
    state.mkdir(parents=True)
    values = {
        "@STATE@": str(state),
        "@PYTHON@": sys.executable,
        "@GUARD@": str(TEMPLATES / "bash_guard.py"),
        "@PROJECT@": str(project),
        "@LOG@": str(tmp_path / "log"),
    }
    for name in ("hookman-run.sh", "manifest.json"):
        (state / name).write_text(_render(name, values), encoding="utf-8")
    (project / ".claude" / "hookman.toml").write_text(
        (FIXTURES / "hookman.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    settings = json.loads(_render("settings.local.json", values))
    return {"project": project, "settings": settings}


def _answer(old_install: dict[str, object], shell: str, command_text: str) -> dict[str, object]:
    settings = old_install["settings"]
    assert isinstance(settings, dict)
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    payload = {
        "session_id": "s1",
        "transcript_path": "/dev/null",
        "cwd": str(old_install["project"]),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command_text},
        "tool_use_id": "toolu_1",
    }
    done = subprocess.run(
        [shell, "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=old_install["project"],
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_the_old_settings_command_still_denies_rm_rf(
    old_install: dict[str, object], shell: str
) -> None:
    answer = _answer(old_install, shell, "rm -rf /")
    output = answer["hookSpecificOutput"]
    assert isinstance(output, dict)
    assert output["permissionDecision"] == "deny"
    # The guard itself decided (its reason), not the launcher's no-answer fallback.
    assert "runner gave no answer" not in output["permissionDecisionReason"]
    assert "rm -rf" in output["permissionDecisionReason"]


@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_the_old_settings_command_still_lets_a_harmless_call_run(
    old_install: dict[str, object], shell: str
) -> None:
    answer = _answer(old_install, shell, "ls")
    assert "permissionDecision" not in json.dumps(answer)


def test_install_rewrites_the_old_command_and_launcher_forms(
    old_install: dict[str, object], hookman_home: Path
) -> None:
    project = old_install["project"]
    assert isinstance(project, Path)
    settings_path = project / ".claude" / "settings.local.json"
    settings_path.write_text(json.dumps(old_install["settings"], indent=2), encoding="utf-8")

    done = subprocess.run(
        [sys.executable, "-m", "hookman", "install", "--claude-version", "2.1.332"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    handlers = [
        (event, group.get("matcher"), handler["command"])
        for event, groups in settings["hooks"].items()
        if event != "UserPromptSubmit"  # the prompt gate, new (the launcher alone)
        for group in groups
        for handler in group["hooks"]
    ]
    sentinels = [entry for entry in handlers if hookman_command_is_sentinel(entry[2])]
    commands = {
        event: command for event, _, command in handlers if not hookman_command_is_sentinel(command)
    }
    # the old entries were recognised and rewritten, not doubled; each guarded event gained
    # its sentinel (every other tool), which runs that event's new command once the
    # project changed
    assert sorted(commands) == ["PreSkillShellCommand", "PreToolUse"]
    assert len(handlers) == 4 and len(sentinels) == 2
    stamp = shlex.quote(str(stamp_path(project)))
    config = shlex.quote(str(project / ".claude" / "hookman.toml"))
    claude_dir = shlex.quote(str(project / ".claude"))
    tests = f"[ {stamp} -nt {config} ] && [ {stamp} -nt {claude_dir} ]"
    for event, matcher, command in sentinels:
        assert matcher == "^(?!(?:Bash)$).*"
        assert command == f"{tests} && exit 0; {commands[event]}"
    assert "UserPromptSubmit" in settings["hooks"]
    for command in commands.values():
        assert "[ $? = 3 ]" not in command and "printf" not in command
        assert command.startswith("trap ") and command.endswith(" esac")
        words = shlex.split(command)
        launcher = Path(next(word for word in words if word.endswith("/hookman-run.sh")))
        assert launcher.read_text(encoding="utf-8").startswith(
            f"# hookman launcher (format {LAUNCHER_FORMAT})"
        )
    new_install = {"project": project, "settings": settings}
    for shell in ("sh", "bash"):
        reason = _answer(new_install, shell, "rm -rf /")["hookSpecificOutput"]
        assert reason["permissionDecision"] == "deny"
