"""A guard result hookman does not understand denies `rm -rf` in the real client, and the
model reads why: the hook's name, what it returned, and the fix."""

from __future__ import annotations

import re

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say
from .test_guard import hookman_internals_seen

pytestmark = pytest.mark.e2e

GUARDS = {
    # Claude Code's own deny shape, returned from a pi tool_call handler
    "decision-block": """
def guard(event, ctx):
    if "rm -rf" in event["input"]["command"]:
        return {"decision": "block", "reason": "no rm"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
""",
    # a handler written with `yield`: its body never runs, the runner gets a generator
    "generator": """
def guard(event, ctx):
    if "rm -rf" in event["input"]["command"]:
        yield {"block": True, "reason": "no rm"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
""",
    # a raw PreToolUse handler that returns the JSON text instead of the object
    "json-text": """
import json


def guard(event, ctx):
    deny = {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
    return json.dumps({"hookSpecificOutput": deny})


def hook(pi):
    pi.on("PreToolUse", guard, tools=["Bash"])
""",
}
# What the model reads before hookman's reason, per client (measured; test_client_facts.py).
PREFIX = {
    "2.1.332": "PreToolUse:Bash hook error: ",
    "2.1.328": "PreToolUse:Bash hook error: ",
    "2.1.197": "",
}
RETURNED = {
    "decision-block": re.escape(
        "{'decision': 'block', 'reason': 'no rm'} (fields a tool_call result does not have: "
        "'decision'; that is Claude Code's own shape: return it from a handler registered "
        'under "PreToolUse", or return {"block": True, "reason": "..."} here)'
    ),
    "generator": re.escape("<generator object guard at 0x")
    + "[0-9a-f]+"
    + re.escape(
        "> (a generator: the handler uses `yield`; use `return`; a tool_call handler returns "
        'None to allow or {"block": True, "reason": "..."} to deny)'
    ),
    "json-text": re.escape(
        '\'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":... '
        "(a str, not a dict: JSON text, not the object; a raw handler returns None or a dict "
        "of Claude Code output fields)"
    ),
}
FIX = (
    ", and a guard that cannot decide must not let it through. Fix the hook (`hookman fire "
    "PreToolUse` shows what happens, `hookman log` the error) or switch it off in the project's "
    "hookman.toml with `hookman disable sloppy`."
)


@pytest.mark.parametrize("kind", list(GUARDS))
def test_a_guard_result_hookman_does_not_understand_denies_rm_rf(
    e2e: E2EProject, kind: str
) -> None:
    e2e.hookman("install", e2e.write_hook("sloppy", GUARDS[kind]))
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])

    assert run.returncode == 0, run.describe()
    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    expected = (
        re.escape(
            PREFIX[e2e.version]
            + "hookman blocked this tool call because the hook 'sloppy' returned "
        )
        + RETURNED[kind]
        + re.escape(FIX)
    )
    assert re.fullmatch(expected, denied["content"]), denied["content"]
    assert victim.is_dir()
    assert hookman_internals_seen(run) == []
