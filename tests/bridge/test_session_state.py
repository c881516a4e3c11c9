from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.session_state import UNKNOWN_SESSION, SessionState, session_dir_name


@given(st.one_of(st.text(), st.none(), st.integers()))
def test_session_dir_names_never_escape(session_id: object) -> None:
    name = session_dir_name(session_id)

    assert name and "/" not in name and "\\" not in name and "\0" not in name
    assert name not in (".", "..")
    assert len(name) <= 100


def test_plain_ids_are_kept() -> None:
    assert session_dir_name("81b0cb51-d1c6-45c6") == "81b0cb51-d1c6-45c6"
    assert session_dir_name("") == UNKNOWN_SESSION
    assert session_dir_name("..") == UNKNOWN_SESSION


def test_queue_drains_oldest_first_and_only_once(tmp_path: Path) -> None:
    state = SessionState(str(tmp_path), "s")
    state.enqueue_messages(["one", "two"], "SessionEnd")
    state.enqueue_messages(["three"], "Notification")

    assert state.drain_messages() == ["one", "two", "three"]
    assert state.drain_messages() == []


def test_statuses_are_replaced_whole(tmp_path: Path) -> None:
    state = SessionState(str(tmp_path), "s")
    state.write_statuses({"a": "1"})
    state.write_statuses({"b": "2"})

    assert state.read_statuses() == {"b": "2"}
    assert list(Path(state.directory).iterdir()) == [Path(state.status_path)]


def test_entries_are_json_lines_even_for_odd_data(tmp_path: Path) -> None:
    state = SessionState(str(tmp_path), "s")
    state.append_entry("note", {"n": 1}, "Stop")
    state.append_entry("odd", {1, 2}, "Stop")

    lines = Path(state.entries_path).read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["custom_type"] for r in records] == ["note", "odd"]
    assert records[0]["data"] == {"n": 1}
    assert records[1]["data"] == "{1, 2}"
