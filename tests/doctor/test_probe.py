from __future__ import annotations

import json
from pathlib import Path

from .conftest import codes, command, diagnose, group, install, loud, settings, the


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


def test_probed_commands_run_under_bin_sh_as_claude_code_runs_them(
    project: Path, tmp_path: Path
) -> None:
    # Claude Code runs a hook command with /bin/sh -c (measured on 2.1.197-2.1.332), not bash:
    # a command that works only under bash must fail in the probe where it fails in the client.
    seen = tmp_path / "shell"
    settings(project, {"Stop": [group(command(f'printf %s "$0" > {seen}'))]})
    diagnose(project, probe_commands=True)
    assert seen.read_text() == "/bin/sh"


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
    # It still compiles; plain doctor loads it all the same, its module having changed since
    # install learned what it subscribes to (issue 24), and --probe reports it once.
    plain = the(diagnose(project), "hookman-hook-does-not-load")
    assert "no_such_module_for_doctor" in plain.message
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


def test_a_run_confirms_what_the_text_said_in_one_finding(project: Path) -> None:
    guard = project / "late_guard.py"
    guard.write_text(
        "import json, sys\np = json.load(sys.stdin)\n"
        "if 'rm -rf' in p['tool_input'].get('command', ''):\n"
        "    print('rm -rf is not allowed', file=sys.stderr)\n    sys.exit(2)\n"
    )
    run = f'python3 "$CLAUDE_PROJECT_DIR"/{guard.name}'
    settings(project, {"PostToolUse": [group(command(run), matcher="Bash")]})
    assert the(diagnose(project), "block-cannot-block").severity == "warning"
    assert the(diagnose(project, probe_commands=True), "block-cannot-block").severity == "error"
    settings(project, {"Stop": [group(command("echo keep going >&2; exit 2"))]})
    assert the(diagnose(project), "stop-ignores-stop-hook-active")
    assert the(diagnose(project, probe_commands=True), "stop-ignores-stop-hook-active")


def test_each_probe_run_is_recorded_with_its_result_and_findings(project: Path) -> None:
    install(project, RAISES)
    ctx = diagnose(project, probe=True)
    records = [(r.event, r.sample, r.result, r.findings) for r in ctx.probed or []]
    assert records == [
        ("PreToolUse", "Bash `echo hi`", "raised", ["hookman-handler-raises"]),
        ("PreToolUse", "Bash `rm -rf ./build`", "raised", ["hookman-handler-raises"]),
        ("UserPromptSubmit", "UserPromptSubmit", "no_answer", []),  # the prompt gate
    ]
    assert len(codes(ctx)) == len(set(codes(ctx)))  # the finding itself is said once
    assert diagnose(project).probed is None  # no probe, no record


def test_a_healthy_guard_denies_the_destructive_sample(project: Path) -> None:
    install(project)
    ctx = diagnose(project, probe=True)
    assert [(r.sample, r.result) for r in ctx.probed or []] == [
        ("Bash `echo hi`", "no_answer"),
        ("Bash `rm -rf ./build`", "denied"),
        ("UserPromptSubmit", "no_answer"),  # the prompt gate lets an unchanged project's prompt in
    ]
