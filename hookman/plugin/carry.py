"""What a plugin carries besides the hooks: hookman's runner path, which is standard library
only (hookman/__init__.py, runtime/ and bridge/; tests/test_layout.py keeps it so), and the
check that a hook needs nothing more of hookman.

A hook may import `hookman`, `hookman.runtime...` and `hookman.bridge...`; anything else of
hookman (its management code: install, project, catalog, ...) is not in the plugin, so
build refuses such a hook rather than ship a guard that fails to load on every machine.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import hookman
from hookman.errors import HookmanError

CARRIED_PACKAGES = ("runtime", "bridge")
ALLOWED_HOOKMAN_MODULES = ("hookman", "hookman.__version__", "hookman.runtime", "hookman.bridge")
# Carried modules that import hookman's management code lazily, in a function only a full
# install reaches (a plugin's manifest never opts in to the warm server, and records no
# `installed_from`, so no project change is ever found and hookman.toml never parsed):
# (module, import). tests/plugin/test_carry.py fails on any other import of what a plugin
# does not carry.
FULL_INSTALL_ONLY = (
    ("hookman.bridge.serve_proof", "hookman.user_dirs"),
    ("hookman.bridge.project_moved", "hookman.toml_data"),
)


def carried_files() -> Iterator[tuple[str, Path]]:
    """(path inside the plugin's lib/, source file) for every module the runner may import."""
    package = Path(hookman.__file__).resolve().parent
    yield "hookman/__init__.py", package / "__init__.py"
    for name in CARRIED_PACKAGES:
        for source in sorted((package / name).glob("*.py")):
            yield f"hookman/{name}/{source.name}", source


def imported_modules(source: str) -> Iterator[tuple[str, int]]:
    """The absolute module names a module's text imports, with their lines."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno
            if node.module == "hookman":
                for alias in node.names:
                    yield f"hookman.{alias.name}", node.lineno


def is_carried(module: str) -> bool:
    return any(
        module == allowed or (allowed != "hookman" and module.startswith(allowed + "."))
        for allowed in ALLOWED_HOOKMAN_MODULES
    )


def check_hook_imports(name: str, path: Path, text: str) -> list[str]:
    """Refuse a hook that imports hookman code the plugin does not carry; return notes on
    other imports that are neither the standard library nor hookman (every machine's
    python3 must have them)."""
    try:
        found = list(imported_modules(text))
    except SyntaxError as error:
        raise HookmanError(
            f"the hook {name!r} ({path}) is not valid Python (line {error.lineno}): "
            f"{error.msg}; no plugin was built.",
            "fix the file, then check it with `hookman fire PreToolUse`.",
        ) from None
    notes = []
    for module, line in found:
        top = module.split(".")[0]
        if top == "hookman":
            if not is_carried(module):
                raise HookmanError(
                    f"the hook {name!r} imports {module} (line {line} of {path}), hookman "
                    "management code a plugin does not carry: only hookman.runtime and "
                    "hookman.bridge run inside a plugin; no plugin was built.",
                    "import only from hookman.runtime in the hook, or leave it out with "
                    "`hookman plugin build OUT_DIR --hooks NAME ...`.",
                )
        elif top not in sys.stdlib_module_names and top != "__future__":
            notes.append(
                f"the hook {name!r} imports {module}, which is not in the standard library: "
                "the plugin does not carry it, so every machine's python3 must have it"
            )
    return list(dict.fromkeys(notes))
