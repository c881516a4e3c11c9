from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.facts import script_text_facts
from hookman.doctor.script_text import first_match, hook_text, read_script, reads_unset_variable


def test_only_regular_text_files_are_read(tmp_path: Path) -> None:
    text = tmp_path / "x.sh"
    text.write_text("exit 2\n")
    assert read_script(text) == "exit 2\n"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert read_script(fifo) is None  # and it did not block
    binary = tmp_path / "prog"
    binary.write_bytes(b"\x7fELF\0\0\0exit 2")
    assert read_script(binary) is None
    assert read_script(tmp_path) is None and read_script(tmp_path / "gone") is None
    assert read_script(Path("/dev/zero")) is None


def test_a_huge_script_is_read_only_up_to_the_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.sh"
    limit = int(script_text_facts()["max_bytes"])
    big.write_text("#" * (limit + 10) + "\nexit 2\n")
    text = read_script(big)
    assert text is not None and len(text) == limit


def test_non_utf8_scripts_are_read_leniently(tmp_path: Path) -> None:
    script = tmp_path / "x.sh"
    script.write_bytes(b"echo \xff\nexit 2\n")
    found = hook_text("sh x.sh", script, {})
    assert (
        first_match(found.all, "blocks") is not None
        and found.where(
            first_match(found.all, "blocks")  # type: ignore[arg-type]
        )
        == "in x.sh"
    )


@given(st.text(max_size=80))
def test_reading_variables_never_raises(text: str) -> None:
    reads = reads_unset_variable(text, "CLAUDE_FILE_PATHS")
    assert isinstance(reads, bool)
    assert not reads or "CLAUDE_FILE_PATHS" in text
    found = first_match(text, "blocks")
    assert found is None or found.search(text) is not None
