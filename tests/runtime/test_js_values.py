from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.runtime.js_values import (
    error_message,
    is_js_truthy,
    nullish_fallback,
    or_fallback,
    read_field,
)

JS_FALSY = [None, False, 0, 0.0, -0.0, math.nan, ""]

json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.parametrize("value", JS_FALSY, ids=repr)
def test_javascript_falsy_values_are_falsy(value: object) -> None:
    assert is_js_truthy(value) is False


@pytest.mark.parametrize(
    "value",
    [{}, [], "0", " ", "false", 1, -1, 0.5, True, object()],
    ids=lambda value: "object()" if type(value) is object else repr(value),
)
def test_empty_containers_and_other_values_are_truthy(value: object) -> None:
    assert is_js_truthy(value) is True


@given(json_like)
def test_truthiness_matches_the_javascript_rule(value: object) -> None:
    falsy = (
        value is None
        or value is False
        or value == ""
        or (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and (value == 0 or value != value)
        )
    )
    assert is_js_truthy(value) is (not falsy)


@given(json_like, json_like)
def test_nullish_fallback_replaces_only_none(value: object, fallback: object) -> None:
    chosen = nullish_fallback(value, fallback)
    assert chosen is (fallback if value is None else value)


@given(json_like, json_like)
def test_or_fallback_replaces_every_falsy_value(value: object, fallback: object) -> None:
    chosen = or_fallback(value, fallback)
    assert chosen is (value if is_js_truthy(value) else fallback)


def test_nullish_fallback_keeps_false_zero_empty_string_and_empty_list() -> None:
    for kept in (False, 0, "", []):
        assert nullish_fallback(kept, "fallback") is kept


def test_read_field_reads_dict_items_and_object_attributes_and_never_fails() -> None:
    class Verdict:
        block = True

    assert read_field({"block": True}, "block") is True
    assert read_field({}, "block") is None
    assert read_field(Verdict(), "block") is True
    assert read_field("text", "block") is None
    assert read_field(42, "reason") is None
    assert read_field(None, "reason") is None


def test_error_message_is_the_exception_text_or_its_class_name() -> None:
    assert error_message(ValueError("bad input")) == "bad input"
    assert error_message(RuntimeError()) == "RuntimeError"
