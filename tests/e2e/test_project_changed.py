"""After a pull, the old code never decides in silence (issue 24, item 2), in the real clients:
a teammate's guard added to hookman.toml, without `hookman install`, stops every prompt in
Claude Code (the prompt gate) and makes every Bash call in Codex a deny whose reason, as the
model reads it, names `hookman install`; a guard no installed entry reaches (a Write guard
where the entry matches Bash only) is stopped the same way; after install the new guard
works. Every pinned Claude Code client, and Codex CLI."""

from __future__ import annotations

import os

import pytest

from .codex_harness import CodexProject
from .harness import E2EProject
from .mock_anthropic import ToolUse, bash, say
from .mock_openai import shell

pytestmark = pytest.mark.e2e

GUARD = """
def hook(pi):
    def guard(event, ctx):
        if "BLOCK-ME" in event["input"].get("command", ""):
            return {"block": True, "reason": "MOVED-E2E: not this one"}
    pi.on("tool_call", guard, tools=["Bash"])
"""
# The teammate's guard, committed to hookman.toml as their `hookman install` wrote it.
ADDED = """
def hook(pi):
    def guard(event, ctx):
        if "ADDED-BLOCK" in event["input"].get("command", ""):
            return {"block": True, "reason": "MOVED-E2E: the added guard says no"}
    pi.on("tool_call", guard, tools=["Bash"])
"""
ADDED_ENTRY = (
    '\n[[hooks]]\nname = "added"\npath = "hooks/added.py"\n'
    'events = ["tool_call"]\ntools = { tool_call = ["Bash"] }\n'
)


def _pull_a_teammates_guard(project: E2EProject | CodexProject) -> None:
    project.write_hook("added", ADDED)
    config = project.root / ".claude" / "hookman.toml"
    config.write_text(config.read_text(encoding="utf-8") + ADDED_ENTRY, encoding="utf-8")


def test_claude_code_reads_the_deny_naming_install_and_after_install_the_guard_works(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    _pull_a_teammates_guard(e2e)
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ADDED-BLOCK > {witness}"), say("ok")])

    # the prompt gate stops the session before the model is asked (ARCHITECTURE.md)
    stopped = run.stopped_by_hook()
    assert stopped.startswith("Operation stopped by hook: hookman blocked this prompt"), (
        run.describe()
    )
    assert ".claude/hookman.toml changed since `hookman install`" in stopped
    assert f"Run `hookman install` in {e2e.root}" in stopped
    assert run.main_requests == [] and not witness.exists()

    e2e.hookman("install")
    run = e2e.run_claude(
        "go", turns=[bash(f"echo ADDED-BLOCK > {witness}"), bash("echo ok-$((40+2))"), say("ok")]
    )
    denied, harmless = run.tool_results()
    assert "MOVED-E2E: the added guard says no" in denied["content"], run.describe()
    assert not witness.exists()
    assert harmless["content"] == "ok-42"


WRITE_GUARD = """
def hook(pi):
    def guard(event, ctx):
        return {"block": True, "reason": "GATE-E2E: no writes"}
    pi.on("tool_call", guard, tools=["Write"])
"""
WRITE_ENTRY = (
    '\n[[hooks]]\nname = "no_write"\npath = "hooks/no_write.py"\n'
    'events = ["tool_call"]\ntools = { tool_call = ["Write"] }\n'
)


def test_a_pulled_guard_no_installed_entry_reaches_stops_the_prompt_until_install(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    assert "Write" not in str(e2e.settings())  # the PreToolUse entry matches Bash only
    e2e.write_hook("no_write", WRITE_GUARD)
    config = e2e.root / ".claude" / "hookman.toml"
    config.write_text(config.read_text(encoding="utf-8") + WRITE_ENTRY, encoding="utf-8")
    target = e2e.root / "written.txt"

    run = e2e.run_claude(
        "go", turns=[[ToolUse("Write", {"file_path": str(target), "content": "x"})], say("ok")]
    )

    assert "hookman install" in run.stopped_by_hook(), run.describe()
    assert run.main_requests == [] and not target.exists()
    e2e.hookman("install")
    run = e2e.run_claude(
        "go", turns=[[ToolUse("Write", {"file_path": str(target), "content": "x"})], say("ok")]
    )
    assert run.stopped_by_hook() == "", run.describe()
    assert "GATE-E2E: no writes" in run.tool_result_texts()[0], run.describe()
    assert not target.exists()


def test_codex_reads_the_deny_naming_install_and_after_install_the_guard_works(
    codex_e2e: CodexProject,
) -> None:
    e2e = codex_e2e
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--agent", "codex")
    _pull_a_teammates_guard(e2e)

    run = e2e.run_codex("go", turns=[shell("echo ADDED-BLOCK > witness.txt"), say("done")])

    [output] = run.tool_outputs()
    assert output.startswith("Command blocked by PreToolUse hook: hookman blocked"), run.describe()
    assert ".claude/hookman.toml changed since `hookman install`" in output
    assert "Run `hookman install` in" in output
    assert not (e2e.root / "witness.txt").exists()

    e2e.hookman("install")
    run = e2e.run_codex(
        "go",
        turns=[shell("echo ADDED-BLOCK > witness.txt"), shell("echo ok > ok.txt"), say("done")],
    )
    outputs = run.tool_outputs()
    assert outputs[0].startswith(
        "Command blocked by PreToolUse hook: MOVED-E2E: the added guard says no"
    ), run.describe()
    assert not (e2e.root / "witness.txt").exists()
    assert (e2e.root / "ok.txt").read_text() == "ok\n", run.describe()


def test_a_pull_during_a_session_is_denied_on_a_tool_no_blocking_entry_reaches(
    e2e: E2EProject,
) -> None:
    """A pull in the middle of a session (the agent's own `git pull`, here a copy of the
    teammate's files) adds a Write guard: no prompt comes between, so the prompt gate cannot
    stop it; the PreToolUse sentinel (its matcher: every tool but Bash) runs the runner for
    the Write, which denies naming `hookman install`, and the model reads that."""
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    config = e2e.root / ".claude" / "hookman.toml"
    staged = e2e.root.parent / f"{e2e.root.name}-pulled"
    (staged / "hooks").mkdir(parents=True)
    (staged / "hooks" / "no_write.py").write_text(WRITE_GUARD, encoding="utf-8")
    (staged / "hookman.toml").write_text(
        config.read_text(encoding="utf-8") + WRITE_ENTRY, encoding="utf-8"
    )
    _wait_past_the_sentinel_stamp(e2e)
    pull = (
        f"cp {staged}/hooks/no_write.py hooks/ && cp {staged}/hookman.toml .claude/ && echo pulled"
    )
    target = e2e.root / "written.txt"

    run = e2e.run_claude(
        "go",
        turns=[
            bash(pull),
            [ToolUse("Write", {"file_path": str(target), "content": "x"})],
            say("ok"),
        ],
    )

    pulled, written = run.tool_result_texts()
    assert pulled == "pulled", run.describe()
    assert "hookman blocked this tool call" in written, run.describe()
    assert ".claude/hookman.toml changed since `hookman install`" in written
    assert not target.exists()
    e2e.hookman("install")
    run = e2e.run_claude(
        "go", turns=[[ToolUse("Write", {"file_path": str(target), "content": "x"})], say("ok")]
    )
    assert "GATE-E2E: no writes" in run.tool_result_texts()[0], run.describe()
    assert not target.exists()


def _wait_past_the_sentinel_stamp(e2e: E2EProject) -> None:
    """Until the clock is past the stamp install set (up to a second ahead: sentinel.py), so
    the copy the session makes is newer than it, as a real pull later on is."""
    import shlex
    import time

    [path] = {
        word
        for group in e2e.settings()["hooks"]["PreToolUse"]
        for handler in group["hooks"]
        for word in shlex.split(handler["command"])
        if word.endswith("/hookman-sentinel.stamp")
    }
    stamp = os.stat(path).st_mtime
    while time.time() <= stamp + 0.01:
        time.sleep(0.05)
