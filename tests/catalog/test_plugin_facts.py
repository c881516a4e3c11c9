"""The measured plugin facts read as data."""

from __future__ import annotations

from hookman.catalog import event_catalog
from hookman.catalog.client_version import parse_version
from hookman.catalog.plugin_facts import plugin_facts, unknown_event_drops_file_before


def test_the_boundary_lies_between_the_clients_measured() -> None:
    boundary = unknown_event_drops_file_before()
    assert parse_version("2.1.197") < boundary <= parse_version("2.1.328")
    assert boundary <= event_catalog.newest_checked_client()
    assert "2.1.197" in plugin_facts()["unknown_event_drops_file_note"]
