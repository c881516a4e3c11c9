"""What doctor reads in a command and the script it runs: each class has a case that must be
found and a near miss that must stay quiet."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import codes, command, diagnose, group, settings, the


def script(project: Path, name: str, text: str) -> str:
    path = project / ".claude" / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}'


def one(project: Path, event: str, text: str, matcher: str | None = None, **extra: object):  # type: ignore[no-untyped-def]
    settings(project, {event: [group(command(text, **extra), matcher=matcher)]})
    return diagnose(project)


STOP_LOOP = "#!/bin/bash\nnpm test >/dev/null 2>&1 || { echo 'tests fail' >&2; exit 2; }\n"
STOP_SAFE = (
    "#!/bin/bash\ninput=$(cat)\n"
    'if [ "$(echo "$input" | jq -r .stop_hook_active)" = true ]; then exit 0; fi\n'
    "npm test >/dev/null 2>&1 || { echo 'tests fail' >&2; exit 2; }\n"
)
STOP_JSON = (
    "import json, sys\njson.load(sys.stdin)\n"
    'print(json.dumps({"decision": "block", "reason": "not done"}))\n'
)


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
def test_a_stop_hook_that_blocks_without_a_way_out_is_a_warning(project: Path, event: str) -> None:
    found = the(
        one(project, event, script(project, "stop.sh", STOP_LOOP)), "stop-ignores-stop-hook-active"
    )
    assert found.severity == "warning" and "`exit 2` in stop.sh" in found.message
    assert "--probe-commands" in found.fix


def test_a_json_block_in_a_python_script_counts_too(project: Path) -> None:
    command_text = f"python3 {script(project, 'stop.py', STOP_JSON)}"
    found = the(one(project, "Stop", command_text), "stop-ignores-stop-hook-active")
    assert '"decision": "block' in found.message


def test_an_inline_block_counts(project: Path) -> None:
    assert "stop-ignores-stop-hook-active" in codes(one(project, "Stop", "npm test || exit 2"))


@pytest.mark.parametrize(
    ("event", "text"),
    [
        ("Stop", STOP_SAFE),  # reads stop_hook_active
        ("Stop", "#!/bin/sh\nnpm test\n"),  # never blocks
        ("PreToolUse", STOP_LOOP),  # not a Stop event
    ],
)
def test_near_misses_of_the_stop_loop_stay_quiet(project: Path, event: str, text: str) -> None:
    ctx = one(
        project,
        event,
        script(project, "stop.sh", text),
        matcher="Bash" if event == "PreToolUse" else None,
    )
    assert "stop-ignores-stop-hook-active" not in codes(ctx)


def test_an_async_stop_hook_is_not_waited_for(project: Path) -> None:
    ctx = one(project, "Stop", script(project, "stop.sh", STOP_LOOP), **{"async": True})
    assert "stop-ignores-stop-hook-active" not in codes(ctx)


LATE_GUARD = (
    "import json, sys\npayload = json.load(sys.stdin)\n"
    'if "rm -rf" in payload["tool_input"].get("command", ""):\n'
    '    print("rm -rf is not allowed", file=sys.stderr)\n    sys.exit(2)\n'
)
LINTER = "#!/bin/sh\nruff check . >&2 || exit 2\n"


def test_a_guard_on_post_tool_use_is_found_without_running_it(project: Path) -> None:
    command_text = f"python3 {script(project, 'guard.py', LATE_GUARD)}"
    found = the(one(project, "PostToolUse", command_text, matcher="Bash"), "block-cannot-block")
    assert found.severity == "warning" and "`exit(2)` in guard.py" in found.message
    assert "PreToolUse" in found.fix and "--probe-commands" in found.fix


def test_a_linter_that_exits_2_to_show_its_errors_stays_quiet(project: Path) -> None:
    ctx = one(project, "PostToolUse", script(project, "lint.sh", LINTER), matcher="Edit")
    assert "block-cannot-block" not in codes(ctx)


def test_the_same_guard_on_pre_tool_use_stays_quiet(project: Path) -> None:
    command_text = f"python3 {script(project, 'guard.py', LATE_GUARD)}"
    assert "block-cannot-block" not in codes(one(project, "PreToolUse", command_text, "Bash"))


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("npx prettier --write $CLAUDE_FILE_PATHS", "tool_input.file_path"),
        ('black "${CLAUDE_FILE_PATH}"', "tool_input.file_path"),
        ("echo $TOOL_INPUT | grep -q rm && exit 2", "tool_input"),
    ],
)
def test_variables_the_client_never_sets_are_reported(project: Path, text: str, field: str) -> None:
    found = the(one(project, "PostToolUse", text, "Edit"), "variable-never-set")
    assert field in found.fix and found.severity == "warning"


def test_a_variable_read_in_a_script_is_reported_with_the_script(project: Path) -> None:
    text = script(
        project,
        "fmt.py",
        'import os\nfor p in os.environ.get("CLAUDE_FILE_PATHS", "").split():\n    print(p)\n',
    )
    found = the(one(project, "PostToolUse", f"python3 {text}", "Edit"), "variable-never-set")
    assert "(in fmt.py)" in found.message


@pytest.mark.parametrize(
    "text",
    [
        "CLAUDE_FILE_PATHS=$(jq -r .tool_input.file_path); prettier $CLAUDE_FILE_PATHS",
        'f=${CLAUDE_FILE_PATH:-$(jq -r .tool_input.file_path)}; black "$f"',
        "jq -r .tool_input.file_path | xargs prettier --write",
        "echo $CLAUDE_PROJECT_DIR",
    ],
)
def test_variables_that_are_set_or_have_a_fallback_stay_quiet(project: Path, text: str) -> None:
    assert "variable-never-set" not in codes(one(project, "PostToolUse", text, "Edit"))


@pytest.mark.parametrize(
    "text",
    [
        "%USERPROFILE%\\.claude\\fmt.bat",
        'python "%CLAUDE_PROJECT_DIR%/hooks/x.py"',
        "C:\\tools\\fmt.exe",
        "bash .claude\\hooks\\fmt.sh",
    ],
)
def test_windows_only_syntax_under_a_posix_shell_is_reported_once(project: Path, text: str) -> None:
    ctx = one(project, "PostToolUse", text, "Edit")
    assert codes(ctx) == ["command-windows-syntax"]
    # Claude Code runs a command with /bin/sh -c (dash, bash as sh, busybox ...), not bash
    (finding,) = ctx.findings
    assert "runs it with /bin/sh here" in finding.message
    assert "with bash" not in finding.message


@pytest.mark.parametrize(
    "text",
    [
        "date +%Y%m%d_%H%M >> log.txt",
        "printf 'done\\n' >&2",
        "grep -E '\\.py$' <<< x",
        "echo 100%",
    ],
)
def test_percent_signs_and_escapes_of_posix_commands_stay_quiet(project: Path, text: str) -> None:
    assert "command-windows-syntax" not in codes(one(project, "PostToolUse", text, "Edit"))


def test_powershell_hooks_may_use_windows_syntax(project: Path) -> None:
    ctx = one(project, "PostToolUse", "%USERPROFILE%\\fmt.ps1", "Edit", shell="powershell")
    assert "command-windows-syntax" not in codes(ctx)


def test_a_fifo_planted_as_the_script_is_not_read(project: Path) -> None:
    import os

    fifo = project / ".claude" / "hooks" / "stop.sh"
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    ctx = one(project, "Stop", 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/stop.sh')
    assert "stop-ignores-stop-hook-active" not in codes(ctx)  # and doctor did not hang
