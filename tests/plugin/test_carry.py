"""What a plugin carries of hookman, and which hook imports build refuses or notes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.plugin.carry import carried_files, check_hook_imports, is_carried

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
