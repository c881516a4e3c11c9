"""The sentences about Codex, made by the commands from the plan's and the trust step's data.
Each expected text is what install printed before the sentences moved out of agents/ (the
ones no command test reaches: an unanswered `codex --version`, an event without a Codex
counterpart, and each thing left to the user after the trust step)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookman.agents.codex_sync import CodexPlan, CodexTrust, TrustTodo, VersionFacts
from hookman.catalog import codex_catalog
from hookman.catalog.client_version import parse_version
from hookman.commands.codex_wording import plan_sentences, trust_sentences, trust_todo_sentence

PROJECT = Path("/work/proj")
MANUAL = (
    "Until Codex trusts hookman's hooks it skips them silently: with `codex` on PATH, run "
    "`hookman install` again (it records the trust through `codex app-server`)."
)


def test_an_unanswered_codex_version_names_the_facts_used() -> None:
    plan = CodexPlan(None, [], ["Notification"])
    assert plan.facts is VersionFacts.OLDEST
    assert plan_sentences(plan) == [
        "`codex --version` gave no answer, so hookman wrote the events of Codex "
        f"{codex_catalog.oldest_checked()}, the oldest version it has facts for.",
        "Codex unknown has no Notification event: not written for Codex.",
    ]


def test_a_newer_codex_is_assumed_to_be_the_newest_checked() -> None:
    plan = CodexPlan(parse_version("99.0.0"), [])
    assert plan.facts is VersionFacts.NEWEST
    assert plan_sentences(plan) == [
        f"Codex 99.0.0 is newer than {codex_catalog.newest_checked()}, the newest version "
        "hookman has facts for, so hookman assumes it has the same events."
    ]


def test_a_subscription_without_a_codex_counterpart_is_named() -> None:
    plan = CodexPlan(codex_catalog.newest_checked(), [], without_counterpart={"notes": ["a", "b"]})
    assert plan.facts is VersionFacts.CHECKED
    assert plan_sentences(plan) == [
        "the hook 'notes' listens to 'a', 'b', which has no Codex counterpart: it never runs "
        "under Codex for it."
    ]


@pytest.mark.parametrize(
    ("trust", "said"),
    [
        (
            CodexTrust(todo=TrustTodo.ASK_FAILED, error="no codex."),
            f"hookman could not ask Codex which hooks it trusts: no codex. {MANUAL}",
        ),
        (
            CodexTrust(todo=TrustTodo.RECORD_FAILED, error="it broke."),
            f"hookman could not record the trust: it broke. {MANUAL}",
        ),
        (
            CodexTrust(already=["b"], todo=TrustTodo.NOT_RECORDED, untrusted=["a", "c"]),
            "Codex does not trust these hookman hooks yet, so it skips them silently: a, c. "
            "Run `hookman install` without --no-codex-trust to record the trust through "
            "`codex app-server`.",
        ),
        (
            CodexTrust(todo=TrustTodo.NONE_LISTED),
            "Codex trusts /work/proj but lists none of hookman's hooks in "
            "/work/proj/.codex/hooks.json, so hookman could not record their trust: check "
            "that `codex` on PATH is the one you run, then run `hookman install` again.",
        ),
        (
            CodexTrust(todo=TrustTodo.PROJECT_NOT_TRUSTED),
            "Codex reads /work/proj/.codex/hooks.json only when it trusts the project, and it "
            'does not trust /work/proj: trust the project in Codex (add [projects."/work/proj"] '
            'trust_level = "trusted" to $CODEX_HOME/config.toml; Codex 0.171.0 also offers '
            "`codex exec --trust`), then run `hookman install` again to trust hookman's hooks.",
        ),
    ],
    ids=lambda value: value.todo.value if isinstance(value, CodexTrust) else "",
)
def test_what_is_left_to_the_user_is_said_once(trust: CodexTrust, said: str) -> None:
    assert trust_todo_sentence(trust, PROJECT) == said
    assert trust_sentences(trust, PROJECT) == [said]


def test_every_todo_has_its_own_sentence() -> None:
    said = {trust_todo_sentence(CodexTrust(todo=todo), PROJECT) for todo in TrustTodo}
    assert len(said) == len(TrustTodo)


def test_what_was_trusted_or_already_trusted_is_counted() -> None:
    assert trust_sentences(CodexTrust(), PROJECT) == []
    assert trust_todo_sentence(CodexTrust(already=["k"]), PROJECT) is None
    assert trust_sentences(CodexTrust(trusted=["k1", "k2"], already=["k0"]), PROJECT) == [
        "trusted in Codex: k1",
        "trusted in Codex: k2",
    ]
    assert trust_sentences(CodexTrust(already=["k0", "k1"]), PROJECT) == [
        "Codex already trusts hookman's 2 hook(s) here"
    ]
