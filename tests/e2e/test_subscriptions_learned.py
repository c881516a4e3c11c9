"""A subscription a hook's code gains after install is wired by a bare `hookman install`
(what a teammate runs after a pull) and fires in the real client (issue 24, item 1)."""

from __future__ import annotations

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

OBSERVER = """
def hook(pi):
    pi.on("session_start", lambda event, ctx: None)
"""
# The same hook, a commit later: it now guards Bash too.
GUARD = (
    OBSERVER
    + """
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "LEARNED-E2E: rm -rf is not allowed here"}

    pi.on("tool_call", guard, tools=["Bash"])
"""
)


def test_a_subscription_gained_in_code_is_wired_by_a_bare_install(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("guard", OBSERVER))
    e2e.write_hook("guard", GUARD)
    done = e2e.hookman("install")  # bare: what a teammate runs after a pull
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "LEARNED-E2E: rm -rf is not allowed here" in denied["content"], run.describe()
    assert victim.is_dir()
    assert "guard now subscribes to tool_call (Bash only)" in done.stdout
