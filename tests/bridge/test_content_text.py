from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.content_text import content_text, message_text, text_item


def test_message_shapes() -> None:
    assert message_text("plain") == "plain"
    assert message_text({"content": "in a dict"}) == "in a dict"
    assert message_text({"content": [text_item("a"), {"type": "image"}, text_item("b")]}) == "a\nb"
    assert message_text(None) == ""
    assert message_text({"custom_type": "x"}) == ""


@given(st.lists(st.text()))
def test_text_items_join_with_newlines(texts: list[str]) -> None:
    assert content_text([text_item(text) for text in texts]) == "\n".join(texts)
