from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.bridge import firing_log
from hookman.bridge.firing_log import (
    append_record,
    line_needle,
    log_files,
    read_records,
    tail_records,
)


def test_records_append_as_json_lines(tmp_path: Path) -> None:
    log = tmp_path / "log" / "firing.jsonl"
    append_record(str(log), {"event": "Stop", "n": 1})
    append_record(str(log), {"event": "Stop", "n": 2})
    log.open("a").write("not json\n")

    assert [r["n"] for r in read_records(str(log))] == [1, 2]


def test_the_log_rotates_and_keeps_two_old_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(firing_log, "MAX_BYTES", 200)
    log = str(tmp_path / "firing.jsonl")
    for number in range(40):
        append_record(log, {"n": number, "pad": "x" * 40})

    assert log_files(log) == [f"{log}.2", f"{log}.1", log]
    total = sum(Path(path).stat().st_size for path in log_files(log))
    assert total <= 3 * 200
    numbers = [r["n"] for r in read_records(log)]
    assert numbers == sorted(numbers) and numbers[-1] == 39


def test_long_output_is_truncated(tmp_path: Path) -> None:
    log = str(tmp_path / "firing.jsonl")
    append_record(log, {"output": "x" * 10_000})

    (record,) = read_records(log)
    assert len(record["output"]) < 5000 and record["output"].endswith("[truncated]")


def test_error_and_notice_texts_are_capped_too(tmp_path: Path) -> None:
    log = str(tmp_path / "firing.jsonl")
    huge = "y" * 100_000
    append_record(log, {"errors": [{"hook": "h", "error": huge}], "notices": [huge]})

    (record,) = read_records(log)
    assert record["errors"][0]["hook"] == "h"
    assert record["errors"][0]["error"].endswith("[truncated]")
    assert len(record["errors"][0]["error"]) < 5000 and len(record["notices"][0]) < 5000


def _append_many(log: str, writer: int) -> None:
    firing_log.MAX_BYTES = 20_000
    for number in range(1000):
        append_record(log, {"writer": writer, "n": number, "pad": "x" * 100})


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_concurrent_runners_rotate_a_full_log_once(tmp_path: Path) -> None:
    log = str(tmp_path / "firing.jsonl")
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_append_many, args=(log, writer)) for writer in range(6)]
    for process in writers:
        process.start()
    for process in writers:
        process.join()

    # Rotating twice at once would push a fresh, nearly empty file into .1 and drop history.
    for path in (f"{log}.1", f"{log}.2"):
        assert Path(path).stat().st_size > 20_000 * 0.9
    assert all(line.endswith("}") for line in Path(log).read_text().splitlines())


TEXTS = st.text(alphabet=st.sampled_from(["a", "é", "\u2028", "\n", '"', "\\", " "]), max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.tuples(st.sampled_from(["/p/one", "/p/two"]), TEXTS), max_size=30),
    count=st.integers(min_value=0, max_value=12),
    block=st.integers(min_value=1, max_value=64),
)
def test_the_tail_is_the_end_of_what_a_whole_read_finds(
    tmp_path_factory: pytest.TempPathFactory, texts: list[tuple[str, str]], count: int, block: int
) -> None:
    """`hookman log --json -n N` reads the log backwards from its end; it must print what
    a whole read, filtered, ends with (rotated files, any text, a cut last line)."""
    log = str(tmp_path_factory.mktemp("tail") / "firing.jsonl")
    firing_log.MAX_BYTES = 300
    try:
        for number, (project, text) in enumerate(texts):
            append_record(log, {"n": number, "project": project, "output": text})
    finally:
        firing_log.MAX_BYTES = 5 * 1024 * 1024
    with open(log, "a", encoding="utf-8") as handle:
        handle.write('{"n": -1, "project": "/p/one"')  # a line still being written

    def mine(record: dict[str, object]) -> bool:
        return record.get("project") == "/p/one"

    whole = [record for record in read_records(log) if mine(record)]
    expected = whole[-count:] if count else []
    firing_log.TAIL_BLOCK = block
    try:
        assert tail_records(log, count, mine, line_needle("/p/one")) == expected
        assert tail_records(log, count, mine) == expected
    finally:
        firing_log.TAIL_BLOCK = 1 << 16
    assert [r for r in read_records(log, line_needle("/p/one")) if mine(r)] == whole


def test_a_project_path_json_would_escape_has_no_needle() -> None:
    assert line_needle("/srv/work/here") == "/srv/work/here"
    for path in ('/a"b', "/a\\b", "/é", "/a\tb"):
        assert line_needle(path) == ""
