"""Every test can fail: it asserts something, and not only inside a loop that may not run.

An AST scan of tests/: a test function (test_*) must reach an assertion (`assert`,
`pytest.raises`/`fail`/`warns`/`skip`..., `raise AssertionError`, or a call of a helper of
tests/ that reaches one), and at least one of them must sit outside every loop over an
iterable that may be empty (a non-empty literal or `range` of a positive constant always
runs), `assert all(... for x in ITERABLE)` included. A loop over an iterable the test asserts
to be non-empty (`assert ITERABLE`, `assert len(ITERABLE) == 3`, `assert ITERABLE == [...]`)
counts as running.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PYTEST_CHECKS = frozenset({"raises", "fail", "warns", "deprecated_call", "skip", "xfail", "exit"})
# Calls that check by themselves: a non-zero exit raises (check=True), a process that fails
# its own assertions. Named by their attribute or function name.
CHECKING_CALLS = frozenset({"check_call", "check_output", "assert_called_once_with"})


def _test_files() -> list[Path]:
    return sorted(path for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts)


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _is_direct_check(node: ast.AST) -> bool:
    """An assertion by itself: assert, raise AssertionError, pytest.raises(...) and kin,
    a subprocess run with check=True."""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Raise) and node.exc is not None:
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(raised, ast.Name) and raised.id in ("AssertionError", "Failed")
    if isinstance(node, ast.Call):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "pytest"
            and func.attr in PYTEST_CHECKS
        ):
            return True
        if _called_name(node) in CHECKING_CALLS:
            return True
        return any(
            keyword.arg == "check"
            and isinstance(keyword.value, ast.Constant)
            and keyword.value.value is True
            for keyword in node.keywords
        )
    return False


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, nested functions and classes left out."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _checking_helpers(trees: dict[Path, ast.Module]) -> set[str]:
    """Names of the functions of tests/ that reach an assertion (by name: a helper of one
    module is often called as a method or imported under its name)."""
    bodies: dict[str, list[ast.AST]] = {}
    for tree in trees.values():
        for function in _functions(tree):
            nodes = [*_own_nodes(function), *_inner_functions_nodes(function)]
            bodies.setdefault(function.name, []).extend(nodes)
    bodies = {name: nodes for name, nodes in bodies.items() if not name.startswith("test_")}
    checking = {name for name, nodes in bodies.items() if any(map(_is_direct_check, nodes))}
    while True:
        more = {
            name
            for name, nodes in bodies.items()
            if name not in checking
            and any(isinstance(n, ast.Call) and _called_name(n) in checking for n in nodes)
        }
        if not more:
            return checking
        checking |= more


def _inner_functions_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The bodies of functions defined inside `function` (closures it hands to a helper)."""
    for node in ast.walk(function):
        if node is not function and isinstance(node, ast.FunctionDef | ast.Lambda):
            yield from ast.walk(node)


def _checks(node: ast.AST, helpers: set[str], foreign: frozenset[str] = frozenset()) -> bool:
    """Whether `node` asserts, or calls a helper of tests/ that does. `foreign`: the names
    the file imports from outside tests/ (`subprocess`, `run` of `from subprocess import
    run`), whose calls are never a helper's, whatever their name."""
    if _is_direct_check(node):
        return True
    if not isinstance(node, ast.Call) or _called_name(node) not in helpers:
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id not in foreign
    receiver = func.value if isinstance(func, ast.Attribute) else None
    return not (isinstance(receiver, ast.Name) and receiver.id in foreign)


def _foreign_names(tree: ast.Module) -> frozenset[str]:
    """Names a test file binds by importing from outside tests/ (relative imports and the
    modules that live in tests/ are its own)."""
    own = {path.stem for path in _test_files()} | {"e2e", "tests"}
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {
                (alias.asname or alias.name).split(".")[0]
                for alias in node.names
                if alias.name.split(".")[0] not in own
            }
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").split(".")[0] not in own
        ):
            names |= {alias.asname or alias.name for alias in node.names}
    return frozenset(names)


def _always_runs(loop: ast.For | ast.AsyncFor | ast.While, asserted: set[str]) -> bool:
    if isinstance(loop, ast.While):
        return isinstance(loop.test, ast.Constant) and bool(loop.test.value)
    iterable = loop.iter
    if isinstance(iterable, ast.List | ast.Tuple | ast.Set) and iterable.elts:
        return not any(isinstance(item, ast.Starred) for item in iterable.elts)
    if isinstance(iterable, ast.Dict) and iterable.keys:
        return True
    if isinstance(iterable, ast.Constant) and isinstance(iterable.value, str | bytes):
        return bool(iterable.value)
    if isinstance(iterable, ast.Call) and _called_name(iterable) == "range" and iterable.args:
        last = iterable.args[-1] if len(iterable.args) == 1 else iterable.args[1]
        first = iterable.args[0] if len(iterable.args) > 1 else ast.Constant(0)
        if isinstance(last, ast.Constant) and isinstance(first, ast.Constant):
            return last.value > first.value
    return ast.unparse(_unwrapped(iterable)) in asserted


def _unwrapped(iterable: ast.expr) -> ast.expr:
    """`x` of `enumerate(x)`, `sorted(x)`, `zip(x, ...)`, `x.items()` and the like."""
    while True:
        if isinstance(iterable, ast.Call):
            name = _called_name(iterable)
            if name in ("enumerate", "sorted", "reversed", "list", "tuple", "zip") and (
                iterable.args
            ):
                iterable = iterable.args[0]
                continue
            if (
                name in ("items", "values", "keys")
                and isinstance(iterable.func, ast.Attribute)
                and not iterable.args
            ):
                iterable = iterable.func.value
                continue
        return iterable


def _vacuous_all(node: ast.AST, asserted: set[str]) -> bool:
    """`assert all(... for x in ITERABLE)`: true of an empty iterable, so it is a loop that
    may not run unless ITERABLE surely holds something."""
    if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Call):
        return False
    call = node.test
    if _called_name(call) != "all" or not call.args:
        return False
    argument = call.args[0]
    if not isinstance(argument, ast.GeneratorExp | ast.ListComp | ast.SetComp):
        return ast.unparse(_unwrapped(argument)) not in asserted
    loop = ast.For(
        target=argument.generators[0].target,
        iter=argument.generators[0].iter,
        body=[],
        orelse=[],
    )
    return not _always_runs(loop, asserted)


def _asserted_non_empty(function: ast.AST) -> set[str]:
    """Expressions the test asserts to be non-empty before looping over them: `assert x`,
    `assert len(x) == N`/`> 0`/`>= N`, `assert x == [non-empty literal]`, `assert x and ...`."""
    found: set[str] = set()
    for node in _own_nodes(function):
        if not isinstance(node, ast.Assert):
            continue
        tests = node.test.values if isinstance(node.test, ast.BoolOp) else [node.test]
        for test in tests:
            if isinstance(test, ast.Compare):
                left = test.left
                if isinstance(left, ast.Call) and _called_name(left) == "len" and left.args:
                    found.add(ast.unparse(left.args[0]))
                elif any(
                    isinstance(right, ast.List | ast.Tuple | ast.Dict | ast.Set | ast.Constant)
                    for right in test.comparators
                ):
                    found.add(ast.unparse(left))
            elif not isinstance(test, ast.UnaryOp):
                found.add(ast.unparse(test))
    return found


def _checks_outside_loops(
    function: ast.AST,
    helpers: set[str],
    asserted: set[str],
    foreign: frozenset[str] = frozenset(),
) -> tuple[bool, bool]:
    """(any check at all, a check that surely runs: outside every loop that may not)."""
    anywhere = surely = False
    skipped = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
    comprehensions = ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp

    def walk(node: ast.AST, in_loop: bool) -> None:
        nonlocal anywhere, surely
        for child in ast.iter_child_nodes(node):
            if isinstance(child, skipped):
                continue
            if _checks(child, helpers, foreign):
                anywhere = True
                surely = surely or not (in_loop or _vacuous_all(child, asserted))
            if isinstance(child, ast.For | ast.AsyncFor | ast.While):
                may_skip = not _always_runs(child, asserted)
                head = [child.test] if isinstance(child, ast.While) else [child.iter]
                for part in head:
                    walk(ast.Expr(part), in_loop)
                for part in child.body:
                    walk(ast.Module(body=[part], type_ignores=[]), in_loop or may_skip)
                for part in child.orelse:
                    walk(ast.Module(body=[part], type_ignores=[]), in_loop)
            else:
                walk(child, in_loop or isinstance(child, comprehensions))

    walk(function, False)
    return anywhere, surely


def weak_tests() -> tuple[list[str], list[str]]:
    """(tests that assert nothing, tests whose every assertion sits in a loop that may not
    run), as `path::name`."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _test_files()}
    helpers = _checking_helpers(trees)
    nothing: list[str] = []
    loops_only: list[str] = []
    for path, tree in trees.items():
        if not path.name.startswith("test_"):
            continue
        foreign = _foreign_names(tree)
        for function in _functions(tree):
            if not function.name.startswith("test_"):
                continue
            where = f"{path.relative_to(TESTS.parent)}::{function.name}"
            asserted = _asserted_non_empty(function)
            anywhere, surely = _checks_outside_loops(function, helpers, asserted, foreign)
            if not anywhere:
                nothing.append(where)
            elif not surely:
                loops_only.append(where)
    return nothing, loops_only


def test_every_test_asserts_something_that_runs() -> None:
    nothing, loops_only = weak_tests()
    assert nothing == [], "tests that assert nothing"
    assert loops_only == [], "tests whose assertions sit only in loops that may not run"


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scan itself can fail: a test with no assertion and one asserting only in a loop
    over a list that may be empty are both found."""
    weak = (
        "def test_nothing():\n    x = 1\n\n"
        "def test_loop(items):\n    for item in items:\n        assert item\n\n"
        "def test_fine(items):\n    assert items\n    for item in items:\n        assert item\n\n"
        "def test_all(items):\n    assert all(item for item in items)\n"
    )
    tree = ast.parse(weak)
    found = []
    for function in _functions(tree):
        anywhere, surely = _checks_outside_loops(function, set(), _asserted_non_empty(function))
        found.append((function.name, anywhere, surely))
    assert found == [
        ("test_nothing", False, False),
        ("test_loop", True, False),
        ("test_fine", True, True),
        ("test_all", True, False),
    ]
