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


@pytest.mark.parametrize(
    "text",
    [
        "/bin/bash .claude/hooks/gone.sh",
        '/usr/bin/env python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.py',
        "uv run --with requests .claude/hooks/gone.py",
        "uv run python .claude/hooks/gone.py",
        "npx -y tsx .claude/hooks/gone.ts",
        "bunx tsx .claude/hooks/gone.ts",
        "bun run .claude/hooks/gone.ts",
    ],
)
def test_scripts_behind_interpreters_and_runners_are_checked(project: Path, text: str) -> None:
    found = [f for f in one(project, text).findings if f.code == "command-not-found"]
    assert any("gone." in f.message for f in found), [f.message for f in found]


@pytest.mark.parametrize(
    "text",
    [
        "npx prettier --write .",
        "uv run ruff check src/",
        "npx -y @biomejs/biome check",
        "uv run --with requests python -c 'print(1)'",
    ],
)
def test_runners_of_packages_are_not_taken_for_scripts(project: Path, text: str) -> None:
    # Only the runner itself may be missing on this machine; its arguments are not paths.
    findings = one(project, text).findings
    assert [f.code for f in findings] in ([], ["command-not-found"])  # no script finding
    assert all("is not on PATH" in f.message for f in findings)


def test_a_missing_interpreter_still_has_its_script_checked(project: Path) -> None:
    script(project, ".claude/hooks/fmt.py", executable=False)
    ctx = one(project, '/opt/nowhere/python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.py')
    messages = [f.message for f in ctx.findings if f.code == "command-not-found"]
    assert len(messages) == 2 and "the interpreter `/opt/nowhere/python3`" in messages[0]
    ctx = one(project, 'python3.99 "$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.py')
    messages = [f.message for f in ctx.findings if f.code == "command-not-found"]
    assert len(messages) == 2 and "doctor still checked the script" in messages[0]


def test_a_script_run_by_an_interpreter_need_not_be_executable(project: Path) -> None:
    script(project, ".claude/hooks/fmt.sh", executable=False)
    assert loud(one(project, '/bin/sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh')) == []


def test_exec_form_args_are_checked_with_its_own_placeholders(project: Path) -> None:
    script(project, ".claude/hooks/fmt.sh", executable=False)
    ctx = one(project, "/bin/sh", args=["${CLAUDE_PROJECT_DIR}/.claude/hooks/fmt.sh"])
    assert loud(ctx) == []
    ctx = one(project, "${CLAUDE_PROJECT_DIR}/.claude/hooks/fmt.sh", args=[])
    assert the(ctx, "command-not-executable")
    found = the(one(project, "/bin/sh", args=[".claude/hooks/fmt.sh"]), "command-relative-path")
    assert "${CLAUDE_PROJECT_DIR}/.claude/hooks/fmt.sh" in found.fix and "no shell" in found.fix
    assert the(one(project, "/bin/sh", args=[".claude/hooks/gone.sh"]), "command-not-found")


@pytest.mark.parametrize("timeout", [1800, 3600, 7200, 900, 1200, 86400])
def test_deliberate_long_waits_are_not_milliseconds(project: Path, timeout: int) -> None:
    assert "timeout-looks-like-ms" not in codes(one(project, "true", timeout=timeout))


@pytest.mark.parametrize("timeout", [1000, 5000, 30000, 60000, 2500, 100000])
def test_round_milliseconds_are_reported(project: Path, timeout: int) -> None:
    assert the(one(project, "true", timeout=timeout), "timeout-looks-like-ms").severity == "warning"


def test_a_guards_timeout_is_never_proposed_shorter(project: Path) -> None:
    found = the(one(project, "true", "PreToolUse", timeout=5000), "timeout-looks-like-ms")
    assert found.severity == "info" and found.edit is None
    assert "lets the tool run" in found.fix and "safe choice" in found.fix


def test_handlers_under_an_unknown_event_are_reported_once(project: Path) -> None:
    settings(project, {"PostToolUze": [group(command("./a.sh", timeout=5000), command("./b.sh"))]})
    assert codes(diagnose(project)) == ["unknown-event"]
