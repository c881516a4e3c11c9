"""A session_before_compact hook that cancels blocks `/compact` in the real client."""

from __future__ import annotations

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

NO_COMPACT = """
def hook(pi):
    pi.on("session_before_compact", lambda event, ctx: {"cancel": True})
"""


def test_cancelling_session_before_compact_blocks_compact(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("keep_history", NO_COMPACT))
    e2e.run_claude("first", turns=[bash("echo a"), say("one")])

    run = e2e.run_claude("/compact", continue_session=True)

    status = run.compaction_status()
    assert status.get("compact_result") == "failed", run.describe()
    assert "Compaction blocked by PreCompact hook" in status.get("compact_error", "")
    assert "keep_history" in status.get("compact_error", "")
    assert not run.conversation_requests  # no summary was asked of the model
