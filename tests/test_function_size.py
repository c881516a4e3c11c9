"""Functions small enough to read: none in hookman/ is longer than MAX_LINES (its docstring
included), so each keeps to one job (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hookman"
MAX_LINES = 100


def _long_functions() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}")
    return found


def test_the_scan_reads_the_package() -> None:
    assert len(list(PACKAGE.rglob("*.py"))) > 100


def test_no_function_is_longer_than_the_limit() -> None:
    assert _long_functions() == []
