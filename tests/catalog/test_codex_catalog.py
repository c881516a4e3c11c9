"""Codex CLI's facts as data: which events each version runs hooks for."""

from __future__ import annotations

from hookman.catalog import codex_catalog, event_catalog
from hookman.catalog.client_version import parse_version


def test_the_model_request_events_are_new_in_0_171_and_never_written() -> None:
    old = codex_catalog.codex_events(parse_version("0.150.0"))
    new = codex_catalog.codex_events(parse_version("0.171.0"))
    assert set(new) - set(old) == {"PreModelRequest", "PostModelRequest"}
    assert "PreModelRequest" not in codex_catalog.hookman_codex_events(parse_version("0.171.0"))


def test_an_unknown_or_older_version_gets_the_oldest_checked_set() -> None:
    oldest = codex_catalog.codex_events(codex_catalog.oldest_checked())
    assert codex_catalog.codex_events(None) == oldest
    assert codex_catalog.codex_events(parse_version("0.1.0")) == oldest


def test_every_event_hookman_writes_for_codex_is_a_claude_code_event() -> None:
    events = codex_catalog.hookman_codex_events(codex_catalog.newest_checked())
    assert "PreToolUse" in events and "Stop" in events
    for event in events:
        assert event_catalog.is_claude_event(event)
        assert codex_catalog.snake_name(event).islower()


def test_session_end_is_clamped_and_the_answers_name_pre_tool_use() -> None:
    assert codex_catalog.timeout_cap("SessionEnd") == 3.0
    assert codex_catalog.timeout_cap("PreToolUse") is None
    fields = codex_catalog.answer_fields()
    assert "permissionDecision" in fields["PreToolUse"]["specific"]
    assert fields["Stop"]["top"] == ["decision", "reason"]
