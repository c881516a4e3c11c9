"""Context a hook gives the model reaches it in the real client: before_agent_start,
SessionStart, send_message from PostToolUse, and a queued send_message on the next channel."""

from __future__ import annotations

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

CONTEXT_HOOKS = """
def hook(pi):
    @pi.on("before_agent_start")
    def remind(event, ctx):
        return {"message": {"customType": "e2e", "content": "BAS-E2E prompt was " + event["prompt"],
                            "display": False}}

    @pi.on("session_start")
    def greet(event, ctx):
        pi.send_message("SESSION-START-E2E context")
"""

POST_TOOL_MESSAGE = """
def hook(pi):
    @pi.on("tool_result", tools=["Bash"])
    def note(event, ctx):
        pi.send_message("PTU-E2E saw " + event["input"]["command"])
"""

STOP_MESSAGE = """
def hook(pi):
    @pi.on("agent_end")
    def remember(event, ctx):
        pi.send_message("QUEUED-E2E from the last agent_end")
"""


def test_before_agent_start_and_session_start_context_reach_the_model(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("context", CONTEXT_HOOKS))

    run = e2e.run_claude("hello-e2e", turns=[say("ok")])

    assert run.returncode == 0, run.describe()
    assert run.model_saw("BAS-E2E prompt was hello-e2e"), run.describe()
    assert run.model_saw("SESSION-START-E2E context"), run.describe()


def test_send_message_from_post_tool_use_reaches_the_model_after_the_tool(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("note", POST_TOOL_MESSAGE))

    run = e2e.run_claude("go", turns=[bash("echo one"), say("ok")])

    first, after_tool = run.main_requests
    assert "PTU-E2E" not in first.message_text()
    assert "PTU-E2E saw echo one" in after_tool.message_text(), run.describe()


def test_send_message_without_a_channel_waits_for_the_next_one(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("remember", STOP_MESSAGE))
    first = e2e.run_claude("first", turns=[say("one")])
    # Context on Stop would give the model another turn (measured on both versions: each
    # Stop additionalContext re-prompts, up to 8 times), so the text must wait in the queue.
    assert len(first.main_requests) == 1, first.describe()
    assert not first.model_saw("QUEUED-E2E")

    follow_up = e2e.run_claude("second", turns=[say("two")], continue_session=True)

    assert follow_up.model_saw("QUEUED-E2E from the last agent_end"), follow_up.describe()
