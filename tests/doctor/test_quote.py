from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.quote import shown


def test_text_is_shown_as_written() -> None:
    assert shown('"$CLAUDE_PROJECT_DIR"/x.sh') == '`"$CLAUDE_PROJECT_DIR"/x.sh`'
    assert shown("C:\\hooks\\x.bat") == "`C:\\hooks\\x.bat`"
    assert shown("it's") == "`it's`"
    assert shown("a`b") == "`` a`b ``"


@given(st.text(max_size=40))
def test_shown_text_is_one_line_and_keeps_every_printable_character(text: str) -> None:
    result = shown(text)
    assert "\n" not in result and "\r" not in result
    for char in text:
        if char.isprintable():
            assert char in result
