"""render_status_line (docs/hook-api.md, `ctx.ui.set_status`), with hypothesis properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.runtime import render_status_line
from hookman.runtime.status_line import (
    JS_TRIM_CHARACTERS,
    sanitize_status_text,
    truncate_to_width,
    visible_width,
)

DIM_ELLIPSIS = "\x1b[0m\x1b[2m...\x1b[22m"

PIECES = [
    *"ab Z\t\r\n\u00a0\u3000\v",
    "漢",
    "字",
    "\u00e9",
    "e\u0301",
    "\U0001f600",
    "\u200d",
    "\x1b[31m",
]
status_text = st.lists(st.sampled_from(PIECES), max_size=20).map("".join)
statuses = st.dictionaries(st.text(max_size=3), status_text, max_size=5)


def test_no_statuses_render_nothing() -> None:
    assert render_status_line({}, 80) == ""


def test_keys_sort_by_code_point_and_texts_join_with_one_space() -> None:
    line = render_status_line(
        {"b": "B", "_x": "_", "a": "a", "A": "AA", "10": "ten", "9": "nine"}, 80
    )
    assert line == "ten nine AA _ a B"  # keys: 10, 9, A, _x, a, b


def test_an_empty_text_keeps_its_separator() -> None:
    assert render_status_line({"a": "", "b": "x"}, 80) == " x"


def test_none_texts_count_as_deleted() -> None:
    assert render_status_line({"a": None, "b": "x"}, 80) == "x"  # type: ignore[dict-item]
    assert render_status_line({"a": None}, 80) == ""  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("a\r\nb\tc", "a b c"),
        ("  many    spaces  ", "many spaces"),
        ("keep\u00a0\u00a0nbsp", "keep\u00a0\u00a0nbsp"),
        ("keep\vvt\f", "keep\vvt"),
        ("\u3000 trimmed \u00a0", "trimmed"),
        ("\ufeffbom", "bom"),
        (
            "\x1cfile separator is not JS whitespace\x1c",
            "\x1cfile separator is not JS whitespace\x1c",
        ),
    ],
)
def test_sanitising_follows_pi(raw: str, clean: str) -> None:
    assert sanitize_status_text(raw) == clean


def test_truncation_keeps_what_fits_and_ends_in_a_plain_ellipsis() -> None:
    assert render_status_line({"a": "hello world foo"}, 10) == "hello w..."
    assert render_status_line({"a": "hello world foo"}, 10, color=True) == "hello w" + DIM_ELLIPSIS


def test_a_line_that_fits_exactly_is_unchanged() -> None:
    assert render_status_line({"a": "0123456789"}, 10, color=True) == "0123456789"


@pytest.mark.parametrize(
    ("width", "expected"), [(3, "..."), (2, ".."), (1, "."), (0, ""), (-5, "")]
)
def test_tiny_widths_give_a_cut_ellipsis(width: int, expected: str) -> None:
    assert render_status_line({"a": "too long"}, width) == expected
    assert render_status_line({"a": "too long"}, width, color=True) == expected


def test_wide_characters_count_two_columns_and_are_never_split() -> None:
    assert visible_width("漢字ab") == 6
    assert render_status_line({"a": "漢字漢字"}, 6) == "漢..."  # 2 + 3; a third column stays empty
    assert render_status_line({"a": "漢字漢字"}, 8) == "漢字漢字"


def test_combining_marks_and_zwj_sequences_stay_with_their_base() -> None:
    assert visible_width("e\u0301") == 1
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert visible_width(family) == 2
    assert render_status_line({"a": "e\u0301e\u0301e\u0301e\u0301e\u0301"}, 4) == "e\u0301..."
    assert render_status_line({"a": family * 3}, 5) == family + "..."


def test_a_flag_is_one_cluster_of_two_columns() -> None:
    flag = "\U0001f1f9\U0001f1ed"
    assert visible_width(flag) == 2
    assert visible_width(flag + "\U0001f1fa") == 3


def test_escape_sequences_count_zero_and_are_copied_through_with_a_reset() -> None:
    assert visible_width("\x1b[31mred\x1b[0m") == 3
    assert render_status_line({"a": "\x1b[31mred text here"}, 8) == "\x1b[31mred t\x1b[0m..."
    link = "\x1b]8;;https://x.test\x07link\x1b]8;;\x07"
    assert visible_width(link) == 4


@settings(max_examples=200)
@given(statuses, st.integers(min_value=-2, max_value=30), st.booleans())
def test_the_width_is_never_exceeded(statuses: dict[str, str], width: int, color: bool) -> None:
    assert visible_width(render_status_line(statuses, width, color=color)) <= max(width, 0)


@given(status_text)
def test_sanitising_is_idempotent_and_removes_line_breaks_and_tabs(text: str) -> None:
    clean = sanitize_status_text(text)
    assert sanitize_status_text(clean) == clean
    assert not any(char in clean for char in "\r\n\t")
    assert "  " not in clean
    assert clean == clean.strip(JS_TRIM_CHARACTERS)


@given(statuses, st.integers(min_value=0, max_value=30))
def test_a_line_that_fits_is_the_sorted_sanitised_join(
    statuses: dict[str, str], width: int
) -> None:
    joined = " ".join(sanitize_status_text(statuses[key]) for key in sorted(statuses))
    line = render_status_line(statuses, width)
    if not statuses:
        assert line == ""
    elif visible_width(joined) <= width:
        assert line == joined
    elif width <= 3:
        assert line == "..."[:width]
    else:
        assert line.endswith("...")
        kept = line[: -len("...")].removesuffix("\x1b[0m")
        assert joined.startswith(kept)


@given(st.text(max_size=30), st.integers(min_value=0, max_value=40))
def test_truncation_is_idempotent_in_plain_mode(text: str, width: int) -> None:
    once = truncate_to_width(text, width)
    assert truncate_to_width(once, width) == once
