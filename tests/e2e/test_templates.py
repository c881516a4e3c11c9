"""Hooks made by `hookman new --install` from the guard, redaction and context templates do in
the real client what their templates say."""

from __future__ import annotations

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e


def test_the_bash_guard_template_denies_rm_rf_and_lets_ls_run(e2e: E2EProject) -> None:
    e2e.hookman("new", "guard", "--template", "bash_guard", "--install")
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo fine-$((40+2))"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    denied, allowed = run.tool_results()
    assert denied["is_error"] is True
    assert "Blocked by the bash guard: rm -rf deletes without asking" in denied["content"]
    assert victim.is_dir()
    assert allowed["content"] == "fine-42"


def test_the_redaction_template_keeps_a_key_from_the_model(e2e: E2EProject) -> None:
    e2e.hookman("new", "redact", "--template", "redact_output", "--install")

    # The command builds the key, so only the tool's output (not its input) holds it whole.
    run = e2e.run_claude(
        "show the key", turns=[bash("echo key=AKIA$(echo ABCDEFGHIJKLMNOP) user=me"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    assert not run.model_saw("AKIAABCDEFGHIJKLMNOP"), run.describe()
    assert run.tool_result_texts() == ["key=[REDACTED] user=me"]


def test_the_context_template_gives_the_model_the_project_notes(e2e: E2EProject) -> None:
    e2e.hookman("new", "notes", "--template", "inject_context", "--install")
    e2e.write(".claude/context.md", "CTX-E2E: this project indents with tabs.\n")

    run = e2e.run_claude("hello", turns=[say("ok")])

    assert run.returncode == 0, run.describe()
    assert run.model_saw("CTX-E2E: this project indents with tabs."), run.describe()
