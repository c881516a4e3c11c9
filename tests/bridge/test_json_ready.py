from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.bridge.json_ready import MAX_DEPTH, json_ready

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
HOSTILE_LEAVES = (
    st.floats()  # NaN and infinities included
    | st.integers(min_value=2**1001, max_value=2**1100)
    | st.binary(max_size=8)
    | st.frozensets(st.integers(), max_size=3)
    | st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1)
    | st.builds(object)
)
HOSTILE_VALUES = st.recursive(
    JSON_VALUES | HOSTILE_LEAVES,
    lambda children: (
        st.lists(children, max_size=4).map(tuple)
        | st.lists(children, max_size=4)
        | st.dictionaries(
            st.one_of(st.text(max_size=8), st.integers(), st.tuples(st.integers())),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)


def _strict_json(value: object) -> object:
    """Encode as Claude Code would read it: strict JSON (no NaN), valid UTF-8."""
    encoded = json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return json.loads(encoded, parse_constant=_reject_constant)


def _reject_constant(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")


@settings(max_examples=100)
@given(JSON_VALUES)
def test_json_values_pass_unchanged(value: object) -> None:
    ready, problems = json_ready(value)

    assert ready == value
    assert problems == []


@settings(max_examples=100)
@given(HOSTILE_VALUES)
def test_anything_becomes_strict_json(value: object) -> None:
    ready, _problems = json_ready(value)

    assert _strict_json(ready) == ready


def test_each_replacement_is_described_with_its_place() -> None:
    ready, problems = json_ready(
        {"a": {1, 2}, "b": [math.nan], "c": "bad \udc80", (1, 2): 3, "d": b"x"}
    )

    assert ready == {"a": "{1, 2}", "b": [None], "c": "bad ?", "(1, 2)": 3, "d": "b'x'"}
    assert problems == [
        "a set value at a",
        "nan, which JSON cannot hold at b[0]",
        "text that is not valid Unicode at c",
        "a tuple key at the top level",
        "a bytes value at d",
    ]


def test_a_value_that_contains_itself_is_cut_where_it_repeats() -> None:
    loop: list[object] = [1]
    loop.append(loop)

    ready, problems = json_ready({"x": loop})

    assert ready == {"x": [1, None]}
    assert problems == ["a value that contains itself at x[1]"]


def test_shared_values_that_are_not_loops_are_kept() -> None:
    shared = {"k": 1}

    assert json_ready([shared, shared]) == ([{"k": 1}, {"k": 1}], [])


def test_endless_nesting_is_cut_at_the_depth_limit() -> None:
    deep: list[object] = []
    innermost = deep
    for _ in range(MAX_DEPTH * 50):
        innermost.append([])
        innermost = innermost[0]  # type: ignore[assignment]

    ready, problems = json_ready(deep)

    assert _strict_json(ready) == ready
    assert len(problems) == 1 and problems[0].startswith("a value nested too deeply")


def test_an_object_whose_str_raises_is_still_described() -> None:
    class Hostile:
        def __str__(self) -> str:
            raise RuntimeError("no")

        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert json_ready(Hostile()) == ("<Hostile>", ["a Hostile value at the top level"])
