"""A hook asking only for Claude Code tools Codex never names in a hook payload (`Write`,
`Edit`: Codex 0.150.0 and 0.171.0 have no such tools, their shell tool reaches hooks as
`Bash`, measured: catalog codex_events.json "hook_tools") never runs under Codex: install,
list (human and --json), doctor and `fire --agent codex` say so, and name the tools; where
only some of its tools are such, they name those."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import hookman, hookman_json, write_hook
from .test_install_codex import codex_home  # noqa: F401  (the fixture)

WRITE_GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "secret" in str(event["input"]):
            return {"block": True, "reason": "no secrets"}
    pi.on("tool_call", check, tools=["Write", "Edit"])
"""
MIXED_GUARD = WRITE_GUARD.replace('tools=["Write", "Edit"]', 'tools=["Bash", "Write"]')


def _said(text: str) -> str:
    return " ".join(text.split())


def test_install_and_list_say_a_write_guard_never_runs_under_codex(
    project: Path,
    codex_home: Path,  # noqa: F811
) -> None:
    write_hook(project, "wguard", WRITE_GUARD)
    installed = hookman("install", "hooks/wguard.py", "--agent", "codex")
    assert installed.exit_code == 0, installed.output
    sentence = (
        "the hook 'wguard' asks for 'Write', 'Edit' on 'tool_call', tools Codex never names "
        "in its hooks' payloads (it has no tool by those names; its shell tool reaches hooks "
        "as 'Bash'): it never runs under Codex."
    )
    assert sentence in _said(installed.output), installed.output
    listed = hookman("list").output
    assert sentence in _said(listed), listed
    assert "wguard: PreToolUse  (Codex never sends: Write, Edit)" in listed, listed
    data = hookman_json("list")
    assert data["codex"]["hooks"]["wguard"]["never_sent"] == ["Write", "Edit"]
    assert any(sentence in _said(w) for w in data["warnings"]), data["warnings"]


def test_a_guard_with_some_tools_codex_never_sends_is_said_to_run_for_the_rest(
    project: Path,
    codex_home: Path,  # noqa: F811
) -> None:
    write_hook(project, "mixed", MIXED_GUARD)
    installed = hookman("install", "hooks/mixed.py", "--agent", "codex")
    said = _said(installed.output)
    assert "the hook 'mixed' asks for 'Write' on 'tool_call', a tool Codex never names" in said
    assert "(it has no tool by that name;" in said
    assert "under Codex it runs for 'Bash' only." in said, installed.output
    assert hookman_json("list")["codex"]["hooks"]["mixed"]["never_sent"] == ["Write"]


def test_a_bash_guard_and_unknown_names_are_not_flagged(
    project: Path,
    codex_home: Path,  # noqa: F811
) -> None:
    """Bash is what Codex sends; an MCP tool or a name hookman has no facts for may be sent."""
    source = WRITE_GUARD.replace('tools=["Write", "Edit"]', 'tools=["Bash", "mcp__db__query"]')
    write_hook(project, "bguard", source)
    installed = hookman("install", "hooks/bguard.py", "--agent", "codex")
    assert "never names" not in installed.output, installed.output
    assert hookman_json("list")["codex"]["hooks"]["bguard"]["never_sent"] == []


def test_doctor_warns_about_a_guard_codex_never_runs(
    project: Path,
    codex_home: Path,  # noqa: F811
) -> None:
    write_hook(project, "wguard", WRITE_GUARD)
    assert hookman("install", "hooks/wguard.py", "--agent", "codex").exit_code == 0
    report = json.loads(hookman("doctor", "--json").stdout)
    [found] = [f for f in report["findings"] if f["code"] == "codex-tool-never-sent"]
    assert found["severity"] == "warning"
    assert "The hook 'wguard' asks for 'Write', 'Edit'" in found["message"]
    assert "it never runs under Codex." in found["message"]
    assert found["file"] == str(project / ".codex" / "hooks.json")


def test_fire_as_codex_on_a_tool_codex_never_sends_claims_no_deny(
    project: Path,
    codex_home: Path,  # noqa: F811
) -> None:
    """The entry's matcher (`Edit|Write`) matches the payload, yet no Codex payload names
    Write: fire must not say the call is denied under Codex."""
    write_hook(project, "wguard", WRITE_GUARD)
    assert hookman("install", "hooks/wguard.py", "--agent", "codex").exit_code == 0
    payload = project / "write.json"
    payload.write_text(
        json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": "x", "content": "secret"},
                "session_id": "s",
                "cwd": str(project),
            }
        )
    )
    words = ("fire", "PreToolUse", "--agent", "codex", "--payload", str(payload))
    fired = hookman_json(*words)
    assert "the tool 'Write'" in fired["agent_tool"], fired["agent_tool"]
    assert "Codex never names" in fired["agent_tool"]
    assert fired["codex"]["effects"], fired["codex"]
    assert all(e.startswith("were Codex to send it: ") for e in fired["codex"]["effects"])
    shown = hookman(*words).output
    assert shown.splitlines()[1].startswith("never sent by Codex: "), shown
    assert "effect: the command does not run" not in shown
