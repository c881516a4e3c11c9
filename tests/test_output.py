from __future__ import annotations

import io
import re

from hypothesis import assume, given
from hypothesis import strategies as st
from rich.markup import escape as rich_escape
from rich.text import Text

from hookman.output import PlainConsole, escape, markup_to_plain, printable

TEXT = st.text(alphabet=st.sampled_from(list("ab \\[]/=#@:x\n1")) | st.characters(), max_size=40)
TAG_SET = ("[bold]", "[/]", "[red]", "[/red]", "[dim]", "[bold red]")
TAGS = st.sampled_from(TAG_SET)


@given(TEXT)
def test_escape_is_riches_escape(text: str) -> None:
    assert escape(text) == rich_escape(text)


@given(TEXT)
def test_escaped_text_prints_as_rich_prints_it(text: str) -> None:
    # Itself, except where rich itself differs (a trailing backslash is doubled, `\\[`
    # before something that is no tag loses its backslash).
    shown = printable(markup_to_plain(escape(text)))
    assert shown == Text.from_markup(escape(text), emoji=False).plain
    if "\\" not in text:
        assert shown == printable(text)


@given(st.lists(st.one_of(TEXT.map(escape), TAGS), max_size=8))
def test_markup_prints_what_rich_prints_without_styles(parts: list[str]) -> None:
    opened = 0
    balanced = []
    for part in parts:  # rich refuses a closing tag with nothing open
        if part.startswith("[/"):
            if not opened:
                continue
            opened -= 1
        elif part in ("[bold]", "[red]", "[dim]", "[bold red]"):
            opened += 1
        balanced.append(part)
    # A text part with a bare `[` (no whole tag, so escape() left it) can become a tag with
    # the part after it; the property is about the tags the parts hold.
    assume(not any(re.search(r"(?<!\\)\[", p) for p in balanced if p not in TAG_SET))
    markup = "".join(balanced).replace("[/red]", "[/]")
    assert printable(markup_to_plain(markup)) == Text.from_markup(markup, emoji=False).plain


def test_the_plain_console_prints_markup_as_text() -> None:
    stream = io.StringIO()
    out = PlainConsole(stream)
    out.print(f"[bold]installed[/] {escape('[x]')}\r")
    out.print("[dim]kept[/]", markup=False, end="")
    assert stream.getvalue() == "installed [x]\n[dim]kept[/]"
    assert out.is_terminal is False
