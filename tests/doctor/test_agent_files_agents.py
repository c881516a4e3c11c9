"""The agents' JSON-with-comments reader (doctor/agent_files.py): what Qwen Code's
strip-json-comments and droid's jsonc-parser take, without changing a string's text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.agent_files import parse_json, strip_comments

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.sampled_from('a/*,"\\ \n]}')),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet=st.sampled_from("ab/*,"), max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_plain_json_reads_the_same(value: Any) -> None:
    text = json.dumps(value, indent=2)
    assert parse_json(text, comments=True) == value


@given(JSON_VALUES)
def test_comments_around_json_are_ignored(value: Any) -> None:
    text = f'// head // "not a string\n/* a\nblock */ {json.dumps(value)} // tail'
    assert parse_json(text, comments=True) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": [1, 2,], }', {"a": [1, 2]}),
        ('{"a": "x,}" , }', {"a": "x,}"}),
        ("[1, /* c */ ]", [1]),
        ('{"url": "http://x"}', {"url": "http://x"}),
    ],
)
def test_trailing_commas_when_asked_and_strings(text: str, value: Any) -> None:
    assert json.loads(strip_comments(text, trailing_commas=True)) == value


def test_a_trailing_comma_is_an_error_as_in_the_agents() -> None:
    """Measured with droid 0.225.2: a hooks.json with a trailing comma ran no hook."""
    with pytest.raises(json.JSONDecodeError):
        parse_json('{"a": [1,]}', comments=True)


def test_line_and_column_numbers_are_kept() -> None:
    text = '// one\n{\n  /* two\n */ "a": 1,\n  x\n}'
    with pytest.raises(json.JSONDecodeError) as error:
        parse_json(text, comments=True)
    assert error.value.lineno == 5
    assert len(strip_comments(text)) == len(text)


def test_without_comments_a_comment_is_an_error() -> None:
    with pytest.raises(json.JSONDecodeError):
        parse_json("// x\n{}", comments=False)
