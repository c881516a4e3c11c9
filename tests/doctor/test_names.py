from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.names import edit_distance, is_slip, slip_of

EVENTS = ["PreToolUse", "PostToolUse", "PostCompact", "SessionStart", "Stop", "Notification"]


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("PostToolUze", "PostToolUse"),
        ("pretooluse", "PreToolUse"),
        ("SessionStrat", "SessionStart"),
        ("Notifcation", "Notification"),
        ("Stopp", "Stop"),
    ],
)
def test_misspellings_get_the_name_meant(written: str, meant: str) -> None:
    assert slip_of(written, EVENTS) == meant


@pytest.mark.parametrize("written", ["PostCommand", "BeforeTool", "Finish", "OnSave"])
def test_names_that_only_look_alike_get_nothing(written: str) -> None:
    assert slip_of(written, EVENTS) is None


def test_a_swap_of_two_letters_is_one_slip() -> None:
    assert edit_distance("Strat", "Start") == 1 and is_slip("SessionStrat", "SessionStart")


names = st.text(alphabet="abcdXYZ_", max_size=12)


@given(names, names)
def test_distance_is_a_symmetric_measure_bounded_by_the_longer_name(a: str, b: str) -> None:
    assert edit_distance(a, b) == edit_distance(b, a)
    assert (edit_distance(a, b) == 0) == (a == b)
    assert edit_distance(a, b) <= max(len(a), len(b))
