from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.bridge.client_facts import ClientFacts

from .conftest import client_section


def test_send_message_channels_exclude_events_whose_context_starts_a_turn() -> None:
    facts = ClientFacts(client_section("2.1.328"))

    assert facts.delivers_messages("UserPromptSubmit")
    assert facts.delivers_messages("PostToolUse")
    for stop_like in ("Stop", "SubagentStop"):
        assert not facts.delivers_messages(stop_like)
        assert facts.context_starts_turn(stop_like)
    assert not facts.delivers_messages("SessionEnd")
    assert not facts.context_starts_turn("SessionEnd")


@pytest.mark.parametrize(
    ("version", "expected"), [("2.1.328", True), ("2.1.197", True), ("2.0.0", False), (None, None)]
)
def test_updated_tool_output_per_version(version: str | None, expected: bool | None) -> None:
    assert ClientFacts(client_section(version)).updated_tool_output is expected


@pytest.mark.parametrize("section", [None, [], "x", {"known_events": "PreToolUse"}])
def test_a_missing_or_malformed_section_gets_the_conservative_answers(section: object) -> None:
    facts = ClientFacts(section)

    assert facts.present is isinstance(section, dict)
    assert facts.known_events == frozenset()
    assert not facts.delivers_messages("UserPromptSubmit")
    assert not facts.context_starts_turn("Stop")
    assert facts.updated_tool_output is None
    assert facts.deny_text("PreToolUse:Bash", "no") == "no"
    assert facts.context_text("PostToolUse", "PostToolUse:Bash", "t") == (
        "PostToolUse:Bash hook additional context: t"
    )


def test_non_boolean_updated_tool_output_counts_as_unknown() -> None:
    assert ClientFacts({"updated_tool_output": "yes"}).updated_tool_output is None


pieces = st.sampled_from(["{", "}", "{label}", "{reason}", "{text}", "label", "a", " ", "\n"])
texts = st.lists(pieces, max_size=8).map("".join)


@settings(max_examples=60)
@given(texts, texts)
def test_filling_a_template_never_expands_placeholders_in_the_values(
    label: str, reason: str
) -> None:
    facts = ClientFacts(client_section("2.1.328"))

    assert facts.deny_text(label, reason) == f"{label} hook error: {reason}"
    older = ClientFacts(client_section("2.1.197"))
    assert older.context_text("PostToolUse", label, reason) == (
        f"<system-reminder>\n{label} hook additional context: {reason}\n</system-reminder>"
    )
