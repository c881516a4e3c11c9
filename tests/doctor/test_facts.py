from __future__ import annotations

from hookman.catalog.client_version import parse_version
from hookman.doctor.facts import (
    exact_list_syntax,
    for_version,
    invalid_entry_silences_file,
    match_all_matchers,
    matcher_values,
)

FORMS = {"2.1.100": "old", "2.1.200": "new"}


def test_the_newest_measured_form_at_or_below_the_target_applies() -> None:
    assert for_version(FORMS, parse_version("2.1.150")) == "old"
    assert for_version(FORMS, parse_version("2.1.200")) == "new"
    assert for_version(FORMS, parse_version("2.0.0")) == "old"  # older than all: the oldest
    assert for_version(FORMS, None) == "new"  # unknown: the newest client with facts


def test_invalid_entries_silence_by_event_and_version() -> None:
    v = parse_version
    assert invalid_entry_silences_file("Stop", v("2.1.197"))
    assert not invalid_entry_silences_file("Stop", v("2.1.328"))
    assert invalid_entry_silences_file("PermissionRequest", v("2.1.328"))
    assert not invalid_entry_silences_file("PreSkillShellCommand", v("2.1.328"))
    assert invalid_entry_silences_file("PreSkillShellCommand", v("2.1.332"))
    assert invalid_entry_silences_file("Stop", v("1.0.50"))  # old clients: the whole file


def test_matcher_facts() -> None:
    assert match_all_matchers() == ["", "*", ".*"]
    assert not exact_list_syntax(parse_version("2.1.194"))["chars"].endswith("-")
    assert exact_list_syntax(parse_version("2.1.195"))["chars"].endswith("-")


def test_session_start_sources_follow_the_target_version() -> None:
    """fork is in the 2.1.328 and 2.1.332 schemas, not in 2.1.197's (tools/client_facts.py)."""
    assert "fork" not in (matcher_values("SessionStart", parse_version("2.1.197")) or [])
    assert "fork" in (matcher_values("SessionStart", parse_version("2.1.328")) or [])
    assert "fork" in (matcher_values("SessionStart", None) or [])
    assert matcher_values("Stop", None) is None
