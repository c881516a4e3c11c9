"""An observe-only hook installed with `--async` never slows the real client: Claude Code
does not wait for its `async: true` entry, while a blocking guard beside it still denies."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hookman.project.settings_entries import hookman_handler_is_sentinel

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

MARKER = "notified.txt"
RELEASE = "release.txt"
# The async hook waits for the test to release it, so whether the client waited for it is a
# matter of order, not of speed: the client can only finish first if it did not wait. Should
# it wait, the hook gives up after this long and says so.
GIVE_UP_SECONDS = 120

SLOW_NOTIFIER = f"""
import os
import time


def hook(pi):
    @pi.on("tool_result", tools=["Bash"])
    def notify(event, ctx):
        project = os.environ["CLAUDE_PROJECT_DIR"]
        give_up = time.monotonic() + {GIVE_UP_SECONDS}
        while not os.path.exists(os.path.join(project, "{RELEASE}")):
            if time.monotonic() > give_up:
                how = "gave up waiting"
                break
            time.sleep(0.05)
        else:
            how = "released"
        # written whole, then renamed, so the test never reads a half-written marker
        marker = os.path.join(project, "{MARKER}")
        with open(marker + ".part", "w", encoding="utf-8") as handle:
            handle.write(event["input"]["command"] + " " + how + "\\n")
        os.replace(marker + ".part", marker)
        return {{"content": [{{"type": "text", "text": "ASYNC-REWRITE"}}]}}
"""

GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm " in event["input"]["command"]:
            return {"block": True, "reason": "ASYNC-E2E-GUARD no rm"}
"""


def _wait_for(path: Path, seconds: float) -> bool:
    """True once `path` exists, which the hook makes by a rename of the whole file (a cap only
    against hanging forever, far above the time the hook needs once released)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.1)
    return path.exists()


def test_claude_code_does_not_wait_for_an_async_hook_and_the_guard_still_denies(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    e2e.hookman("install", "--async", e2e.write_hook("notifier", SLOW_NOTIFIER))
    post_tool_use = e2e.settings()["hooks"]["PostToolUse"]
    assert [handler.get("async") for group in post_tool_use for handler in group["hooks"]] == [True]
    marker = e2e.root / MARKER

    run = e2e.run_claude("go", turns=[bash("echo async-e2e"), bash("rm -rf precious"), say("done")])
    finished_before_the_hook = not marker.exists()  # the hook is still waiting for RELEASE
    (e2e.root / RELEASE).write_text("go\n", encoding="utf-8")

    assert run.returncode == 0, run.describe()
    assert finished_before_the_hook, f"the client waited for the async hook: {marker.read_text()}"
    echo_result, rm_result = run.tool_result_texts()
    assert "async-e2e" in echo_result and "ASYNC-REWRITE" not in echo_result, run.describe()
    assert "ASYNC-E2E-GUARD no rm" in rm_result, run.describe()
    assert _wait_for(marker, GIVE_UP_SECONDS + 60), "the async hook never ran to its end"
    assert marker.read_text(encoding="utf-8") == "echo async-e2e released\n"


def test_a_guard_installed_with_async_still_denies(e2e: E2EProject) -> None:
    installed = e2e.hookman("install", "--async", e2e.write_hook("guard", GUARD))
    pre_tool_use = [h for group in e2e.settings()["hooks"]["PreToolUse"] for h in group["hooks"]]
    blocking = [h for h in pre_tool_use if not hookman_handler_is_sentinel(h)]
    assert [handler.get("async") for handler in blocking] == [None]
    assert len(pre_tool_use) == 2  # and the sentinel, for every other tool

    run = e2e.run_claude("go", turns=[bash("rm -rf precious"), say("done")])

    assert run.returncode == 0, run.describe()
    (rm_result,) = run.tool_result_texts()
    assert "ASYNC-E2E-GUARD no rm" in rm_result, run.describe()
    assert "part stays in the blocking entry" in " ".join(installed.stdout.split())
