"""Hostile: what a guard returns. Whatever object, coroutine or value it hands back, a guard
that asked to block (or could not say) ends in a deny, through the installed command."""

from __future__ import annotations

import pytest

from .attack_support import DENY, guard_that, run_like_claude_code, short_timeout
from .conftest import RunnerProject

ODD_TYPES = """
import asyncio

class Unreadable(dict):
    def get(self, key, default=None):
        raise RuntimeError("no get")
    def __getitem__(self, key):
        raise RuntimeError("no item")

class NoTruth:
    def __bool__(self):
        raise RuntimeError("no bool")
"""

RETURNS = {
    "a dict whose reads raise": "return Unreadable(block=True)",
    "block set to an object whose truth raises": "return {'block': NoTruth()}",
    "a reason that is not text": "return {'block': True, 'reason': NoTruth()}",
    "block as the string 'false' (truthy, as in JS)": "return {'block': 'false'}",
}


@pytest.mark.parametrize("body", list(RETURNS.values()), ids=list(RETURNS))
def test_an_odd_block_result_is_a_deny(runner_project: RunnerProject, body: str) -> None:
    source = ODD_TYPES + guard_that(body, then="pass")
    runner_project.add_hook("guard", source, ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict


ASYNC_GUARDS = {
    "blocks": "return {'block': True, 'reason': 'async says no'}",
    "raises": "raise RuntimeError('async failure')",
    "never finishes": "await asyncio.sleep(60)",
    "cancels itself": "raise asyncio.CancelledError()",
}


@pytest.mark.parametrize("body", list(ASYNC_GUARDS.values()), ids=list(ASYNC_GUARDS))
def test_an_async_guard_that_blocks_fails_or_hangs_is_a_deny_in_time(
    runner_project: RunnerProject, body: str
) -> None:
    source = (
        "import asyncio\n"
        "def hook(pi):\n"
        "    @pi.on('tool_call')\n"
        "    async def guard(event, ctx):\n"
        "        await asyncio.sleep(0)\n"
        f"        {body}\n"
    )
    runner_project.add_hook("guard", source, ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict
    assert "'guard'" in verdict.why or verdict.why == "async says no"
