"""A Bash guard installed by `hookman install` blocks in the real client, and fails closed."""

from __future__ import annotations

import pytest

from .harness import ClaudeRun, E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "GUARD-E2E: rm -rf is not allowed here"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

RAISING_GUARD = """
def guard(event, ctx):
    raise RuntimeError("GUARD-E2E-BUG")


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

BROKEN_IMPORT_GUARD = """
import hookman_e2e_module_that_does_not_exist


def hook(pi):
    pi.on("tool_call", lambda event, ctx: None, tools=["Bash"])
"""


def hookman_internals_seen(run: ClaudeRun) -> list[str]:
    """Pieces of hookman's command line that reached the model (there must be none)."""
    text = run.all_message_text()
    return [piece for piece in ("-m hookman", "manifest.json", "hookman run") if piece in text]


def test_rm_rf_is_denied_with_the_reason_and_a_harmless_command_runs(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    denied, harmless = run.tool_results()
    assert denied["is_error"] is True
    assert "GUARD-E2E: rm -rf is not allowed here" in denied["content"], run.describe()
    assert victim.is_dir()
    assert harmless["content"] == "harmless-42"
    assert hookman_internals_seen(run) == []


def test_a_guard_that_raises_denies_and_names_the_hook(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("buggy", RAISING_GUARD))
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "buggy" in denied["content"] and "GUARD-E2E-BUG" in denied["content"]
    assert not witness.exists()
    assert hookman_internals_seen(run) == []


def test_a_guard_that_no_longer_imports_denies(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("fragile", GUARD))
    e2e.write_hook("fragile", BROKEN_IMPORT_GUARD)  # broken after install, as in real life
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "fragile" in denied["content"] and "failed to load" in denied["content"]
    assert not witness.exists()
