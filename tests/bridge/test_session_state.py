from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
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


def _enqueue_many(state_dir: str, writer: int, count: int) -> None:
    state = SessionState(state_dir, "s")
    for number in range(count):
        state.enqueue_messages([f"{writer}-{number}"], "Stop")


def _drain_until(state_dir: str, stop_file: str, results: Any) -> None:
    state = SessionState(state_dir, "s")
    taken: list[str] = []
    while not os.path.exists(stop_file):
        taken += state.drain_messages()
    results.put(taken)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_concurrent_runners_deliver_every_queued_message_exactly_once(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    stop_file = str(tmp_path / "stop")
    drainers = [
        context.Process(target=_drain_until, args=(str(tmp_path), stop_file, results))
        for _ in range(2)
    ]
    writers = [
        context.Process(target=_enqueue_many, args=(str(tmp_path), writer, 300))
        for writer in range(4)
    ]
    for process in drainers + writers:
        process.start()
    for process in writers:
        process.join()
    Path(stop_file).touch()
    taken = [text for _ in drainers for text in results.get(timeout=30)]
    for process in drainers:
        process.join()
    taken += SessionState(str(tmp_path), "s").drain_messages()

    assert sorted(taken) == sorted(f"{w}-{n}" for w in range(4) for n in range(300))
