from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import codes, command, diagnose, group, loud, settings, the


def script(project: Path, relative: str, *, executable: bool = True) -> Path:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755 if executable else 0o644)
    return path


def one(project: Path, text: str, event: str = "PostToolUse", **extra: object):  # type: ignore[no-untyped-def]
    settings(project, {event: [group(command(text, **extra))]})
    return diagnose(project)


@pytest.mark.parametrize(
    "text",
    [
        "definitely-not-a-program-xyz --fix",
        '"$CLAUDE_PROJECT_DIR"/scripts/missing.sh',
        'bash "$CLAUDE_PROJECT_DIR"/scripts/missing.sh',
        "/nonexistent/bin/fmt",
    ],
)
def test_a_command_that_is_not_there_is_an_error(project: Path, text: str) -> None:
    assert the(one(project, text), "command-not-found").severity == "error"


def test_home_is_expanded_like_the_shell_does(project: Path, isolated_user: Path) -> None:
    script(isolated_user, ".claude/hooks/fmt.sh")
    assert loud(one(project, "$HOME/.claude/hooks/fmt.sh")) == []
    assert loud(one(project, "~/.claude/hooks/fmt.sh")) == []
    assert the(one(project, "${HOME}/.claude/hooks/gone.sh"), "command-not-found")


def test_a_script_that_is_not_executable_is_an_error(project: Path) -> None:
    script(project, "scripts/fmt.sh", executable=False)
    found = the(one(project, '"$CLAUDE_PROJECT_DIR"/scripts/fmt.sh'), "command-not-executable")
    assert "chmod +x" in found.fix
    assert loud(one(project, 'sh "$CLAUDE_PROJECT_DIR"/scripts/fmt.sh')) == []


def test_a_relative_script_path_breaks_when_the_agent_changes_directory(project: Path) -> None:
    script(project, "scripts/fmt.sh")
    found = the(one(project, "./scripts/fmt.sh"), "command-relative-path")
    assert found.severity == "warning" and '"$CLAUDE_PROJECT_DIR"/scripts/fmt.sh' in found.fix


@pytest.mark.parametrize(
    "text",
    [
        '"$CLAUDE_PROJECT_DIR"/scripts/fmt.sh',
        "${CLAUDE_PROJECT_DIR}/scripts/fmt.sh --check",
        "echo done",
        "true",
        "FOO=1 sh -c 'exit 0'",
        "$TOOLS_DIR/bin/fmt",
        "$FORMATTER",
        "python3 -c 'print(1)'",
        'cd "$CLAUDE_PROJECT_DIR" && npx prettier --write .',
        'bash -c "cd /tmp && ls"',
        "python3 -m json.tool",
        'node -e "process.exit(0)"',
    ],
)
def test_commands_that_resolve_stay_quiet(project: Path, text: str) -> None:
    script(project, "scripts/fmt.sh")
    assert loud(one(project, text)) == []


def test_a_timeout_that_looks_like_milliseconds_is_a_warning(project: Path) -> None:
    found = the(one(project, "true", timeout=5000), "timeout-looks-like-ms")
    assert '"timeout": 5' in found.fix
    assert loud(one(project, "true", timeout=600)) == []


def test_session_end_timeouts_above_the_shared_cap_are_cut(project: Path) -> None:
    assert the(one(project, "true", "SessionEnd", timeout=120), "session-end-over-budget")
    assert loud(one(project, "true", "SessionEnd", timeout=30)) == []


def test_near_identical_copies_in_two_settings_files_run_twice(project: Path) -> None:
    script(project, "fmt.sh")
    settings(project, {"PostToolUse": [group(command("./fmt.sh"), matcher="Edit")]})
    local = [group(command('"$CLAUDE_PROJECT_DIR"/fmt.sh'), matcher="Edit|Write")]
    settings(project, {"PostToolUse": local}, name="settings.local.json")
    found = the(diagnose(project), "duplicate-runs-twice")
    assert found.file.endswith("settings.local.json")


def test_identical_copies_in_settings_files_run_once(project: Path) -> None:
    script(project, "fmt.sh")
    same = [group(command('"$CLAUDE_PROJECT_DIR"/fmt.sh'), matcher="Edit")]
    settings(project, {"PostToolUse": same})
    settings(project, {"PostToolUse": same}, name="settings.local.json")
    assert "duplicate-runs-twice" not in codes(diagnose(project))


def test_copies_for_disjoint_tools_do_not_collide(project: Path) -> None:
    script(project, "fmt.sh")
    settings(project, {"PostToolUse": [group(command("./fmt.sh"), matcher="Edit")]})
    local = [group(command('"$CLAUDE_PROJECT_DIR"/fmt.sh'), matcher="Write")]
    settings(project, {"PostToolUse": local}, name="settings.local.json")
    assert "duplicate-runs-twice" not in codes(diagnose(project))
