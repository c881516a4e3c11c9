"""agent_end fires once for the main agent, never for a subagent finishing (Task/Agent tool)."""

from __future__ import annotations

import json

import pytest

from .harness import E2EProject
from .mock_anthropic import ToolUse, bash, say

pytestmark = pytest.mark.e2e

RECORDER = """
import json
import os


def record(ctx, what):
    with open(os.path.join(ctx.cwd, "fired.jsonl"), "a") as log:
        log.write(json.dumps({"what": what, "agent_id": ctx.agent_id}) + "\\n")


def hook(pi):
    pi.on("agent_end", lambda event, ctx: record(ctx, "agent_end"))
    pi.on("tool_call", lambda event, ctx: record(ctx, "tool_call"), tools=["Bash"])
"""

SUBAGENT_MARKER = "E2E-SUBAGENT-TASK"


def delegate() -> list[ToolUse]:
    task = {
        "description": "Sub task",
        "prompt": f"{SUBAGENT_MARKER}: run one command",
        "subagent_type": "general-purpose",
        "run_in_background": False,  # 2.1.328 defaults to background agents
    }
    return [ToolUse("Agent", task)]


def test_agent_end_fires_once_for_the_main_agent_and_not_for_the_subagent(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("recorder", RECORDER))

    run = e2e.run_claude(
        "delegate",
        turns=[delegate(), say("main done")],
        subagents={SUBAGENT_MARKER: [bash("echo from-sub"), say("sub done")]},
    )

    assert run.returncode == 0, run.describe()
    assert run.turns_left == {"main": 0, SUBAGENT_MARKER: 0}, run.describe()
    fired = [json.loads(line) for line in (e2e.root / "fired.jsonl").read_text().splitlines()]
    assert [f for f in fired if f["what"] == "agent_end"] == [
        {"what": "agent_end", "agent_id": None}
    ], fired
    [sub_call] = [f for f in fired if f["what"] == "tool_call"]
    assert sub_call["agent_id"], "the subagent's tool call should carry its agent_id"
