"""Two hooks on one event run in hookman.toml order inside one runner process: the second
sees the first's effects where the semantics say so, and repeated runs agree exactly."""

from __future__ import annotations

import pytest

from .harness import ClaudeRun, E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

# tool_call handlers share one event object (docs/dispatch.md, "Order"): the second hook sees
# what the first wrote into it. before_agent_start keeps the first message only.
FIRST = """
def mark(event, ctx):
    event.setdefault("trail", []).append("first")


def hook(pi):
    pi.on("tool_call", mark, tools=["Bash"])
    pi.on("before_agent_start", lambda event, ctx: {"message": "ORDER-CONTEXT-FIRST"})
"""

SECOND = """
def decide(event, ctx):
    trail = [*event.get("trail", []), "second"]
    return {"block": True, "reason": "ORDER-TRAIL " + ">".join(trail)}


def hook(pi):
    pi.on("tool_call", decide, tools=["Bash"])
    pi.on("before_agent_start", lambda event, ctx: {"message": "ORDER-CONTEXT-SECOND"})
"""


def observed(run: ClaudeRun) -> tuple[list[str], bool, bool]:
    return (
        run.tool_result_texts(),
        run.model_saw("ORDER-CONTEXT-FIRST"),
        run.model_saw("ORDER-CONTEXT-SECOND"),
    )


def test_two_hooks_run_in_the_configured_order_identically_every_time(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("first", FIRST))
    e2e.hookman("install", e2e.write_hook("second", SECOND))

    runs = [e2e.run_claude("go", turns=[bash("echo hi"), say("ok")]) for _ in range(2)]

    texts, saw_first, saw_second = observed(runs[0])
    assert len(texts) == 1 and "ORDER-TRAIL first>second" in texts[0], runs[0].describe()
    assert saw_first and not saw_second
    assert observed(runs[1]) == observed(runs[0])
