"""The bundled templates `hookman new` copies: each `templates/NAME.py` with its test
`templates/test_NAME.py`, its one-line description (the module docstring's first line) and
its options, read without importing the module.

A template asks for options with module-level constants that `hookman new` reads:
`HOOKMAN_ASYNC = True` records the hook with `async = true` in hookman.toml (observe-only:
Claude Code runs it in its own entry and never waits for it). `HOOKMAN_WRITES = ["PATH", ...]`
names files the hook writes in the project (relative to its root), which `hookman new` keeps
out of git through .git/info/exclude, as it does for settings.local.json.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from hookman.scaffold.template_files import bundled_templates

ASYNC_CONSTANT = "HOOKMAN_ASYNC"
WRITES_CONSTANT = "HOOKMAN_WRITES"
TEST_PREFIX = "test_"


@dataclass(frozen=True)
class Template:
    name: str
    path: Path
    test_path: Path | None
    description: str
    run_async: bool
    writes: tuple[str, ...] = ()


def templates() -> dict[str, Template]:
    """Every bundled template, by name, in name order."""
    return {name: _describe(name, path) for name, path in bundled_templates().items()}


def _describe(name: str, path: Path) -> Template:
    try:
        module = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError, SyntaxError):
        module = ast.Module(body=[], type_ignores=[])
    docstring = ast.get_docstring(module) or ""
    first_line = docstring.strip().splitlines()[0] if docstring.strip() else ""
    test_path = path.with_name(f"{TEST_PREFIX}{path.name}")
    return Template(
        name=name,
        path=path,
        test_path=test_path if test_path.is_file() else None,
        description=first_line,
        run_async=_constant(module, ASYNC_CONSTANT) is True,
        writes=_relative_paths(_constant(module, WRITES_CONSTANT)),
    )


def _relative_paths(value: object) -> tuple[str, ...]:
    """The project-relative paths of a HOOKMAN_WRITES list (anything else: none)."""
    if not isinstance(value, (list, tuple)):
        return ()
    return tuple(path for path in value if isinstance(path, str) and _inside_project(path))


def _inside_project(path: str) -> bool:
    return bool(path) and not path.startswith("/") and ".." not in path.split("/")


def _constant(module: ast.Module, name: str) -> object:
    """The literal value of a top-level `NAME = literal` (last assignment wins), or None."""
    value: object = None
    for statement in module.body:
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets = [statement.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            try:
                value = ast.literal_eval(statement.value)  # type: ignore[arg-type]
            except ValueError:
                value = None
    return value
