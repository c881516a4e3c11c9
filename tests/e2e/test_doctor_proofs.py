"""`hookman doctor` in the real client: for each finding, the hook really is silent (the mock
API never receives its text), doctor reports it with its code, and after applying the fix
doctor printed, doctor is quiet and the model hears the hook."""

from __future__ import annotations

import json
import shlex
import sys
from typing import Any

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

CONTEXT_HOOK = """
import json, sys
json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                         "additionalContext": sys.argv[1]}}))
"""
PLAIN_HOOK = """
import json, sys
json.load(sys.stdin)
print(sys.argv[1])
"""
GUARD_EXIT_1 = """
import json, sys
payload = json.load(sys.stdin)
if "rm -rf" in payload["tool_input"].get("command", ""):
    print(sys.argv[1] + "-STDERR", file=sys.stderr)
    sys.exit(1)
"""


def script_command(e2e: E2EProject, name: str, source: str, marker: str) -> str:
    e2e.write(f"hooks/{name}.py", source)
    python = shlex.quote(sys.executable)
    return f'{python} "$CLAUDE_PROJECT_DIR"/hooks/{name}.py {marker}'


def handler(command: str) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": 30}


def write_project_settings(e2e: E2EProject, hooks: dict[str, Any]) -> None:
    e2e.write(".claude/settings.json", json.dumps({"hooks": hooks}, indent=2) + "\n")


def doctor(e2e: E2EProject, *extra: str) -> dict[str, Any]:
    done = e2e.hookman("doctor", "--json", "--claude-version", e2e.version, *extra, check=False)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    has_error = any(f["severity"] == "error" for f in report["findings"])
    assert done.returncode == (1 if has_error else 0)
    return report


def finding(report: dict[str, Any], code: str) -> dict[str, Any]:
    found = [f for f in report["findings"] if f["code"] == code]
    assert found, f"doctor did not report {code}: {json.dumps(report['findings'], indent=1)}"
    return found[0]


def quiet(report: dict[str, Any]) -> None:
    loud = [f for f in report["findings"] if f["severity"] in ("error", "warning")]
    assert not loud, json.dumps(loud, indent=1)


def model_hears(e2e: E2EProject, marker: str, command: str = "echo hi") -> bool:
    run = e2e.run_claude("go", turns=[bash(command), say("ok")])
    assert run.returncode == 0, run.describe()
    return run.model_saw(marker)


def apply_edit(edit: dict[str, Any]) -> None:
    """Apply a finding's `edit` (a JSON path into its file), as a user following the fix would."""
    from pathlib import Path

    from hookman.doctor.locate import path_steps

    path = Path(edit["file"])
    data = json.loads(path.read_text(encoding="utf-8"))
    steps = path_steps(edit["path"])
    assert steps, edit
    parent = data
    for step in steps[:-1]:
        parent = parent[step]
    last = steps[-1]
    if edit["op"] == "set":
        parent[last] = edit["value"]
    elif edit["op"] == "delete":
        del parent[last]
    elif edit["op"] == "rename":
        parent[edit["value"]] = parent.pop(last)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def prove_edit(e2e: E2EProject, code: str, marker: str) -> None:
    assert not model_hears(e2e, marker), "the broken hook was heard"
    report = doctor(e2e)
    found = finding(report, code)
    assert found["severity"] == "error" and found["edit"], found
    apply_edit(found["edit"])
    quiet(doctor(e2e))
    assert model_hears(e2e, marker), "the fixed hook was not heard"


def test_a_misspelled_event_is_silent_until_renamed(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-EVENT")
    write_project_settings(e2e, {"PostToolUze": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    prove_edit(e2e, "unknown-event", "PROOF-EVENT")


def test_an_invalid_regex_matcher_is_silent_until_fixed(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-REGEX")
    write_project_settings(
        e2e, {"PostToolUse": [{"matcher": "Bash(", "hooks": [handler(command)]}]}
    )
    prove_edit(e2e, "matcher-invalid-regex", "PROOF-REGEX")


def test_a_lowercase_tool_matcher_is_silent_until_fixed(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-CASE")
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "bash", "hooks": [handler(command)]}]})
    prove_edit(e2e, "matcher-case", "PROOF-CASE")


def test_a_permission_rule_matcher_is_silent_until_fixed(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-RULE")
    write_project_settings(
        e2e, {"PostToolUse": [{"matcher": "Bash(echo *)", "hooks": [handler(command)]}]}
    )
    prove_edit(e2e, "matcher-permission-rule", "PROOF-RULE")
    # The fix keeps the rule in the hooks' `if` field: a call outside it does not run the hook.
    group = json.loads((e2e.root / ".claude" / "settings.json").read_text())["hooks"]
    assert group["PostToolUse"][0]["hooks"][0]["if"] == "Bash(echo *)"
    assert not model_hears(e2e, "PROOF-RULE", "ls")


def test_an_invalid_pre_tool_use_entry_silences_the_good_hook_next_to_it(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-INVALID")
    write_project_settings(
        e2e,
        {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "shell", "command": "true"}]}],
            "PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}],
        },
    )
    assert not model_hears(e2e, "PROOF-INVALID")
    report = doctor(e2e)
    found = finding(report, "invalid-entry-silences-file")
    assert found["silences"] == ["hooks.PostToolUse[0].hooks[0]"]
    good = next(h for h in report["handlers"] if h["event"] == "PostToolUse")
    assert good["loaded"] is False
    apply_edit(found["edit"])
    quiet(doctor(e2e))
    assert model_hears(e2e, "PROOF-INVALID")


def test_plain_stdout_on_post_tool_use_is_unheard_until_it_is_json(e2e: E2EProject) -> None:
    command = script_command(e2e, "plain", PLAIN_HOOK, "PROOF-PLAIN")
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    assert not model_hears(e2e, "PROOF-PLAIN")
    quiet(doctor(e2e))  # nothing static is wrong: only running it shows the problem
    found = finding(doctor(e2e, "--probe-commands"), "plain-stdout-dropped")
    assert '"additionalContext"' in found["fix"]
    # The fix doctor printed: answer with the JSON object instead of plain text.
    e2e.write("hooks/plain.py", CONTEXT_HOOK)
    quiet(doctor(e2e, "--probe-commands"))
    assert model_hears(e2e, "PROOF-PLAIN")


def test_exit_1_where_2_was_meant_lets_the_tool_run_until_it_exits_2(e2e: E2EProject) -> None:
    command = script_command(e2e, "guard", GUARD_EXIT_1, "PROOF-EXIT")
    write_project_settings(e2e, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    victim = e2e.root / "victim"
    victim.mkdir()
    # "-STDERR" is only in what the hook writes, not in its command line (which exit 2 shows).
    assert not model_hears(e2e, "PROOF-EXIT-STDERR", f"rm -rf {victim}")
    assert not victim.exists()  # the guard's exit 1 did not stop the tool
    found = finding(doctor(e2e, "--probe-commands"), "exit-1-not-2")
    assert "exit 2" in found["fix"]
    e2e.write("hooks/guard.py", GUARD_EXIT_1.replace("sys.exit(1)", "sys.exit(2)"))
    quiet(doctor(e2e, "--probe-commands"))
    victim.mkdir()
    assert model_hears(e2e, "PROOF-EXIT-STDERR", f"rm -rf {victim}")
    assert victim.is_dir()


def test_a_skills_dir_plugins_hooks_run_and_doctor_lists_them(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-PLUGIN")
    plugin = e2e.home / ".claude" / "skills" / "demo"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "demo"}\n')
    (plugin / "hooks").mkdir()
    hooks = {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]}}
    (plugin / "hooks" / "hooks.json").write_text(json.dumps(hooks))
    assert model_hears(e2e, "PROOF-PLUGIN")
    report = doctor(e2e)
    listed = [h for h in report["handlers"] if h["source"] == "plugin"]
    assert [(h["event"], h["loaded"]) for h in listed] == [("PostToolUse", True)]
    # Disabled for this project: the client skips it, and so does doctor's view.
    e2e.write_settings({"enabledPlugins": {"demo@skills-dir": False}})
    assert not model_hears(e2e, "PROOF-PLUGIN")
    assert not [h for h in doctor(e2e)["handlers"] if h["source"] == "plugin"]


GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "PROOF-GUARD: rm -rf is not allowed here"}
"""
FORMATTER = """
import json, os, sys
payload = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "formatted.log"), "a") as log:
    log.write(payload["tool_input"]["file_path"] + "\\n")
"""


def test_a_realistic_clean_project_passes_and_its_hooks_work(e2e: E2EProject) -> None:
    from .mock_anthropic import ToolUse

    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    formatter = script_command(e2e, "format", FORMATTER, "")
    write_project_settings(
        e2e, {"PostToolUse": [{"matcher": "Edit|Write|MultiEdit", "hooks": [handler(formatter)]}]}
    )
    subprocess_git_init(e2e)
    e2e.hookman("install")  # a teammate's clone: settings.local.json becomes git-ignored
    report = doctor(e2e, "--probe", "--probe-commands")
    quiet(report)
    # The probe ran the formatter on a throwaway file (its script sees the real project dir).
    probed = (e2e.root / "formatted.log").read_text().split()
    assert probed and all("hookman-doctor-" in path for path in probed)
    (e2e.root / "formatted.log").unlink()
    victim = e2e.root / "victim"
    victim.mkdir()
    note = e2e.root / "note.txt"
    run = e2e.run_claude(
        "go",
        turns=[
            [ToolUse("Write", {"file_path": str(note), "content": "hi\n"})],
            bash(f"rm -rf {victim}"),
            say("ok"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert victim.is_dir() and run.model_saw("PROOF-GUARD"), run.describe()
    assert (e2e.root / "formatted.log").read_text().split() == [str(note)]


def subprocess_git_init(e2e: E2EProject) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(e2e.root)], check=True)


def test_disable_all_hooks_silences_the_project_until_removed(e2e: E2EProject) -> None:
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-DISABLED")
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    e2e.write_settings({"disableAllHooks": True})
    prove_edit(e2e, "hooks-disabled", "PROOF-DISABLED")


COUNTER = """
import json, os, sys
json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "runs.log"), "a") as log:
    log.write("ran\\n")
"""


def test_near_identical_copies_run_twice_and_identical_ones_once(e2e: E2EProject) -> None:
    e2e.write("hooks/count.py", COUNTER)
    python = shlex.quote(sys.executable)
    relative = f"{python} hooks/count.py"
    anchored = f'{python} "$CLAUDE_PROJECT_DIR"/hooks/count.py'
    write_project_settings(
        e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(relative)]}]}
    )
    e2e.write_settings(
        {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(anchored)]}]}}
    )
    log = e2e.root / "runs.log"
    model_hears(e2e, "-")
    assert log.read_text().count("ran") == 2
    found = finding(doctor(e2e), "duplicate-runs-twice")
    assert found["severity"] == "warning"
    # The fix: one copy, written identically in both files.
    write_project_settings(
        e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(anchored)]}]}
    )
    quiet(doctor(e2e))
    log.unlink()
    model_hears(e2e, "-")
    assert log.read_text().count("ran") == 1


MIXED_HOOK = """
import json, sys
json.load(sys.stdin)
print("checking the output...")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                         "additionalContext": sys.argv[1]}}))
"""


def test_json_mixed_with_prints_is_unheard_until_only_json_is_printed(e2e: E2EProject) -> None:
    command = script_command(e2e, "mixed", MIXED_HOOK, "PROOF-MIXED")
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    assert not model_hears(e2e, "PROOF-MIXED")
    found = finding(doctor(e2e, "--probe-commands"), "json-mixed-with-prints")
    assert "only the JSON object on stdout" in found["fix"]
    e2e.write("hooks/mixed.py", MIXED_HOOK.replace('print("checking the output...")', ""))
    quiet(doctor(e2e, "--probe-commands"))
    assert model_hears(e2e, "PROOF-MIXED")


LATE_GUARD = """
import json, sys
payload = json.load(sys.stdin)
if "rm -rf" in payload["tool_input"].get("command", ""):
    print(sys.argv[1] + "-STDERR", file=sys.stderr)
    sys.exit(2)
"""


def test_a_guard_on_post_tool_use_cannot_block_until_moved_to_pre_tool_use(
    e2e: E2EProject,
) -> None:
    command = script_command(e2e, "guard", LATE_GUARD, "PROOF-LATE")
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    victim = e2e.root / "victim"
    victim.mkdir()
    model_hears(e2e, "PROOF-LATE", f"rm -rf {victim}")
    assert not victim.exists()  # the tool ran before the "guard" did
    found = finding(doctor(e2e, "--probe-commands"), "block-cannot-block")
    assert "PreToolUse" in found["fix"]
    write_project_settings(e2e, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    quiet(doctor(e2e, "--probe-commands"))
    victim.mkdir()
    assert model_hears(e2e, "PROOF-LATE-STDERR", f"rm -rf {victim}")
    assert victim.is_dir()


BASH_GUARD = """
import json, sys
payload = json.load(sys.stdin)
if "SHELL-RAN" in payload["tool_input"].get("command", ""):
    print("PROOF-SKILL-GUARD: not here", file=sys.stderr)
    sys.exit(2)
"""
PRE_SKILL_SHELL_SINCE = (2, 1, 332)  # claude_code_events.json


def test_inline_skill_shell_commands_pass_a_pre_tool_use_guard(e2e: E2EProject) -> None:
    command = script_command(e2e, "guard", BASH_GUARD, "")
    guard = {"matcher": "Bash", "hooks": [handler(command)]}
    write_project_settings(e2e, {"PreToolUse": [guard]})
    e2e.write(".claude/commands/clean.md", "Clean up: !`touch SHELL-RAN.txt && echo CLEANED`\n")
    marker = e2e.root / "SHELL-RAN.txt"
    run = e2e.run_claude("/clean", turns=[say("ok")])
    assert run.returncode == 0, run.describe()
    assert marker.exists(), "the inline command did not run at all"  # the guard never saw it
    found = finding(doctor(e2e), "inline-shell-unguarded")
    assert found["severity"] == "warning"
    if tuple(int(p) for p in e2e.version.split(".")) < PRE_SKILL_SHELL_SINCE:
        assert "update Claude Code to 2.1.332" in found["fix"]
        return
    # 2.1.332+: the fix doctor printed, a PreSkillShellCommand hook applying the same check.
    assert "PreSkillShellCommand hook with matcher 'Bash'" in found["fix"]
    write_project_settings(e2e, {"PreToolUse": [guard], "PreSkillShellCommand": [guard]})
    assert finding(doctor(e2e), "inline-shell-covered")["severity"] == "info"
    marker.unlink()
    run = e2e.run_claude("/clean", turns=[say("ok")])
    assert run.returncode == 0, run.describe()
    assert not marker.exists(), run.describe()


TOOL_RECORDER = """
import json, os, sys
payload = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "seen.log"), "a") as log:
    log.write(payload["tool_name"] + "\\n")
"""
SUBAGENT = "E2E-DOCTOR-SUBAGENT"


def test_a_task_matcher_still_sees_the_agent_tool_and_doctor_stays_quiet(e2e: E2EProject) -> None:
    # Hooks see the Task tool as "Agent", but an exact "Task" matcher still matches it: doctor
    # must not call it a mistake (it did, before this was measured).
    from .mock_anthropic import ToolUse

    command = script_command(e2e, "recorder", TOOL_RECORDER, "")
    write_project_settings(e2e, {"PreToolUse": [{"matcher": "Task", "hooks": [handler(command)]}]})
    task = {
        "description": "Sub task",
        "prompt": f"{SUBAGENT}: answer",
        "subagent_type": "general-purpose",
        "run_in_background": False,
    }
    run = e2e.run_claude(
        "delegate",
        turns=[[ToolUse("Agent", task)], say("ok")],
        subagents={SUBAGENT: [say("sub ok")]},
    )
    assert run.returncode == 0, run.describe()
    assert (e2e.root / "seen.log").read_text().split() == ["Agent"]
    report = doctor(e2e)
    quiet(report)
    assert report["handlers"][0]["matches"] == ["Agent"]


UPS_CONTEXT = """
import json, sys
json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                         "additionalContext": sys.argv[1]}}))
"""


def test_a_matcher_on_an_event_that_ignores_matchers_filters_nothing(e2e: E2EProject) -> None:
    command = script_command(e2e, "ups", UPS_CONTEXT, "PROOF-IGNORED")
    group = {"matcher": "NoSuchThing", "hooks": [handler(command)]}
    write_project_settings(e2e, {"UserPromptSubmit": [group]})
    assert model_hears(e2e, "PROOF-IGNORED")  # the matcher did not filter it out
    assert finding(doctor(e2e), "matcher-ignored")["severity"] == "warning"


SESSION_CONTEXT = """
import json, sys
json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                         "additionalContext": sys.argv[1]}}))
"""


def test_a_session_start_source_matcher_is_case_sensitive_too(e2e: E2EProject) -> None:
    command = script_command(e2e, "start", SESSION_CONTEXT, "PROOF-SOURCE")
    write_project_settings(
        e2e, {"SessionStart": [{"matcher": "Startup", "hooks": [handler(command)]}]}
    )
    prove_edit(e2e, "matcher-case", "PROOF-SOURCE")


STDOUT_BLOCKER = """
import json, sys
payload = json.load(sys.stdin)
if "rm -rf" in payload["tool_input"].get("command", ""):
    print(sys.argv[1] + "-TEXT")
    sys.exit(2)
"""


def test_stdout_with_exit_2_is_unheard_until_it_goes_to_stderr(e2e: E2EProject) -> None:
    command = script_command(e2e, "blocker", STDOUT_BLOCKER, "PROOF-STDOUT")
    write_project_settings(e2e, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    victim = e2e.root / "victim"
    victim.mkdir()
    assert not model_hears(e2e, "PROOF-STDOUT-TEXT", f"rm -rf {victim}")
    found = finding(doctor(e2e, "--probe-commands"), "stdout-with-exit-2")
    assert "stderr" in found["fix"]
    e2e.write(
        "hooks/blocker.py",
        STDOUT_BLOCKER.replace('-TEXT")', '-TEXT", file=sys.stderr)'),
    )
    quiet(doctor(e2e, "--probe-commands"))
    assert model_hears(e2e, "PROOF-STDOUT-TEXT", f"rm -rf {victim}")


def test_a_tools_key_in_a_group_filters_nothing_until_it_is_a_matcher(e2e: E2EProject) -> None:
    # Claude Code reads only `matcher` and `hooks` in a group: `tools` is dropped, and the
    # group, with no matcher, runs after every tool call (here after Bash, not only Edit).
    command = script_command(e2e, "ctx", CONTEXT_HOOK, "PROOF-TOOLS")
    write_project_settings(
        e2e, {"PostToolUse": [{"tools": ["Edit", "Write"], "hooks": [handler(command)]}]}
    )
    assert model_hears(e2e, "PROOF-TOOLS"), "the tools key filtered the Bash call out"
    found = finding(doctor(e2e), "unknown-key")
    assert found["severity"] == "warning" and "after every tool call" in found["message"]
    assert found["edit"]["value"]["matcher"] == "Edit|Write"
    apply_edit(found["edit"])
    quiet(doctor(e2e))
    assert not model_hears(e2e, "PROOF-TOOLS"), "the matcher doctor wrote did not filter"


STOP_LOGGER = """
import json, os, sys
payload = json.load(sys.stdin)
log = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "stops.log")
with open(log, "a") as handle:
    handle.write(json.dumps(payload) + "\\n")
with open(log) as handle:
    runs = len(handle.readlines())
if runs <= 3:  # capped for the test; the real hook this stands for never stops blocking
    print("PROOF-STOP: run the tests first", file=sys.stderr)
    sys.exit(2)
"""
STOP_WITH_WAY_OUT = STOP_LOGGER.replace(
    "if runs <= 3:", 'if payload.get("stop_hook_active"):\n    sys.exit(0)\nif runs <= 3:'
)


def test_a_stop_hook_without_a_way_out_keeps_the_agent_going(e2e: E2EProject) -> None:
    command = script_command(e2e, "stop", STOP_LOGGER, "")
    write_project_settings(e2e, {"Stop": [{"hooks": [handler(command)]}]})
    run = e2e.run_claude("go", turns=[say("done"), say("again"), say("again"), say("again")])
    assert run.returncode == 0, run.describe()
    log = e2e.root / "stops.log"
    active = [json.loads(line).get("stop_hook_active") for line in log.read_text().splitlines()]
    # Sent back three times; from the second run on the client says so in stop_hook_active.
    assert active == [False, True, True, True], active
    found = finding(doctor(e2e), "stop-ignores-stop-hook-active")
    assert found["severity"] == "warning" and "stop_hook_active" in found["fix"]
    e2e.write("hooks/stop.py", STOP_WITH_WAY_OUT)
    quiet(doctor(e2e))
    log.unlink()
    run = e2e.run_claude("go", turns=[say("done"), say("again")])
    assert run.returncode == 0, run.describe()
    assert len(log.read_text().splitlines()) == 2  # blocked once, then let the agent stop


ENV_DUMP = """
import json, os, sys
json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "env.json"), "w") as handle:
    json.dump(sorted(os.environ), handle)
"""


def test_the_variables_old_tutorials_read_are_never_set(e2e: E2EProject) -> None:
    from hookman.doctor.facts import variables_never_set

    command = script_command(e2e, "env", ENV_DUMP, "")
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(command)]}]})
    model_hears(e2e, "-")
    names = set(json.loads((e2e.root / "env.json").read_text()))
    assert "CLAUDE_PROJECT_DIR" in names
    assert not names & set(variables_never_set()), names & set(variables_never_set())
    reader = 'echo "$CLAUDE_FILE_PATHS" >> "$CLAUDE_PROJECT_DIR"/paths.log'
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [handler(reader)]}]})
    model_hears(e2e, "-")
    assert (e2e.root / "paths.log").read_text().strip() == ""  # it read nothing
    found = finding(doctor(e2e), "variable-never-set")
    assert "tool_input.file_path" in found["fix"]


def test_exec_form_args_fill_in_the_project_dir_and_doctor_follows_them(e2e: E2EProject) -> None:
    # `command` + `args` runs no shell; the client fills in ${CLAUDE_PROJECT_DIR} per element.
    e2e.write("hooks/ctx.py", CONTEXT_HOOK)
    exec_form = {
        "type": "command",
        "command": sys.executable,
        "args": ["${CLAUDE_PROJECT_DIR}/hooks/ctx.py", "PROOF-EXEC"],
        "timeout": 30,
    }
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [exec_form]}]})
    assert model_hears(e2e, "additional context: PROOF-EXEC")
    quiet(doctor(e2e))
    exec_form["args"] = ["${CLAUDE_PROJECT_DIR}/hooks/gone.py", "PROOF-EXEC"]
    write_project_settings(e2e, {"PostToolUse": [{"matcher": "Bash", "hooks": [exec_form]}]})
    # (python exits 2 on a missing script, so the model reads its error and command line, but
    # no context arrives)
    assert not model_hears(e2e, "additional context: PROOF-EXEC")
    found = finding(doctor(e2e), "command-not-found")
    assert "gone.py" in found["message"]
