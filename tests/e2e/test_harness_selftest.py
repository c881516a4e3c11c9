"""The harness proves itself without hookman: a hand-written hook in settings.local.json,
the real client, the mock and the request recording."""

from __future__ import annotations

import json

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

DENY_JSON = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "selftest-deny-reason",
    }
}


def test_prompt_reaches_the_mock_and_the_answer_reaches_the_stream(e2e: E2EProject) -> None:
    run = e2e.run_claude("selftest-prompt-marker", turns=[say("selftest-answer")])

    assert run.returncode == 0, run.describe()
    assert len(run.main_requests) == 1
    assert run.model_saw("selftest-prompt-marker")
    assert run.result.get("result") == "selftest-answer"
    assert run.turns_left == {"main": 0}


def test_a_hand_written_deny_hook_blocks_and_its_reason_reaches_the_model(
    e2e: E2EProject,
) -> None:
    witness = e2e.root / "witness.txt"
    e2e.write_settings(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Bash",
                        "hooks": [
                            {"type": "command", "command": f"echo '{json.dumps(DENY_JSON)}'"}
                        ],
                    }
                ]
            }
        }
    )

    run = e2e.run_claude("run it", turns=[bash(f"echo ran > {witness}"), say("after-deny")])

    assert run.returncode == 0, run.describe()
    assert len(run.main_requests) == 2, run.describe()
    assert not witness.exists()
    [result] = run.tool_results()
    assert "selftest-deny-reason" in json.dumps(result)
    assert run.result.get("result") == "after-deny"
