"""What a plugin carries of hookman, and which hook imports build refuses or notes."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.plugin.carry import (
    FULL_INSTALL_ONLY,
    carried_files,
    check_hook_imports,
    is_carried,
)

HOOK = Path("hooks/h.py")


def test_only_the_package_root_runtime_and_bridge_are_carried() -> None:
    carried = [relative for relative, _ in carried_files()]
    assert "hookman/__init__.py" in carried and "hookman/bridge/run_command.py" in carried
    assert {path.split("/")[1] for path in carried if path.count("/") == 2} == {
        "runtime",
        "bridge",
    }


@pytest.mark.parametrize(
    "source",
    [
        "import hookman.project.config",
        "from hookman import paths",
        "from hookman.install.sync import sync_project",
        "from hookman.testing import load_hook",
        "def f():\n    import hookman.doctor",
    ],
)
def test_management_imports_are_refused_with_a_sentence(source: str) -> None:
    with pytest.raises(HookmanError, match="a plugin does not carry"):
        check_hook_imports("h", HOOK, source)


@pytest.mark.parametrize(
    "source",
    [
        "import hookman",
        "from hookman import runtime, __version__",
        "from hookman.runtime.types import HookError",
        "import hookman.bridge.protocol",
        "from . import sibling",
        "import json, os.path",
    ],
)
def test_carried_and_standard_imports_pass_quietly(source: str) -> None:
    assert check_hook_imports("h", HOOK, source) == []


def test_third_party_imports_get_a_note() -> None:
    notes = check_hook_imports("h", HOOK, "import requests\nimport requests.adapters")
    assert notes == [
        "the hook 'h' imports requests, which is not in the standard library: the plugin "
        "does not carry it, so every machine's python3 must have it",
        "the hook 'h' imports requests.adapters, which is not in the standard library: the "
        "plugin does not carry it, so every machine's python3 must have it",
    ]


def test_a_hook_that_does_not_parse_is_refused() -> None:
    with pytest.raises(HookmanError, match="not valid Python"):
        check_hook_imports("h", HOOK, "def (")


@given(st.from_regex(r"hookman(\.[a-z_]{1,12}){0,3}", fullmatch=True))
def test_is_carried_is_exactly_runtime_bridge_and_the_root(module: str) -> None:
    parts = module.split(".")
    expected = (
        len(parts) == 1 or parts[1] in ("runtime", "bridge") or module == ("hookman.__version__")
    )
    assert is_carried(module) == expected


def _runtime_imports(tree: ast.Module) -> Iterator[tuple[str, bool]]:
    """(module, inside a function) for each absolute import that runs (TYPE_CHECKING blocks
    left out: they never do)."""

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[str, bool]]:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for child in node.orelse:
                yield from walk(child, in_function)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, in_function
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, in_function
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for child in ast.iter_child_nodes(node):
            yield from walk(child, inner)

    yield from walk(tree, False)


def test_carried_modules_import_only_what_the_plugin_carries() -> None:
    """Every hookman import of the runner's path is carried, but the few a full install
    alone reaches, lazily (FULL_INSTALL_ONLY); that list holds nothing stale."""
    carried = {
        relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for relative, _ in carried_files()
    }
    outside: set[tuple[str, str]] = set()
    for relative, source in carried_files():
        module = relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for name, in_function in _runtime_imports(ast.parse(source.read_text())):
            if name.split(".")[0] != "hookman" or name in carried:
                continue
            assert in_function, f"{module} imports {name} when it loads: a plugin lacks it"
            outside.add((module, name))
    assert outside == set(FULL_INSTALL_ONLY)
