"""hookman/json_shapes.py (the `--json` contract) and the checker the command tests hold the
output to (tests/shape_check.py): the checker accepts every value of a shape and refuses a
missing key, an extra key and a value of another kind; nothing loads the shapes at run time."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Literal, TypedDict, Union, get_args, get_origin, get_type_hints

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman import json_shapes
from tests.shape_check import assert_shape, shape_problems

PACKAGE = Path(json_shapes.__file__).resolve().parent
SHAPES = sorted(
    (
        value
        for name, value in vars(json_shapes).items()
        if isinstance(value, type) and name != "TypedDict" and hasattr(value, "__required_keys__")
    ),
    key=lambda shape: shape.__name__,
)
PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Part(TypedDict):
    kind: Literal["a", "b"]
    size: int


class _WholeKeys(TypedDict):
    name: str
    parts: list[Part]
    scores: dict[str, float]
    note: str | None


class Whole(_WholeKeys, total=False):
    extra: bool


GOOD: dict[str, Any] = {
    "name": "x",
    "parts": [{"kind": "a", "size": 1}],
    "scores": {"s": 1.5, "t": 2},
    "note": None,
}


# --- the checker, by example ----------------------------------------------------------------


def test_a_value_that_fits_has_no_problem_with_or_without_its_optional_key() -> None:
    assert shape_problems(GOOD, Whole) == []
    assert shape_problems({**GOOD, "extra": True, "note": "n"}, Whole) == []


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({k: v for k, v in GOOD.items() if k != "note"}, "$: the key 'note' of Whole is missing"),
        ({**GOOD, "more": 1}, "$: Whole has no key 'more'"),
        ({**GOOD, "name": 1}, "$.name: 1 is not a string"),
        ({**GOOD, "note": 0}, "$.note: 0 fits no alternative"),
        ({**GOOD, "extra": "yes"}, "$.extra: 'yes' is not true or false"),
        ({**GOOD, "parts": [{"kind": "c", "size": 1}]}, "$.parts[0].kind: 'c' is none of"),
        (
            {**GOOD, "parts": [{"kind": "a", "size": True}]},
            "$.parts[0].size: True is not an integer",
        ),
        ({**GOOD, "parts": [{"kind": "a", "size": 1.5}]}, "$.parts[0].size: 1.5 is not an integer"),
        ({**GOOD, "parts": [{"kind": "a"}]}, "$.parts[0]: the key 'size' of Part is missing"),
        ({**GOOD, "parts": {"kind": "a", "size": 1}}, "$.parts: {"),
        ({**GOOD, "scores": {"s": "1"}}, "$.scores.s: '1' is not a number"),
        ({**GOOD, "scores": {"s": False}}, "$.scores.s: False is not a number"),
        ({**GOOD, "scores": []}, "$.scores: [] is not an object"),
        ([GOOD], "$: [{"),
    ],
)
def test_each_way_a_value_can_differ_is_a_problem_named_by_its_path(
    value: object, problem: str
) -> None:
    problems = shape_problems(value, Whole)
    assert len(problems) == 1 and problems[0].startswith(problem), problems
    with pytest.raises(AssertionError):
        assert_shape(value, Whole)


def test_a_literal_true_is_not_the_number_one() -> None:
    assert shape_problems(1, Literal[True]) != []
    assert shape_problems(True, Literal[True]) == []
    assert shape_problems(True, Literal[1]) != []


def test_a_type_the_checker_does_not_know_is_an_error_not_a_pass() -> None:
    with pytest.raises(TypeError):
        shape_problems(1, tuple[int])
    with pytest.raises(TypeError):
        shape_problems({}, dict[int, str])


# --- the checker, by property: every shape of hookman/json_shapes.py ------------------------


def values_of(shape: Any) -> st.SearchStrategy[Any]:
    """JSON values that fit `shape` (built from the type, independently of the checker)."""
    if shape is Any:
        return st.none() | st.integers() | st.text(max_size=3) | st.lists(st.integers(), max_size=2)
    if shape is None or shape is type(None):
        return st.none()
    origin = get_origin(shape)
    if origin is Literal:
        return st.sampled_from(get_args(shape))
    if origin in (Union, types.UnionType):
        return st.one_of([values_of(option) for option in get_args(shape)])
    if origin is list:
        return st.lists(values_of(get_args(shape)[0]), max_size=2)
    if origin is dict:
        return st.dictionaries(st.text(max_size=3), values_of(get_args(shape)[1]), max_size=2)
    if hasattr(shape, "__required_keys__"):
        keys = get_type_hints(shape, include_extras=True)
        return st.fixed_dictionaries(
            {key: values_of(keys[key]) for key in shape.__required_keys__},
            optional={key: values_of(keys[key]) for key in shape.__optional_keys__},
        )
    return {
        str: st.text(max_size=3),
        bool: st.booleans(),
        int: st.integers(),
        float: st.integers() | st.floats(allow_nan=False, allow_infinity=False),
    }[shape]


def kinds_of(shape: Any) -> set[str]:
    """The JSON kinds (null, boolean, number, string, array, object) `shape` admits at its
    top level."""
    origin = get_origin(shape)
    if shape is Any:
        return {"null", "boolean", "number", "string", "array", "object"}
    if shape is None or shape is type(None):
        return {"null"}
    if origin is Literal:
        return set().union(*(kinds_of(type(option)) for option in get_args(shape)))
    if origin in (Union, types.UnionType):
        return set().union(*(kinds_of(option) for option in get_args(shape)))
    if origin is list:
        return {"array"}
    if origin is dict or hasattr(shape, "__required_keys__"):
        return {"object"}
    return {str: {"string"}, bool: {"boolean"}, int: {"number"}, float: {"number"}}[shape]


SAMPLES = {"null": None, "boolean": True, "number": 7, "string": "s", "array": [], "object": {}}


# What each command prints: every other shape is a part of one of these.
COMMAND_SHAPES = [
    json_shapes.InstallJson,
    json_shapes.RemoveJson,
    json_shapes.UninstallJson,
    json_shapes.EnableJson,
    json_shapes.DisableJson,
    json_shapes.EnableUnchangedJson,
    json_shapes.DisableUnchangedJson,
    json_shapes.TryRepoJson,
    json_shapes.AutoupdateJson,
    json_shapes.AutoupdateUnchangedJson,
    json_shapes.ListJson,
    json_shapes.TemplateJson,
    json_shapes.RegistryJson,
    json_shapes.HookCommandsJson,
    json_shapes.PluginJson,
    json_shapes.DoctorJson,
    json_shapes.FireJson,
    json_shapes.FiringRecordJson,
]


def test_every_shape_resolves_and_is_part_of_what_a_command_prints() -> None:
    reached: set[str] = set()

    def reach(shape: Any) -> None:
        for option in get_args(shape):
            reach(option)
        if hasattr(shape, "__required_keys__") and shape.__name__ not in reached:
            reached.add(shape.__name__)
            for part in get_type_hints(shape, include_extras=True).values():
                reach(part)

    for shape in COMMAND_SHAPES:
        reach(shape)
    public = {shape.__name__ for shape in SHAPES if not shape.__name__.startswith("_")}
    # bases: their keys are reached through the shapes that extend them
    bases = {
        "SyncJson",
        "BlockingRunJson",
        "RehearsalJson",
        "PluginBuildJson",
        "CodexInstalledJson",
    }
    assert public - reached == bases


@pytest.mark.parametrize("shape", COMMAND_SHAPES, ids=lambda shape: shape.__name__)
@PROPERTY
@given(data=st.data())
def test_a_value_fits_its_shape_but_not_with_a_key_missing_or_added_or_of_another_kind(
    shape: Any, data: st.DataObject
) -> None:
    value = data.draw(values_of(shape))
    assert shape_problems(value, shape) == []
    keys = get_type_hints(shape, include_extras=True)
    required = sorted(shape.__required_keys__)
    dropped = data.draw(st.sampled_from(required))
    missing = {key: item for key, item in value.items() if key != dropped}
    assert any(repr(dropped) in problem for problem in shape_problems(missing, shape))
    unknown = data.draw(st.text(min_size=1, max_size=5).filter(lambda key: key not in keys))
    assert shape_problems({**value, unknown: None}, shape) != []
    key = data.draw(st.sampled_from(sorted(k for k in value if keys[k] is not Any)))
    wrong = SAMPLES[data.draw(st.sampled_from(sorted(set(SAMPLES) - kinds_of(keys[key]))))]
    assert shape_problems({**value, key: wrong}, shape) != []


# --- nothing loads the shapes at run time ---------------------------------------------------


def _names_json_shapes(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module == "hookman.json_shapes"
    return isinstance(node, ast.Import) and any(
        alias.name == "hookman.json_shapes" for alias in node.names
    )


def _imports_of_json_shapes(tree: ast.Module) -> list[tuple[ast.AST, bool]]:
    """Each import of hookman.json_shapes in `tree`, and whether it sits under `if
    TYPE_CHECKING:`."""
    found: list[tuple[ast.AST, bool]] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = guarded or (
                isinstance(child, ast.If)
                and isinstance(child.test, ast.Name)
                and child.test.id == "TYPE_CHECKING"
            )
            if _names_json_shapes(child):
                found.append((child, guarded))
            visit(child, inside)

    visit(tree, False)
    return found


def test_the_shapes_are_imported_for_type_checkers_only() -> None:
    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node, guarded in _imports_of_json_shapes(ast.parse(path.read_text("utf-8"))):
            users.append(path.relative_to(PACKAGE).as_posix())
            assert guarded, f"{path}:{node.lineno} imports hookman.json_shapes at run time"
    assert "commands/sync_report.py" in users and "bridge/run_command.py" in users


def test_the_import_check_sees_an_import_outside_type_checking() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from hookman.json_shapes import A\n"
        "from hookman.json_shapes import B\n"
    )
    assert [guarded for _, guarded in _imports_of_json_shapes(ast.parse(source))] == [True, False]


@pytest.mark.parametrize("args", [["list", "--json"], ["run", "PreToolUse", "--manifest", "x"]])
def test_a_command_and_the_runner_do_not_import_the_shapes(args: list[str], project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hookman", *args],
        capture_output=True,
        text=True,
        cwd=project,
        input="{}",
        env={**os.environ, "PATH": os.defpath},
        check=False,
    )
    imported = set(re.findall(r"^import time:.*\|\s*([\w.]+)\s*$", done.stderr, re.MULTILINE))
    assert "hookman.output" in imported or "hookman.bridge.run_command" in imported
    assert "hookman.json_shapes" not in imported
