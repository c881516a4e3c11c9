"""`hookman fire EVENT --agent copilot|qwen|droid`: the payload that agent sends (captured
from its binary), its tool names mapped as the runner maps them, and what the agent and its
model get (commands/agent_fire_view.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .test_fire import fire, install_manifest

TOOL_GUARD = """
def hook(pi):
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no rm -rf"}
    pi.on("tool_call", guard, tools=["Bash"])
"""
NATIVE = {"qwen": "run_shell_command", "droid": "Execute", "copilot": "Bash"}


def _rm_rf(project: Path, agent: str) -> Path:
    """The agent's captured PreToolUse payload, running `rm -rf`."""
    sample = Path(__file__).resolve().parents[2] / "hookman" / "catalog" / "agent_payloads"
    (path,) = sample.glob(f"{agent}-*-PreToolUse.json")
    data = json.loads(path.read_text())
    data["tool_input"]["command"] = "rm -rf build"
    payload = project / f"{agent}.json"
    payload.write_text(json.dumps(data))
    return payload


def _report(project: Path, *args: str) -> dict[str, Any]:
    done = fire(project, *args, "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert isinstance(report, dict)
    return report


@pytest.mark.parametrize("agent", ["qwen", "droid", "copilot"])
def test_the_agent_s_shell_call_is_denied_and_its_model_reads_why(
    project: Path, agent: str
) -> None:
    install_manifest(project, TOOL_GUARD)
    report = _report(
        project, "PreToolUse", "--agent", agent, "--payload", str(_rm_rf(project, agent))
    )
    view = report[agent]
    assert view["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    # only the manifest is written here, none of the agent's entries: it runs the call
    # without hookman, and the view is what it gets once install wrote them
    assert "runs it without hookman (nothing denies it)" in report["agent_entry"]
    assert "once installed: the tool call does not run" in view["effects"]
    if agent == "copilot":
        assert view["answer"]["permissionDecision"] == "deny"
        assert view["model_sees"] == ["Denied by preToolUse hook: no rm -rf"]
    else:  # Qwen keeps any hook's continue: false (catalog/agent_hook_merge.json)
        stops = {"continue", "stopReason"} if agent == "qwen" else set()
        assert set(view["answer"]) == {"hookSpecificOutput", *stops}
        assert view["model_sees"] == ["no rm -rf"]
        named = f"(the agent calls it {NATIVE[agent]!r})"
        assert any(NATIVE[agent] in effect for effect in view["effects"]), named
    assert "codex" not in report  # additive: Claude Code's own keys stay as they were
    assert report["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_without_a_payload_the_captured_one_is_used(project: Path, agent: str) -> None:
    install_manifest(project, TOOL_GUARD)
    report = _report(project, "PreToolUse", "--agent", agent)
    assert report["payload_source"].startswith("payload captured from ")
    assert any(NATIVE[agent] in effect for effect in report[agent]["effects"])


def test_copilot_s_model_reads_context_given_at_the_top_level(project: Path) -> None:
    install_manifest(project)  # its tool_result handler sends "ran TOOL" as context
    report = _report(project, "PostToolUse", "--agent", "copilot")
    assert report["copilot"]["answer"] == {"additionalContext": "ran Bash"}
    assert report["copilot"]["model_sees"] == ["ran Bash"]
    assert "additionalContext" in report["answer"]["hookSpecificOutput"]  # Claude Code's


def test_the_human_report_names_the_agent(project: Path) -> None:
    install_manifest(project, TOOL_GUARD)
    done = fire(
        project, "PreToolUse", "--agent", "droid", "--payload", str(_rm_rf(project, "droid"))
    )
    assert done.exit_code == 0, done.output
    assert "under Factory droid" in done.output
    assert "answer to Factory droid (exit 0)" in done.output
    assert "no rm -rf" in done.output


def test_an_unknown_agent_is_refused_naming_the_known_ones(project: Path) -> None:
    install_manifest(project, TOOL_GUARD)
    done = fire(project, "PreToolUse", "--agent", "gemini")
    assert done.exit_code == 2
    assert "pass claude, codex, copilot, qwen or droid." in " ".join(done.output.split())


FILE_GUARD = """
def hook(pi):
    def guard(event, ctx):
        if event["input"].get("file_path", "").endswith(".env"):
            return {"block": True, "reason": "no .env"}
    pi.on("tool_call", guard)
"""


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Read", {"path": "/p/.env"}),
        ("Edit", {"path": "/p/.env", "old_str": "A", "new_str": "B"}),
        ("Write", {"path": "/p/.env", "file_text": "A"}),
    ],
)
def test_copilot_s_file_call_reaches_a_guard_with_claude_code_s_keys(
    project: Path, tool: str, tool_input: dict[str, Any]
) -> None:
    """Copilot CLI sends its own input keys under Claude Code's tool names (measured on
    1.0.102): the guard reads `file_path` and denies."""
    install_manifest(project, FILE_GUARD)
    payload = project / "copilot.json"
    sent = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input}
    payload.write_text(json.dumps({**sent, "session_id": "s", "cwd": str(project)}))
    report = _report(project, "PreToolUse", "--agent", "copilot", "--payload", str(payload))
    assert report["copilot"]["model_sees"] == ["Denied by preToolUse hook: no .env"], report
