from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookman import paths
from hookman.catalog.client_version import parse_version
from hookman.cli.app import app
from hookman.project.manifest import client_facts

from . import helpers
from .helpers import ASYNC_VERSION, NOTIFIER, write_hook
from .helpers import hookman as _hookman
from .helpers import hookman_json as _hookman_json

GUARD = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        print("checking", event["input"]["command"])
        if "rm -rf" in event["input"]["command"]:
            return {"block": True, "reason": "no rm -rf"}
        return {"block": False}

    @pi.on("tool_result")
    def context(event, ctx):
        pi.send_message("ran " + event["tool_name"])
"""


def install_manifest(
    project: Path, source: str = GUARD, claude_version: str | None = "2.1.328"
) -> None:
    """Write the hook and the manifest `hookman install` would write (the runner's contract)."""
    hook_path = project / "hooks" / "guard.py"
    hook_path.parent.mkdir(parents=True, exist_ok=True)
    hook_path.write_text(textwrap.dedent(source))
    manifest_path = paths.manifest_path(project)
    manifest_path.parent.mkdir(parents=True, exist_ok=True)
    manifest = {
        "format": 1,
        "project_dir": str(project.resolve()),
        "state_dir": str(manifest_path.parent),
        "log_path": str(paths.firing_log_path()),
        "claude_version": claude_version,
        "client": client_facts(None if claude_version is None else parse_version(claude_version)),
        "hooks": [
            {
                "name": "guard",
                "path": str(hook_path),
                "events": ["tool_call", "tool_result"],
                "claude_events": ["PreToolUse", "PostToolUse"],
                "tools": {},
            }
        ],
        "entries": {"PreToolUse": {"timeout": 30, "deadline": 27.0}},
    }
    manifest_path.write_text(json.dumps(manifest))


def fire(project: Path, *args: str):
    return CliRunner().invoke(app, ["fire", *args, "--project", str(project)])


def rm_rf_payload(project: Path) -> Path:
    payload = project / "payload.json"
    sample = Path(paths.__file__).parent / "catalog" / "payloads" / "PreToolUse.json"
    data = json.loads(sample.read_text())
    data["tool_input"]["command"] = "rm -rf /"
    payload.write_text(json.dumps(data))
    return payload


def test_fire_shows_results_answer_and_model_text(project: Path) -> None:
    install_manifest(project)

    done = fire(project, "PreToolUse", "--payload", str(rm_rf_payload(project)))

    assert done.exit_code == 0, done.output
    assert 'tool_call -> {"block": true, "reason": "no rm -rf"}' in done.output
    assert "checking rm -rf /" in done.output
    assert '"permissionDecision": "deny"' in done.output
    assert "the model sees\n  PreToolUse:Bash hook error: no rm -rf" in done.output


STUCK_FINALIZER = (
    GUARD
    + """

import time


class Stuck:
    def __del__(self):
        time.sleep(10**6)


_keep = Stuck()
"""
)


def test_fire_ends_once_its_output_is_written_whatever_the_hooks_left(project: Path) -> None:
    """A hook module's finalizer that never returns: fire prints its answer and ends, as
    the runner does (the interpreter's exit would run the finalizer)."""
    install_manifest(project, STUCK_FINALIZER)
    payload = str(rm_rf_payload(project))
    command = [sys.executable, "-m", "hookman", "fire", "PreToolUse", "--payload", payload]

    done = subprocess.run(
        [*command, "--project", str(project)], capture_output=True, text=True, timeout=30
    )

    assert done.returncode == 0, done.stderr
    assert '"permissionDecision": "deny"' in done.stdout


@pytest.mark.parametrize(
    ("claude_version", "model_text"),
    [
        ("2.1.328", "PreToolUse:Bash hook error: no rm -rf"),
        ("2.1.197", "no rm -rf"),
        (None, "PreToolUse:Bash hook error: no rm -rf"),
    ],
)
def test_the_model_text_of_a_deny_is_the_target_clients(
    project: Path, claude_version: str | None, model_text: str
) -> None:
    install_manifest(project, claude_version=claude_version)

    done = fire(project, "PreToolUse", "--payload", str(rm_rf_payload(project)), "--json")

    report = json.loads(done.output)
    assert report["model_sees"] == [model_text]
    unknown_noted = any("version is unknown" in effect for effect in report["effects"])
    assert unknown_noted == (claude_version is None)


def test_post_tool_use_context_on_2_1_197_is_shown_as_a_system_reminder(project: Path) -> None:
    install_manifest(project, claude_version="2.1.197")

    report = json.loads(fire(project, "PostToolUse", "--json").output)

    assert report["model_sees"] == [
        "<system-reminder>\nPostToolUse:Bash hook additional context: ran Bash\n</system-reminder>"
    ]


def test_a_message_sent_on_stop_is_shown_as_queued_not_seen(project: Path) -> None:
    install_manifest(
        project,
        'def hook(pi):\n    pi.on("agent_end", lambda e, c: pi.send_message("later"))\n',
    )
    manifest_path = paths.manifest_path(project)
    manifest = json.loads(manifest_path.read_text())
    manifest["hooks"][0]["claude_events"] = ["Stop"]
    manifest_path.write_text(json.dumps(manifest))

    report = json.loads(fire(project, "Stop", "--json").output)

    assert report["answer"] == {}
    assert report["model_sees"] == []
    assert report["queued_for_next_event"] == ["later"]


def test_fire_json_uses_the_bundled_sample_and_reports_everything(project: Path) -> None:
    install_manifest(project)

    done = fire(project, "PostToolUse", "--json")

    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert report["payload_source"] == "bundled sample PostToolUse.json"
    assert report["hooks"] == [
        {
            "name": "guard",
            "load_error": None,
            "calls": [{"event": "tool_result", "result": None, "error": None}],
        }
    ]
    assert report["answer"] == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ran Bash"}
    }
    assert report["exit_code"] == 0
    assert report["model_sees"] == ["PostToolUse:Bash hook additional context: ran Bash"]


def test_fire_never_touches_the_real_session_state(project: Path) -> None:
    install_manifest(project)

    fire(project, "PostToolUse")

    assert not (paths.manifest_path(project).parent / "sessions").exists()
    assert not paths.firing_log_path().exists()


def test_fire_reports_a_hung_hook_as_the_runner_would(project: Path) -> None:
    install_manifest(
        project,
        """
        import time
        def hook(pi):
            pi.on("tool_call", lambda event, ctx: time.sleep(30))
        """,
    )
    manifest_path = paths.manifest_path(project)
    manifest = json.loads(manifest_path.read_text())
    manifest["entries"]["PreToolUse"]["deadline"] = 0.2
    manifest_path.write_text(json.dumps(manifest))

    done = fire(project, "PreToolUse", "--json")

    report = json.loads(done.output)
    assert report["outcome"] == "timeout"
    assert "deadline of 0.2 s" in report["model_sees"][0]


def test_fire_without_install_says_to_install(project: Path) -> None:
    done = fire(project, "PreToolUse")

    assert done.exit_code == 1
    assert "hookman install" in done.output
    assert "Traceback" not in done.output


def test_a_bad_payload_file_is_one_sentence_and_a_hint(project: Path) -> None:
    install_manifest(project)
    bad = project / "bad.json"
    bad.write_text("{nope")

    done = fire(project, "PreToolUse", "--payload", str(bad))

    assert done.exit_code == 1
    assert "is not valid JSON (line 1, column 2" in done.output
    assert "hint:" in done.output


def test_a_misspelled_event_is_a_usage_error_with_a_suggestion(project: Path) -> None:
    install_manifest(project)

    done = fire(project, "PostToolUze")

    assert done.exit_code == 2
    assert "did you mean PostToolUse?" in done.output


def test_a_runtime_event_name_points_to_the_claude_code_event(project: Path) -> None:
    install_manifest(project)

    done = fire(project, "tool_result")

    assert done.exit_code == 2
    assert "PostToolUse or PostToolUseFailure" in done.output


ODD_RESULTS = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        return {"block": True, "reason": "no", "extra": {1, 2}, (1, 2): float("nan")}
"""


@pytest.mark.parametrize("as_json", [True, False])
def test_results_json_cannot_hold_are_shown_not_a_crash(project: Path, as_json: bool) -> None:
    install_manifest(project, ODD_RESULTS)

    done = fire(project, "PreToolUse", *(["--json"] if as_json else []))

    assert done.exit_code == 0, done.output
    if as_json:
        report = json.loads(done.output, parse_constant=lambda name: pytest.fail(name))
        (call,) = report["hooks"][0]["calls"]
        assert call["result"] == {"block": True, "reason": "no", "extra": "{1, 2}", "(1, 2)": None}
        assert report["answer"]["hookSpecificOutput"]["permissionDecisionReason"] == "no"
    else:
        assert "{1, 2}" in done.output


def test_fire_runs_both_and_only_the_blocking_answer_counts(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "guard", helpers.GUARD.replace("tool_call", "tool_result"))
    write_hook(project, "notifier", NOTIFIER)
    _hookman_json("install", "hooks/guard.py", *ASYNC_VERSION)
    _hookman_json("install", "hooks/notifier.py", "--async", *ASYNC_VERSION)
    payload = project / "payload.json"
    payload.write_text(
        json.dumps(
            {
                "session_id": "s1",
                "hook_event_name": "PostToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "ls"},
                "tool_response": {"stdout": "a", "stderr": "", "interrupted": False},
                "tool_use_id": "t1",
                "cwd": str(project),
            }
        )
    )

    report = _hookman_json("fire", "PostToolUse", "--payload", str(payload))

    assert [hook["name"] for hook in report["hooks"]] == ["guard"]
    assert report["answer"] == {}
    observed = report["async"]
    assert [hook["name"] for hook in observed["hooks"]] == ["notifier"]
    assert observed["answer"] == {}
    ignored = observed["ignored_answer"]["hookSpecificOutput"]["updatedToolOutput"]
    assert "async cannot rewrite" in json.dumps(ignored)
    assert observed["queued_for_next_event"] == ["NOTIFIED ls"]
    assert any("async hooks cannot decide" in text for text in observed["notices"])
    text = _hookman("fire", "PostToolUse", "--payload", str(payload)).stdout
    assert "the answer that counts" in text and "async hook notifier" in text


def test_fire_without_async_hooks_reports_none(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "guard", helpers.GUARD)
    write_hook(project, "notifier", NOTIFIER)
    _hookman_json("install", "hooks/guard.py", *ASYNC_VERSION)
    assert _hookman_json("fire", "PreToolUse")["async"] is None


def test_a_hook_made_by_new_fires_before_the_first_install(project: Path) -> None:
    made = _hookman("new", "guard", "--template", "bash_guard", "--project", str(project))
    assert made.exit_code == 0, made.output
    payload = project / "rm.json"
    payload.write_text('{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}')

    shown = _hookman("fire", "PreToolUse", "--payload", str(payload), "--project", str(project))
    report = _hookman_json(
        "fire", "PreToolUse", "--payload", str(payload), "--project", str(project)
    )

    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[1] == (
        "not installed yet: this is what hookman.toml asks for; `hookman install` writes it "
        "into .claude/settings.local.json."
    )
    assert report["installed"] is False
    assert report["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert not paths.manifest_path(project).exists()
    assert not (project / ".claude" / "settings.local.json").exists()


def test_hooks_in_hookman_toml_but_not_installed_are_named(project: Path) -> None:
    made = _hookman("new", "guard", "-t", "bash_guard", "--install", "--project", str(project))
    assert made.exit_code == 0, made.output
    assert _hookman("new", "later", "-t", "status", "--project", str(project)).exit_code == 0

    shown = _hookman("fire", "PreToolUse", "--project", str(project))
    report = _hookman_json("fire", "PreToolUse", "--project", str(project))

    assert report["installed"] is True and report["not_installed"] == ["later"]
    assert (
        "not installed yet: later (in hookman.toml only; `hookman install` adds it to what "
        "Claude Code runs)." in shown.stdout.splitlines()
    )


SKILL_SHELL_GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no rm -rf in " + event["source"]}
    pi.on("tool_call", check, tools=["Bash"])
"""


def test_fire_runs_a_bash_guard_on_a_skill_shell_command(project: Path) -> None:
    guard = write_hook(project, "guard", SKILL_SHELL_GUARD)
    installed = _hookman(
        "install", str(guard), "--project", str(project), "--claude-version", "2.1.332"
    )
    assert installed.exit_code == 0, installed.output

    result = fire(project, "PreSkillShellCommand")

    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"PreSkillShellCommand in {project} (bundled sample PreSkillShellCommand.json)",
        "",
        "hook guard",
        '  tool_call -> {"block": true, "reason": "no rm -rf in skill_shell"}',
        "",
        "answer to Claude Code (exit 0)",
        "{",
        '  "hookSpecificOutput": {',
        '    "hookEventName": "PreSkillShellCommand",',
        '    "permissionDecision": "deny",',
        '    "permissionDecisionReason": "no rm -rf in skill_shell"',
        "  }",
        "}",
        "",
        "the model sees",
        "  [not run: blocked by hook: no rm -rf in skill_shell]",
        "effect: the skill's shell command is denied; the model reads the reason in place of "
        "the command's output",
    ]


def test_fire_says_a_skill_shell_command_with_updated_input_does_not_run(project: Path) -> None:
    source = """\
def hook(pi):
    pi.on("PreSkillShellCommand", lambda event, ctx: {
        "hookSpecificOutput": {"updatedInput": {"command": "echo safer"}}})
"""
    rewriter = write_hook(project, "rewriter", source)
    installed = _hookman(
        "install", str(rewriter), "--project", str(project), "--claude-version", "2.1.332"
    )
    assert installed.exit_code == 0, installed.output

    report = json.loads(fire(project, "PreSkillShellCommand", "--json").stdout)

    assert report["answer"]["hookSpecificOutput"]["updatedInput"] == {"command": "echo safer"}
    assert report["model_sees"] == [
        "[not run: blocked by hook: the hook changed the command, which isn't supported here]"
    ]
    assert report["effects"] == [
        "Claude Code does not apply updatedInput on PreSkillShellCommand: the command is not run"
    ]
    assert report["user_sees"] == [
        "hookman: hook 'rewriter' returned updatedInput on PreSkillShellCommand; Claude Code "
        "does not apply it there and does not run the command at all."
    ]


def test_fire_says_when_the_target_client_never_sends_the_event(project: Path) -> None:
    guard = write_hook(project, "guard", SKILL_SHELL_GUARD)
    installed = _hookman(
        "install", str(guard), "--project", str(project), "--claude-version", "2.1.328"
    )
    assert installed.exit_code == 0, installed.output

    report = json.loads(fire(project, "PreSkillShellCommand", "--json").stdout)

    assert report["effects"][-1] == (
        "settings.local.json has no hookman entry for PreSkillShellCommand (held back: the "
        "target Claude Code 2.1.328 does not know it), so Claude Code never runs these hooks "
        "for it"
    )
    fired = json.loads(fire(project, "PreToolUse", "--json").stdout)
    assert not any("held back" in effect for effect in fired["effects"])
