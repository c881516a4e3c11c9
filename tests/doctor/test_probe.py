from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman.doctor.model import Handler, Source
from hookman.doctor.probe import CommandRun, classify

from .conftest import codes, command, diagnose, group, install, loud, settings, the


def handler(event: str, *, is_async: bool = False) -> Handler:
    return Handler(
        Source("project", "s.json"),
        "hooks.X[0].hooks[0]",
        event,
        None,
        "command",
        "x",
        None,
        {},
        is_async=is_async,
    )


def run(code: int | None, stdout: str = "", stderr: str = "") -> CommandRun:
    return CommandRun(code, stdout, stderr, 0.1, code is None)


def classified(event: str, result: CommandRun, **kwargs: Any) -> list[str]:
    return [found[0] for found in classify(handler(event, **kwargs), result, 600, 10)]


@pytest.mark.parametrize(
    ("event", "result", "expected"),
    [
        ("PostToolUse", run(0, "formatted 3 files\n"), ["plain-stdout-dropped"]),
        ("Stop", run(0, "done\n"), ["plain-stdout-dropped"]),
        ("PostToolUse", run(0, 'checking\n{"decision": "block"}\n'), ["json-mixed-with-prints"]),
        ("PreToolUse", run(0, 'log: {"x": 1}'), ["json-mixed-with-prints"]),
        ("PostToolUse", run(2, "", "bad\n"), ["block-cannot-block"]),
        ("PreToolUse", run(2, "why\n", "blocked\n"), ["stdout-with-exit-2"]),
        ("PreToolUse", run(1, "", "rm -rf is not allowed\n"), ["exit-1-not-2"]),
        ("Stop", run(1, "", "tests fail\n"), ["exit-1-not-2"]),
        ("PostToolUse", run(1, "", "boom\n"), ["probe-command-fails"]),
        ("PreToolUse", run(None), ["probe-slow"]),
        ("PostToolUse", run(2, "", "x"), ["async-decides"]),
    ],
)
def test_runs_the_client_does_not_hear_are_classified(
    event: str, result: CommandRun, expected: list[str]
) -> None:
    assert classified(event, result, is_async=expected == ["async-decides"]) == expected


@pytest.mark.parametrize(
    ("event", "result"),
    [
        ("PostToolUse", run(0)),
        (
            "PostToolUse",
            run(
                0,
                json.dumps(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "x",
                        }
                    }
                ),
            ),
        ),
        ("UserPromptSubmit", run(0, "plain context reaches the model\n")),
        ("SessionStart", run(0, "plain context\n")),
        ("PreToolUse", run(2, "", "blocked: rm -rf\n")),
        ("PreToolUse", run(0, "", "debug noise on stderr\n")),
        ("Notification", run(0, "", "")),
    ],
)
def test_runs_the_client_hears_stay_quiet(event: str, result: CommandRun) -> None:
    assert classified(event, result) == []


def test_a_run_past_its_own_budget_is_an_error_and_fails_open_on_pre_tool_use() -> None:
    found = classify(handler("PreToolUse"), run(None), 2, 10)
    assert [f[0:2] for f in found] == [("probe-over-budget", "error")]
    assert "a killed hook does not block" in found[0][2]


def test_foreign_hooks_run_only_with_probe_commands(project: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    settings(project, {"PostToolUse": [group(command(f"touch {marker}; echo plain"))]})
    assert loud(diagnose(project, probe=True)) == [] and not marker.exists()
    ctx = diagnose(project, probe_commands=True)
    assert marker.exists() and codes(ctx) == ["plain-stdout-dropped"]


def test_probed_commands_run_in_a_throwaway_directory_on_sample_input(
    project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.json"
    script = f'cat > {seen}.stdin; pwd > {seen}.cwd; echo "$CLAUDE_PROJECT_DIR" > {seen}.env'
    settings(project, {"PreToolUse": [group(command(script), matcher="Bash")]})
    diagnose(project, probe_commands=True)
    cwd = Path(f"{seen}.cwd").read_text().strip()
    assert cwd != str(project) and "hookman-doctor-" in cwd and not Path(cwd).exists()
    assert Path(f"{seen}.env").read_text().strip() == str(project)
    payload = json.loads(Path(f"{seen}.stdin").read_text())
    assert payload["hook_event_name"] == "PreToolUse" and payload["tool_name"] == "Bash"
    assert payload["tool_input"]["command"] == "rm -rf ./build"  # the last sample input


def test_a_stop_hook_that_ignores_stop_hook_active_can_loop(project: Path) -> None:
    settings(project, {"Stop": [group(command("echo keep going >&2; exit 2"))]})
    assert the(diagnose(project, probe_commands=True), "stop-ignores-stop-hook-active")
    careful = (
        'python3 -c "import json,sys; '
        "sys.exit(0 if json.load(sys.stdin).get('stop_hook_active') else 2)\""
    )
    settings(project, {"Stop": [group(command(careful))]})
    assert "stop-ignores-stop-hook-active" not in codes(diagnose(project, probe_commands=True))


RAISES = """\
def hook(pi):
    def check(event, ctx):
        raise RuntimeError("guard bug")
    pi.on("tool_call", check, tools=["Bash"])
"""
BROKEN_IMPORT = """\
import no_such_module_for_doctor
def hook(pi):
    pi.on("tool_call", lambda e, c: None, tools=["Bash"])
"""


def test_probe_fires_hookman_hooks_and_reports_a_raising_guard(project: Path) -> None:
    install(project, RAISES)
    assert "hookman-handler-raises" not in codes(diagnose(project))
    found = the(diagnose(project, probe=True), "hookman-handler-raises")
    assert found.severity == "error" and "guard bug" in found.message


def test_probe_reports_a_hook_that_no_longer_imports(project: Path) -> None:
    install(project)
    (project / "hooks" / "guard.py").write_text(BROKEN_IMPORT)
    assert "hookman-hook-does-not-load" not in codes(diagnose(project))  # it still compiles
    found = the(diagnose(project, probe=True), "hookman-hook-does-not-load")
    assert "no_such_module_for_doctor" in found.message


def test_probe_of_a_healthy_guard_is_quiet(project: Path) -> None:
    install(project)
    assert loud(diagnose(project, probe=True)) == []


def test_a_hook_slower_than_its_timeout_is_over_budget(project: Path) -> None:
    settings(project, {"PreToolUse": [group(command("sleep 5", timeout=1), matcher="Bash")]})
    found = the(diagnose(project, probe_commands=True), "probe-over-budget")
    assert "1 s budget" in found.message


def test_an_async_hook_that_blocks_decides_nothing(project: Path) -> None:
    settings(project, {"PreToolUse": [group(command("echo no >&2; exit 2", **{"async": True}))]})
    assert codes(diagnose(project, probe_commands=True)) == ["async-decides"]


def test_a_stop_hook_that_blocks_a_subagent_finishing_ignores_agent_id(project: Path) -> None:
    settings(project, {"Stop": [group(command("echo run the tests >&2; exit 2"))]})
    assert (
        the(diagnose(project, probe_commands=True), "stop-ignores-agent-id").severity == "warning"
    )
    careful = (
        'python3 -c "import json,sys; p=json.load(sys.stdin); '
        "sys.exit(0 if p.get('agent_id') or p.get('stop_hook_active') else 2)\""
    )
    settings(project, {"Stop": [group(command(careful))]})
    assert not [c for c in codes(diagnose(project, probe_commands=True)) if c.startswith("stop-")]


def test_a_hook_whose_detached_child_keeps_the_pipes_open_cannot_hang_doctor(
    project: Path,
) -> None:
    hook = command("setsid sleep 6 & exit 0", timeout=1)
    settings(project, {"Stop": [group(hook)]})
    import time

    started = time.monotonic()
    ctx = diagnose(project, probe_commands=True)
    assert time.monotonic() - started < 10
    assert codes(ctx) == ["probe-over-budget"]
