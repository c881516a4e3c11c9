from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, parse_version

V2_1_197 = ClientVersion(2, 1, 197)
V2_1_328 = ClientVersion(2, 1, 328)


def test_the_catalog_holds_the_33_claude_code_events_and_the_runtime_events() -> None:
    assert len(event_catalog.claude_events()) == 34
    assert {"tool_call", "tool_result", "session_start", "turn_start"} <= set(
        event_catalog.runtime_events()
    )


def test_every_claude_event_since_is_a_version_at_or_above_the_first_published_one() -> None:
    events = event_catalog.claude_events()
    assert len(events) >= 33  # the catalog's Claude Code events (a test names them)
    for event in events:
        assert event_catalog.since(event) >= ClientVersion(1, 0, 23)


def test_every_runtime_event_maps_to_claude_events_of_the_catalog() -> None:
    served_by = {
        event: event_catalog.claude_events_serving(event)
        for event in event_catalog.runtime_events()
    }
    assert served_by["tool_call"] and served_by["tool_result"]  # the loops below run
    for served in served_by.values():
        for event in served:
            assert event_catalog.is_claude_event(event)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tool_call", ["PreToolUse", "PreSkillShellCommand"]),
        ("tool_result", ["PostToolUse", "PostToolUseFailure"]),
        ("before_agent_start", ["UserPromptSubmit"]),
        ("PreToolUse", ["PreToolUse"]),
        ("PreSkillShellCommand", ["PreSkillShellCommand"]),
        ("DirectoryAdded", ["DirectoryAdded"]),
        ("turn_start", []),
        ("PreToolUze", []),
    ],
)
def test_claude_events_serving_a_subscription(name: str, expected: list[str]) -> None:
    assert event_catalog.claude_events_serving(name) == expected


def test_directory_added_is_held_from_2_1_197_and_written_for_2_1_328() -> None:
    assert not event_catalog.may_write("DirectoryAdded", V2_1_197)
    assert event_catalog.may_write("DirectoryAdded", V2_1_328)
    assert event_catalog.may_write("DirectoryAdded", ClientVersion(2, 1, 219))


def test_unknown_version_writes_only_what_the_oldest_supported_client_knows() -> None:
    floor = event_catalog.oldest_supported_client()
    assert floor == ClientVersion(2, 0, 0)
    for event in event_catalog.claude_events():
        assert event_catalog.may_write(event, None) == (event_catalog.since(event) <= floor)
    assert event_catalog.may_write("PreToolUse", None)
    assert not event_catalog.may_write("PostToolUseFailure", None)  # since 2.0.56


def test_names_that_are_not_claude_events_are_never_written() -> None:
    assert not event_catalog.may_write("tool_call", V2_1_328)
    assert not event_catalog.may_write("PreToolUze", V2_1_328)


@given(st.sampled_from(event_catalog.claude_events()), st.integers(0, 3), st.integers(0, 400))
def test_may_write_is_monotonic_in_the_client_version(event: str, minor: int, patch: int) -> None:
    older = ClientVersion(2, minor, patch)
    newer = ClientVersion(2, minor, patch + 1)
    assert not (event_catalog.may_write(event, older) and not event_catalog.may_write(event, newer))


@pytest.mark.parametrize(
    ("typo", "suggestion"),
    [
        ("PreToolUze", "PreToolUse"),
        ("tool_cal", "tool_call"),
        ("pretooluse", "PreToolUse"),
        ("TOOL_CALL", "tool_call"),
        ("SesionStart", "SessionStart"),
        ("session_strat", "session_start"),
    ],
)
def test_did_you_mean_spans_both_namespaces(typo: str, suggestion: str) -> None:
    assert event_catalog.did_you_mean(typo) == suggestion


def test_did_you_mean_gives_nothing_for_unrelated_text() -> None:
    assert event_catalog.did_you_mean("xyzzy-plugh") is None


def test_matcher_field_and_tool_subscriptions() -> None:
    assert event_catalog.matcher_field("PreToolUse") == "tool_name"
    assert event_catalog.matcher_field("Stop") is None
    assert event_catalog.is_tool_subscription("tool_call")
    assert event_catalog.is_tool_subscription("tool_result")
    assert event_catalog.is_tool_subscription("PostToolUse")
    assert not event_catalog.is_tool_subscription("session_start")
    assert not event_catalog.is_tool_subscription("SessionStart")


def test_context_channel_comes_from_hook_specific_output() -> None:
    assert event_catalog.has_context_channel("PostToolUse")
    assert event_catalog.has_context_channel("UserPromptSubmit")
    assert not event_catalog.has_context_channel("SessionEnd")
    assert not event_catalog.has_context_channel("DirectoryAdded")


def test_runtime_events_never_sent_are_those_without_claude_events() -> None:
    events = event_catalog.runtime_catalog()["events"]
    never = [name for name, facts in events.items() if not facts["claude_events"]]
    assert "turn_start" in never
    assert "context" in never
    assert "tool_call" not in never


def test_the_answers_follow_the_data_files() -> None:
    data = json.loads((event_catalog.CATALOG_DIR / "claude_code_events.json").read_text())
    assert event_catalog.since("PostCompact") == parse_version(
        data["events"]["PostCompact"]["since"]
    )
    assert event_catalog.session_end_budget_cap_s() == 60


def test_message_channels_are_context_channels_that_do_not_start_a_turn() -> None:
    channels = event_catalog.message_channel_events()
    assert "UserPromptSubmit" in channels and "PostToolUse" in channels
    assert event_catalog.turn_channel_events() == ["Stop", "SubagentStop"]
    for event in event_catalog.claude_events():
        starts_turn = event_catalog.context_starts_turn(event)
        assert event_catalog.is_message_channel(event) == (
            event_catalog.has_context_channel(event) and not starts_turn
        )
        assert (event in channels) == event_catalog.is_message_channel(event)


@pytest.mark.parametrize(
    ("version", "expected"),
    [(V2_1_328, True), (V2_1_197, True), (ClientVersion(2, 1, 196), False), (None, None)],
)
def test_updated_tool_output_from_the_measured_lower_bound(
    version: ClientVersion | None, expected: bool | None
) -> None:
    assert event_catalog.output_field_since("PostToolUse", "updatedToolOutput") == V2_1_197
    assert event_catalog.can_update_tool_output(version) is expected


def test_output_fields_without_a_later_start_or_not_in_the_schema() -> None:
    assert event_catalog.supports_output_field("PostToolUse", "additionalContext", None) is True
    assert event_catalog.supports_output_field("SessionEnd", "additionalContext", None) is False


def test_model_text_takes_the_newest_measured_form_at_or_below_the_version() -> None:
    deny = {
        V2_1_328: "{label} hook error: {reason}",
        ClientVersion(2, 1, 300): "{reason}",
        V2_1_197: "{reason}",
        ClientVersion(1, 0, 0): "{reason}",
        None: "{label} hook error: {reason}",
    }
    for version, expected in deny.items():
        assert event_catalog.model_text("PreToolUse", "deny", version) == expected
    default = "{label} hook additional context: {text}"
    assert event_catalog.model_text("SessionStart", "additionalContext", V2_1_197) == default
    assert event_catalog.model_text("PostToolUse", "additionalContext", V2_1_328) == default
    assert "<system-reminder>" in event_catalog.model_text(
        "PostToolUse", "additionalContext", V2_1_197
    )
    assert event_catalog.model_text("SessionEnd", "nothing", V2_1_328) is None


def test_derived_event_lists_follow_the_catalog_fields() -> None:
    assert event_catalog.tool_events() == [
        e for e in event_catalog.claude_events() if event_catalog.matcher_field(e) == "tool_name"
    ]
    assert set(event_catalog.plain_stdout_events()) == {
        "SessionStart",
        "UserPromptSubmit",
        "UserPromptExpansion",
    }
    assert "PreToolUse" in event_catalog.exit2_blocking_events()
    assert "DirectoryAdded" not in event_catalog.exit2_blocking_events()  # null: not established


def test_clients_from_2_1_101_drop_only_an_unknown_event_key() -> None:
    # Older clients skip a whole settings file that names an event they do not know.
    assert str(event_catalog.unknown_event_tolerated_since()) == "2.1.101"


def test_guarded_events_are_the_ones_that_gate_a_command() -> None:
    assert event_catalog.guarded_events() == ["PreToolUse", "PreSkillShellCommand"]


def test_newest_checked_client_is_the_newest_since_of_any_event() -> None:
    newest = max(event_catalog.since(event) for event in event_catalog.claude_events())
    assert event_catalog.newest_checked_client() >= newest


@pytest.mark.parametrize(
    ("tools", "pre_tool_use", "skill_shell"),
    [
        (None, None, None),
        (["*"], None, None),
        (["Bash", "Edit"], ("Bash", "Edit"), ("Bash",)),
        (["PowerShell"], ("PowerShell",), ("PowerShell",)),
        (["Edit"], ("Edit",), ()),
    ],
)
def test_the_tools_an_event_can_name(
    tools: list[str] | None,
    pre_tool_use: tuple[str, ...] | None,
    skill_shell: tuple[str, ...] | None,
) -> None:
    assert event_catalog.event_tools("PreToolUse", tools) == pre_tool_use
    assert event_catalog.event_tools("PreSkillShellCommand", tools) == skill_shell


def test_a_guard_on_tools_no_shell_uses_is_served_by_pre_tool_use_only() -> None:
    assert event_catalog.claude_events_for("tool_call", ["Edit"]) == ["PreToolUse"]
    assert event_catalog.claude_events_for("tool_call", ["Bash"]) == [
        "PreToolUse",
        "PreSkillShellCommand",
    ]
    assert event_catalog.claude_events_for("PreSkillShellCommand", ["Edit"]) == []


def test_skill_shell_facts_for_warnings_and_the_runner() -> None:
    assert event_catalog.updated_input_blocks_events() == ["PreSkillShellCommand"]
    assert "run unguarded" in (event_catalog.held_back_effect("PreSkillShellCommand") or "")
    assert event_catalog.held_back_effect("DirectoryAdded") is None
    assert event_catalog.guards("PreToolUse") == "the agent's tool calls"


def test_a_tool_name_differing_only_in_case_names_the_known_tool() -> None:
    assert event_catalog.miscased_tool("bash") == "Bash"
    assert event_catalog.miscased_tool("WEBFETCH") == "WebFetch"
    assert event_catalog.miscased_tool("powershell") == "PowerShell"
    assert event_catalog.miscased_tool("Bash") is None
    assert event_catalog.miscased_tool("MyTool") is None
    assert event_catalog.miscased_tool("*") is None
    assert "mcp__<server>__<tool>" not in event_catalog.known_tool_names()
