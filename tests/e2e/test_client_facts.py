"""Facts about the real clients that hookman is built on, measured with hand-written command
hooks (no hookman involved). When a client changes, these fail first and say which fact moved.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .harness import E2EProject
from .mock_anthropic import ToolUse, bash, say

pytestmark = pytest.mark.e2e


def echo_json(answer: dict[str, Any]) -> dict[str, Any]:
    return {"type": "command", "command": f"echo '{json.dumps(answer)}'"}


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


# What the model reads, per version: (deny tool_result, PostToolUse context wrapper).
DENY_TEXT = {
    "2.1.332": "PreToolUse:Bash hook error: FACT-DENY",
    "2.1.328": "PreToolUse:Bash hook error: FACT-DENY",
    "2.1.197": "FACT-DENY",
}
POST_TOOL_USE_CONTEXT = {
    "2.1.332": "PostToolUse:Read hook additional context: FACT-POST",
    "2.1.328": "PostToolUse:Read hook additional context: FACT-POST",
    "2.1.197": "<system-reminder>\nPostToolUse:Read hook additional context: FACT-POST\n"
    "</system-reminder>",
}


def test_what_the_model_reads_for_a_deny_and_for_additional_context(e2e: E2EProject) -> None:
    e2e.write("notes.txt", "hello\n")
    e2e.write_settings(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Bash",
                        "hooks": [
                            echo_json(
                                specific(
                                    "PreToolUse",
                                    permissionDecision="deny",
                                    permissionDecisionReason="FACT-DENY",
                                )
                            )
                        ],
                    }
                ],
                "PostToolUse": [
                    {
                        "matcher": "Read",
                        "hooks": [
                            echo_json(specific("PostToolUse", additionalContext="FACT-POST"))
                        ],
                    }
                ],
                "UserPromptSubmit": [
                    {
                        "hooks": [
                            echo_json(specific("UserPromptSubmit", additionalContext="FACT-UPS"))
                        ]
                    }
                ],
                "SessionStart": [
                    {"hooks": [echo_json(specific("SessionStart", additionalContext="FACT-SS"))]}
                ],
            }
        }
    )

    run = e2e.run_claude(
        "go",
        turns=[
            bash("echo never"),
            [ToolUse("Read", {"file_path": str(e2e.root / "notes.txt")})],
            say("done"),
        ],
    )

    assert run.returncode == 0, run.describe()
    deny, read = run.tool_results()
    assert deny["content"] == DENY_TEXT[e2e.version] and deny["is_error"] is True
    assert run.model_saw(POST_TOOL_USE_CONTEXT[e2e.version]), run.describe()
    assert run.model_saw("UserPromptSubmit hook additional context: FACT-UPS")
    assert run.model_saw("SessionStart hook additional context: FACT-SS")
    assert "hello" in json.dumps(read)


# One PostToolUse hook answers each Bash call with the replacement named in its command.
REPLACEMENTS = {
    "bash-shape": (
        "updatedToolOutput",
        {"stdout": "FACT-REPLACED", "stderr": "", "interrupted": False},
    ),
    "partial-shape": ("updatedToolOutput", {"stdout": "FACT-REPLACED"}),
    "string": ("updatedToolOutput", "FACT-REPLACED"),
    "mcp-field": (
        "updatedMCPToolOutput",
        {"stdout": "FACT-REPLACED", "stderr": "", "interrupted": False},
    ),
}
REPLACING_HOOK = """
import json, sys
replacements = json.loads(sys.argv[1])
payload = json.load(sys.stdin)
field, value = replacements[payload["tool_input"]["command"].split()[-1]]
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", field: value}}))
"""


def test_which_post_tool_use_output_replacements_apply_to_bash(e2e: E2EProject) -> None:
    # Measured: 2.1.197 applies updatedToolOutput exactly like 2.1.328 (Bash's shape required).
    script = e2e.write("replace_output.py", REPLACING_HOOK)
    command = f"python3 {script} '{json.dumps(REPLACEMENTS)}'"
    e2e.write_settings(
        {
            "hooks": {
                "PostToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
                ]
            }
        }
    )
    calls = [bash(f"echo FACT-ORIGINAL {variant}") for variant in REPLACEMENTS]

    run = e2e.run_claude("go", turns=[*calls, say("done")])

    seen = dict(zip(REPLACEMENTS, run.tool_result_texts(), strict=True))
    assert seen == {
        "bash-shape": "FACT-REPLACED",
        "partial-shape": "FACT-ORIGINAL partial-shape",
        "string": "FACT-ORIGINAL string",
        "mcp-field": "FACT-ORIGINAL mcp-field",
    }, run.describe()


PRE_COMPACT_ANSWERS = {
    "json-decision-block": 'echo \'{"decision": "block", "reason": "FACT-NO"}\'',
    "exit-2": "echo FACT-NO >&2; exit 2",
}


def test_pre_compact_blocks_compact_by_json_decision_and_by_exit_2(e2e: E2EProject) -> None:
    e2e.run_claude("first", turns=[bash("echo a"), say("one")])

    for name, command in PRE_COMPACT_ANSWERS.items():
        hook = {"type": "command", "command": command}
        e2e.write_settings({"hooks": {"PreCompact": [{"hooks": [hook]}]}})
        run = e2e.run_claude("/compact", continue_session=True)

        status = run.compaction_status()
        assert status.get("compact_result") == "failed", (name, run.describe())
        assert "Compaction blocked by PreCompact hook" in status.get("compact_error", "")
        assert "FACT-NO" in status.get("compact_error", ""), name
        assert not run.conversation_requests


def test_a_client_rewrite_of_settings_drops_unknown_keys_in_hook_entries(e2e: E2EProject) -> None:
    entry = {"type": "command", "command": "true", "x-unknown": "dropped?"}
    e2e.write_settings({"hooks": {"Stop": [{"hooks": [entry]}]}, "x-top": 1})

    e2e.claude_cli("plugin", "init", "factdemo")
    e2e.claude_cli("plugin", "disable", "factdemo@skills-dir", "--scope", "local")

    rewritten = e2e.settings()
    assert rewritten["enabledPlugins"] == {"factdemo@skills-dir": False}
    assert rewritten["hooks"]["Stop"] == [{"hooks": [{"type": "command", "command": "true"}]}]
    assert rewritten["x-top"] == 1


SKILL_SHELL_HOOK = """
import json, sys
payload = json.load(sys.stdin)
with open(sys.argv[1], "a") as log:
    log.write(json.dumps(payload) + "\\n")
if payload["hook_event_name"] != "PreSkillShellCommand":
    sys.exit(0)
command = payload["tool_input"]["command"]
def answer(**fields):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", **fields}}))
if "FACT-A" in command:
    answer(permissionDecision="deny", permissionDecisionReason="FACT-DENY")
elif "FACT-B" in command:
    answer(updatedInput=payload["tool_input"])  # unchanged: still not applied
elif "FACT-C" in command:
    sys.exit(1)
elif "FACT-D" in command:  # a deny that names PreToolUse still counts
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "FACT-DENY-D"}}))
"""
SKILL_SHELL_COMMAND = """
---
description: three inline commands
---
A: !`echo FACT-A > a.txt && echo RAN-A`
B: !`echo FACT-B > b.txt && echo RAN-B`
C: !`echo FACT-C > c.txt && echo RAN-C`
D: !`echo FACT-D > d.txt && echo RAN-D`
"""


def test_inline_shell_commands_of_slash_commands_and_pre_skill_shell_command(
    e2e: E2EProject,
) -> None:
    # PreToolUse never fires for an inline command on any version; PreSkillShellCommand
    # (2.1.332) does. Its deny reads "[not run: blocked by hook: <reason>]", also when the
    # answer names PreToolUse as its hookEventName; any updatedInput, even an unchanged one,
    # is not applied and the command does not run; exit 1 lets it run.
    log = e2e.scratch / "hook-payloads.jsonl"
    script = e2e.write("skill_shell_hook.py", SKILL_SHELL_HOOK)
    handler = {"type": "command", "command": f"python3 {script} {log}"}
    e2e.write_settings(
        {
            "hooks": {
                "PreToolUse": [{"hooks": [handler]}],
                "PreSkillShellCommand": [{"matcher": "Bash", "hooks": [handler]}],
            }
        }
    )
    e2e.write(".claude/commands/facts.md", SKILL_SHELL_COMMAND)

    run = e2e.run_claude("/facts", turns=[say("ok")])

    assert run.returncode == 0, run.describe()
    payloads = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    events = [payload["hook_event_name"] for payload in payloads]
    assert "PreToolUse" not in events
    ran = {name: (e2e.root / f"{name}.txt").exists() for name in "abcd"}
    if e2e.version in ("2.1.197", "2.1.328"):
        assert events == [] and ran == {"a": True, "b": True, "c": True, "d": True}
        assert run.model_saw("A: RAN-A\nB: RAN-B\nC: RAN-C\nD: RAN-D"), run.describe()
        return
    assert events == ["PreSkillShellCommand"] * 4
    assert {key: payloads[0][key] for key in ("tool_name", "command_name", "invoked_by")} == {
        "tool_name": "Bash",
        "command_name": "facts",
        "invoked_by": "user",
    }
    assert ran == {"a": False, "b": False, "c": True, "d": False}
    assert run.model_saw(
        "A: [not run: blocked by hook: FACT-DENY]\n"
        "B: [not run: blocked by hook: the hook changed the command, which isn't supported here]\n"
        "C: RAN-C\n"
        "D: [not run: blocked by hook: FACT-DENY-D]"
    ), run.describe()
