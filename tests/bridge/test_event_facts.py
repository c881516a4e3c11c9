from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge import event_facts

CATALOG = json.loads(
    (Path(event_facts.__file__).parent.parent / "catalog" / "claude_code_events.json").read_text()
)


def test_the_constants_match_the_catalog() -> None:
    events = CATALOG["events"]
    assert set(events) == event_facts.KNOWN_EVENTS
    with_channel = {
        name
        for name, facts in events.items()
        if "additionalContext" in facts["hook_specific_output"]
    }
    assert with_channel == event_facts.CONTEXT_CHANNEL_EVENTS
    tool_events = {name for name, facts in events.items() if facts["matcher_field"] == "tool_name"}
    assert tool_events == event_facts.TOOL_EVENTS
    since = events["PostToolUse"].get("hook_specific_output_since", {}).get("updatedToolOutput")
    assert (since or "2.1.328") == event_facts.UPDATED_TOOL_OUTPUT_SINCE


def test_version_comparison() -> None:
    assert event_facts.version_at_least("2.1.328", "2.1.328")
    assert event_facts.version_at_least("2.10.0", "2.9.9")
    assert not event_facts.version_at_least("2.1.197", "2.1.328")
    assert event_facts.version_at_least(None, "9.9.9")


versions = st.tuples(*(st.integers(0, 400),) * 3)


@given(versions, versions)
def test_version_comparison_is_tuple_order(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    text = ".".join
    assert event_facts.version_at_least(text(map(str, a)), text(map(str, b))) == (a >= b)
