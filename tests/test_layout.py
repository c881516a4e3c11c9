"""The layout is the architecture (ARCHITECTURE.md): each room imports only rooms below it,
no module imports itself back through others, and the package root keeps its foundations."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hookman"

# Bottom to top. A room may import its own modules and any room listed before it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "user_dirs"),
    ("paths", "atomic_file", "output", "json_shapes"),
    ("toml_data",),
    ("runtime",),
    ("testing", "bridge"),
    ("catalog", "scaffold", "serve"),
    ("project",),
    ("hooks",),
    ("agents",),
    ("install",),
    ("rehearsal", "plugin"),
    ("doctor",),
    ("commands",),
    ("cli",),
    ("__main__",),
)
# errors, user_dirs, paths, atomic_file, output, testing, json_shapes (the --json
# contract: typing only, below every room that builds a --json object) and toml_data (reading
# TOML, stdlib only)
ROOT_MODULE_LIMIT = 8


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Every hookman module each module imports, at any depth of its code (lazy imports and
    TYPE_CHECKING blocks included: they are dependencies too)."""
    found: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets.add(node.module)
                targets.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[name] = {t for t in targets if t in modules and t not in (name, "hookman")}
    return found


def _room(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def _rank() -> dict[str, int]:
    return {room: level for level, rooms in enumerate(LAYERS) for room in rooms}


def test_every_room_has_a_layer() -> None:
    rooms = {_room(name) for name in _modules() if name != "hookman"}
    assert rooms == set(_rank())


def test_no_room_imports_a_room_above_it_or_beside_it() -> None:
    rank = _rank()
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in _imports(_modules()).items()
        if module != "hookman"
        for target in targets
        if _room(target) != _room(module) and rank[_room(target)] >= rank[_room(module)]
    )
    assert wrong == []


def test_no_import_circle() -> None:
    graph = _imports(_modules())
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                circles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_package_root_keeps_only_its_foundations() -> None:
    root_modules = sorted(
        path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "__main__")
    )
    assert len(root_modules) <= ROOT_MODULE_LIMIT, root_modules


def test_tests_mirror_the_package() -> None:
    """Each test directory is named after a room of the package (e2e is the real client's,
    tools the repository's tools/)."""
    tests = Path(__file__).resolve().parent
    directories = {p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert directories - {"e2e", "tools"} <= set(_rank())


def test_the_architecture_map_names_every_module() -> None:
    """ARCHITECTURE.md's map is the tree: every module and package of hookman/ is in it."""
    text = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    block = text.split("```\nhookman/\n", 1)[1].split("\n```", 1)[0]
    named = {
        word.rstrip("/")
        for line in block.splitlines()
        for word in line.split()
        if word.endswith((".py", "/"))
    }
    missing = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py" and path.name not in named
    )
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert missing == []
    assert [name for name in packages if name not in named] == []
