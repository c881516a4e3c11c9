"""The local marketplace `--marketplace DIR` writes or updates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.plugin.marketplace import list_plugin


def test_a_new_marketplace_lists_the_plugin_by_relative_source(tmp_path: Path) -> None:
    result = list_plugin(
        tmp_path / "Team Hooks", tmp_path / "Team Hooks" / "p" / "g", "g", "0.1.0", "d"
    )
    data = json.loads(result.path.read_text())
    assert data["name"] == "team-hooks" and data["owner"] == {"name": "team-hooks"}
    assert data["plugins"] == [
        {"name": "g", "source": "./p/g", "description": "d", "version": "0.1.0"}
    ]


def test_an_update_keeps_other_entries_and_keys(tmp_path: Path) -> None:
    path = tmp_path / ".claude-plugin" / "marketplace.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            {
                "name": "m",
                "owner": {"name": "o"},
                "metadata": 1,
                "plugins": [
                    {"name": "other", "source": "./other"},
                    {"name": "g", "source": "./old", "tags": ["x"]},
                ],
            }
        )
    )
    list_plugin(tmp_path, tmp_path / "g", "g", "0.2.0", "d")
    data = json.loads(path.read_text())
    assert data["metadata"] == 1 and data["owner"] == {"name": "o"}
    assert data["plugins"][0] == {"name": "other", "source": "./other"}
    assert data["plugins"][1] == {
        "name": "g",
        "source": "./g",
        "tags": ["x"],
        "description": "d",
        "version": "0.2.0",
    }


def test_an_unreadable_marketplace_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / ".claude-plugin" / "marketplace.json"
    path.parent.mkdir()
    path.write_bytes(b"{not json\xff")
    with pytest.raises(HookmanError, match="left untouched"):
        list_plugin(tmp_path, tmp_path / "g", "g", "0.1.0", "d")
    assert path.read_bytes() == b"{not json\xff"


def test_a_plugin_outside_the_marketplace_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HookmanError, match="not inside the marketplace"):
        list_plugin(tmp_path / "m", tmp_path / "g", "g", "0.1.0", "d")
    assert not (tmp_path / "m").exists()
