"""Checks parsed `--json` output against the TypedDicts of hookman/json_shapes.py, strictly:
every required key there, no key the type does not declare, every value of its declared type
(Literal values, `X | None`, list[...], dict[str, ...], nested TypedDicts). Used by
tests/commands/test_json_output.py; tested by tests/test_json_shapes.py."""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

_SCALARS: dict[object, str] = {str: "a string", bool: "true or false", type(None): "null"}


def shape_problems(value: object, shape: object, where: str = "$") -> list[str]:
    """Every way `value` (a parsed JSON value) differs from `shape`, each as `PATH: what`;
    [] when it fits. A type the checker does not know is a TypeError, never a pass."""
    if shape is Any:
        return []
    if shape is None:
        shape = type(None)
    origin = get_origin(shape)
    if origin is Literal:
        allowed = get_args(shape)
        fits = any(type(value) is type(option) and value == option for option in allowed)
        return [] if fits else [f"{where}: {value!r} is none of {list(allowed)}"]
    if origin in (Union, types.UnionType):
        tried = [shape_problems(value, option, where) for option in get_args(shape)]
        if any(not problems for problems in tried):
            return []
        closest = min(tried, key=len)
        return [f"{where}: {value!r} fits no alternative of {shape}; closest: {closest}"]
    if origin is list:
        (item,) = get_args(shape)
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [
            p
            for i, element in enumerate(value)
            for p in shape_problems(element, item, f"{where}[{i}]")
        ]
    if origin is dict:
        key_type, item = get_args(shape)
        if key_type is not str:
            raise TypeError(f"a JSON object's keys are strings, not {key_type!r}")
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        return [
            p
            for key, element in value.items()
            for p in shape_problems(element, item, f"{where}.{key}")
        ]
    if is_typeddict(shape):
        return _typed_dict_problems(value, shape, where)
    return _scalar_problems(value, shape, where)


def _typed_dict_problems(value: object, shape: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not an object ({shape.__name__})"]
    keys = get_type_hints(shape, include_extras=True)
    problems = [
        f"{where}: the key {key!r} of {shape.__name__} is missing"
        for key in sorted(shape.__required_keys__)
        if key not in value
    ]
    problems += [
        f"{where}: {shape.__name__} has no key {key!r}" for key in value if key not in keys
    ]
    for key, element in value.items():
        if key in keys:
            problems += shape_problems(element, keys[key], f"{where}.{key}")
    return problems


def _scalar_problems(value: object, shape: object, where: str) -> list[str]:
    if shape in _SCALARS:
        fits = type(value) is shape
        return [] if fits else [f"{where}: {value!r} is not {_SCALARS[shape]}"]
    if shape is int:  # a JSON true is no integer, though bool subclasses int in Python
        fits = type(value) is int
        return [] if fits else [f"{where}: {value!r} is not an integer"]
    if shape is float:  # a JSON number: 30 and 30.5 both
        fits = type(value) in (int, float)
        return [] if fits else [f"{where}: {value!r} is not a number"]
    raise TypeError(f"the shape checker does not know the type {shape!r}")


def assert_shape(value: object, shape: object) -> None:
    problems = shape_problems(value, shape)
    assert problems == [], "\n".join(problems)
