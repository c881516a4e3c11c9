"""guard_results: a guard's result is nothing, understood, or a problem (never an allow)."""

from __future__ import annotations

import types

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.guard_results import (
    TOOL_CALL_FIELDS,
    blocks,
    raw_result,
    read_mapping,
    shown,
    tool_call_problem,
)

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=5,
)
INPUT = {"command": "rm -rf /"}


@given(result=_json)
def test_a_tool_call_result_is_understood_only_as_none_or_a_dict_of_its_fields(
    result: object,
) -> None:
    understood = result is None or (
        isinstance(result, dict)
        and set(result) <= TOOL_CALL_FIELDS
        and result.get("input", INPUT) == INPUT
    )

    assert (tool_call_problem(result, INPUT) is None) == understood


@given(fields=st.dictionaries(st.sampled_from(["block", "reason"]), _json))
def test_a_mapping_means_what_the_same_dict_means(fields: dict) -> None:
    proxy = types.MappingProxyType(fields)

    assert tool_call_problem(proxy, INPUT) == tool_call_problem(dict(fields), INPUT) is None
    assert read_mapping(proxy).fields == fields
    assert blocks(read_mapping(proxy).fields or {}) == blocks(fields)


def test_a_generator_is_named_as_the_mistake_it_is() -> None:
    def handler():
        yield {"block": True}

    problem = tool_call_problem(handler(), INPUT)

    assert problem is not None
    assert problem.startswith("<generator object")
    assert "a generator: the handler uses `yield`; use `return`" in problem


def test_claude_codes_shape_gets_a_hint() -> None:
    problem = tool_call_problem({"decision": "block"}, INPUT)

    assert problem is not None and "that is Claude Code's own shape" in problem
    assert "own shape" not in (tool_call_problem({"nope": 1}, INPUT) or "")


def test_raw_results_must_be_objects() -> None:
    assert raw_result({"decision": "block"}).fields == {"decision": "block"}
    assert raw_result(types.MappingProxyType({"a": 1})).fields == {"a": 1}
    text = raw_result('{"decision": "block"}')
    assert text.fields is None and text.problem is not None
    assert "(a str, not a dict: JSON text, not the object; " in text.problem
    assert (
        raw_result(False).problem
        == "False (a boolean, not a dict; a raw handler returns None or a dict of Claude Code "
        "output fields)"
    )


def test_shown_is_short_and_never_raises() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert shown(Hostile()) == "a Hostile whose repr fails"
    assert len(shown("x" * 1000)) == 80

    class Multiline:
        def __repr__(self) -> str:
            return "line one\n    line two"

    assert shown(Multiline()) == "line one line two"  # one line in a deny reason
