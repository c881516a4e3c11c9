"""The dispatch `run` and `fire` share, in-process (the subprocess path is in test_run_command)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hookman.bridge.dispatch import dispatch_event
from hookman.bridge.hook_set import CallTracker
from hookman.bridge.manifest_reader import parse_manifest
from hookman.bridge.session_state import SessionState

from .conftest import client_section

MCP_PAYLOAD = {
    "session_id": "s",
    "hook_event_name": "PostToolUse",
    "tool_name": "mcp__notes__read",
    "tool_input": {},
    "tool_use_id": "t1",
    "tool_response": [{"type": "text", "text": "secret"}],
}


def _dispatch(
    tmp_path: Path,
    hooks: dict[str, tuple[str, dict]],
    event: str,
    payload: dict,
    claude_version: str | None = "2.1.328",
):
    records = []
    for name, (source, extra) in hooks.items():
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        records.append({"name": name, "path": str(path), "claude_events": [event], **extra})
    manifest = parse_manifest(
        {
            "project_dir": str(tmp_path),
            "state_dir": str(tmp_path / "state"),
            "claude_version": claude_version,
            "hooks": records,
            "client": client_section(claude_version),
        }
    )
    tracker = CallTracker()
    state = SessionState(manifest.state_dir, payload.get("session_id"))
    return dispatch_event(manifest, event, payload, state=state, tracker=tracker), tracker


REDACT = """
def hook(pi):
    @pi.on("tool_result")
    async def redact(event, ctx):
        return {"content": [{"type": "text", "text": "[hidden]"}]}
"""


@pytest.mark.parametrize("claude_version", ["2.1.197", "2.1.328", None])
def test_an_async_redaction_of_an_mcp_tool_is_updated_mcp_tool_output(
    tmp_path: Path, claude_version: str | None
) -> None:
    result, tracker = _dispatch(
        tmp_path,
        {"redact": (REDACT, {"events": ["tool_result"]})},
        "PostToolUse",
        MCP_PAYLOAD,
        claude_version=claude_version,
    )

    assert result.answer == {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedMCPToolOutput": [{"type": "text", "text": "[hidden]"}],
        }
    }
    assert [(call.hook, call.event) for call in tracker.calls] == [("redact", "tool_result")]
    assert result.notices == []


SEND_AND_RETURN = """
def hook(pi):
    pi.on("agent_end", lambda event, ctx: pi.send_message("sent"))
    pi.on("Stop", lambda event, ctx: {"hookSpecificOutput": {"additionalContext": "returned"}})
"""


def test_on_stop_send_message_texts_are_queued_and_returned_context_passes(
    tmp_path: Path,
) -> None:
    hooks = {"h": (SEND_AND_RETURN, {"events": ["agent_end", "Stop"]})}
    result, _ = _dispatch(tmp_path, hooks, "Stop", {"session_id": "s"})

    assert result.answer == {
        "hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "returned"}
    }
    assert result.queued == ["sent"]
    assert result.delivered_from_queue == []


def test_on_an_event_without_a_channel_every_context_is_queued_in_order(
    tmp_path: Path,
) -> None:
    source = """
    def hook(pi):
        pi.on("session_shutdown", lambda event, ctx: pi.send_message("first"))
        pi.on("SessionEnd", lambda event, ctx: {"hookSpecificOutput": {"additionalContext": "2"}})
    """
    hooks = {"h": (source, {"events": ["session_shutdown", "SessionEnd"]})}
    result, _ = _dispatch(tmp_path, hooks, "SessionEnd", {"session_id": "s"})

    assert result.answer == {}
    assert result.queued == ["first", "2"]


def test_a_hook_narrowed_to_other_tools_is_not_called(tmp_path: Path) -> None:
    guard = 'def hook(pi):\n    pi.on("tool_call", lambda e, c: {"block": True})\n'
    payload = {
        "session_id": "s",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": "t",
    }
    result, tracker = _dispatch(
        tmp_path,
        {"edit-only": (guard, {"events": ["tool_call"], "tools": {"tool_call": ["Edit"]}})},
        "PreToolUse",
        payload,
    )

    assert result.answer == {}
    assert tracker.calls == []


def test_each_hook_result_is_recorded_in_order(tmp_path: Path) -> None:
    first = 'def hook(pi):\n    pi.on("tool_call", lambda e, c: {"note": 1})\n'
    second = 'def hook(pi):\n    pi.on("tool_call", lambda e, c: {"block": True, "reason": ""})\n'
    payload = {"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    result, tracker = _dispatch(
        tmp_path,
        {
            "first": (first, {"events": ["tool_call"]}),
            "second": (second, {"events": ["tool_call"]}),
        },
        "PreToolUse",
        payload,
    )

    assert [(call.hook, call.result) for call in tracker.calls] == [
        ("first", {"note": 1}),
        ("second", {"block": True, "reason": ""}),
    ]
    reason = result.answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason == "Tool execution was blocked by a hook (second)"
    assert result.outcome == "denied"


def test_notify_reaches_the_user_and_entries_persist(tmp_path: Path) -> None:
    source = """
    def hook(pi):
        @pi.on("agent_end")
        def end(event, ctx):
            ctx.ui.notify("all done")
            pi.append_entry("summary", {"turns": 2})
    """
    result, _ = _dispatch(
        tmp_path, {"notes": (source, {"events": ["agent_end"]})}, "Stop", {"session_id": "s"}
    )

    assert result.answer == {"systemMessage": "notes: all done"}
    assert "summary" in (tmp_path / "state/sessions/s/entries.jsonl").read_text()


def test_a_non_object_raw_result_is_a_notice(tmp_path: Path) -> None:
    source = 'def hook(pi):\n    pi.on("Stop", lambda e, c: "block please")\n'
    result, _ = _dispatch(tmp_path, {"raw": (source, {"events": ["Stop"]})}, "Stop", {})

    assert result.answer == {}
    assert "only an object of Claude Code output fields counts" in result.notices[0]


BASH_PAYLOAD = {
    "session_id": "s",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls"},
    "tool_use_id": "t1",
}


@pytest.mark.parametrize(
    "returned",
    [
        '{"decision": "allow"}',
        '{"hookSpecificOutput": {"updatedInput": "ls"}}',
        '{"hookSpecificOutput": {"permissionDecision": "yes"}}',
    ],
)
def test_a_raw_handlers_unreadable_decision_on_a_guarded_event_fails_closed(
    tmp_path: Path, returned: str
) -> None:
    source = f'def hook(pi):\n    pi.on("PreToolUse", lambda event, ctx: {returned})\n'
    result, _ = _dispatch(
        tmp_path, {"sloppy": (source, {"events": ["PreToolUse"]})}, "PreToolUse", BASH_PAYLOAD
    )

    specific = result.answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith(
        "hookman blocked this tool call because the hook 'sloppy' returned a decision Claude "
        "Code cannot read ("
    )
    assert result.outcome == "failed-closed"
    assert "left out of the answer" in result.answer["systemMessage"]


def test_an_ill_typed_field_elsewhere_is_left_out_and_named(tmp_path: Path) -> None:
    returned = '{"suppressOutput": "yes", "async": True}'
    source = f'def hook(pi):\n    pi.on("Stop", lambda e, c: {returned})\n'
    result, _ = _dispatch(
        tmp_path, {"sloppy": (source, {"events": ["Stop"]})}, "Stop", {"session_id": "s"}
    )

    assert result.answer == {
        "systemMessage": "hookman: hook 'sloppy' returned fields Claude Code would refuse "
        "(suppressOutput: a string, not true or false; async: not a field Claude Code reads "
        "on Stop); they were left out of the answer."
    }
    assert result.outcome == "ok"


def test_a_guard_that_registers_no_handler_now_fails_closed_and_says_reinstall(
    tmp_path: Path,
) -> None:
    emptied = "def hook(pi):\n    pass\n"
    result, _ = _dispatch(
        tmp_path, {"guard": (emptied, {"events": ["tool_call"]})}, "PreToolUse", BASH_PAYLOAD
    )

    reason = result.answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith(
        "hookman blocked this tool call because the hook 'guard' was installed as a guard but "
        "registers no 'tool_call' handler now (it changed since `hookman install`, or "
        "registers it only under a condition; run `hookman install` after changing a hook)"
    )
    assert result.outcome == "failed-closed"
    assert result.errors[0]["hook"] == "guard"


def test_a_hook_that_guards_other_tools_is_not_asked_for_a_handler(tmp_path: Path) -> None:
    emptied = "def hook(pi):\n    pass\n"
    extra = {"events": ["tool_call"], "tools": {"tool_call": ["Read"]}}
    result, _ = _dispatch(tmp_path, {"guard": (emptied, extra)}, "PreToolUse", BASH_PAYLOAD)

    assert result.answer == {}
    assert result.outcome == "ok"
