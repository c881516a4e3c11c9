"""Redaction: a tool_result hook's replacement is what the model reads, never the secret."""

from __future__ import annotations

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

REDACT = """
def redact(event, ctx):
    texts = [item.get("text", "") for item in event["content"]]
    if any("sk-SECRET" in text for text in texts):
        return {"content": [{"type": "text", "text": text.replace("sk-SECRET-4242", "[REDACTED]")}
                            for text in texts]}


def hook(pi):
    pi.on("tool_result", redact, tools=["Bash"])
"""


def test_a_secret_in_bash_output_never_reaches_the_model(e2e: E2EProject) -> None:
    # Both clients apply updatedToolOutput in Bash's own output shape (test_client_facts), so
    # redaction must work on 2.1.197 too.
    e2e.hookman("install", e2e.write_hook("redact", REDACT))

    # The command computes the secret, so only the output (not the tool call) contains it.
    run = e2e.run_claude("show", turns=[bash("echo token=sk-SECRET-$((4000+242))"), say("ok")])

    assert run.returncode == 0, run.describe()
    assert not run.model_saw("sk-SECRET-4242"), run.describe()
    assert run.tool_result_texts() == ["token=[REDACTED]"]
