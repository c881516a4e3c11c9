"""What Claude Code does with a plugin's hooks files (plugin_facts.json, measured)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hookman.catalog.client_version import ClientVersion, parse_version


@cache
def plugin_facts() -> dict[str, Any]:
    with (Path(__file__).parent / "plugin_facts.json").open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def unknown_event_drops_file_before() -> ClientVersion:
    """Clients older than this load none of a plugin hooks file naming an unknown event."""
    return parse_version(plugin_facts()["unknown_event_drops_file_before"])
