"""`.claude/hookman-pins.json`: written and read back exactly; a foreign file is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.project.pins import Pin, pins_path, pins_text, read_pins, write_pins

SHA = "0123456789abcdef0123456789abcdef01234567"


def test_pins_round_trip_and_an_empty_set_removes_the_file(project: Path) -> None:
    pins = {("https://h/x.git", "v1"): Pin("https://h/x.git", "v1", SHA, "tag")}
    assert write_pins(project, pins) is True
    assert write_pins(project, pins) is False  # same bytes: not written again
    assert read_pins(project) == pins
    assert write_pins(project, {}) is True
    assert not pins_path(project).exists()
    assert read_pins(project) == {}


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"format": 2, "pins": []}',
        '{"format": 1, "pins": [{"repo": "x"}]}',
        '{"format": 1, "pins": [{"repo": "x", "rev": "v", "commit": "abc", "ref": "tag"}]}',
    ],
)
def test_a_file_that_is_not_a_pins_file_is_refused_and_left_alone(project: Path, text: str) -> None:
    pins_path(project).write_text(text)
    with pytest.raises(HookmanError) as caught:
        read_pins(project)
    assert caught.value.message == ".claude/hookman-pins.json is not a hookman pins file."
    assert pins_path(project).read_text() == text


texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


@settings(max_examples=50, deadline=None)
@given(
    st.dictionaries(
        st.tuples(texts, texts),
        st.tuples(
            st.text("0123456789abcdef", min_size=40, max_size=40),
            st.sampled_from(["tag", "branch", "commit"]),
        ),
        max_size=5,
    )
)
def test_any_pins_survive_the_writer(records: dict) -> None:
    pins = {key: Pin(key[0], key[1], sha, ref) for key, (sha, ref) in records.items()}
    import json

    from hookman.project import pins as module

    data = json.loads(pins_text(pins))
    assert {(p["repo"], p["rev"]): module._pin(p) for p in data["pins"]} == pins
