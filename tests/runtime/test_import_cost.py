"""`import hookman.runtime` must stay lean: standard library only, no asyncio, no typing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import hookman

PACKAGE_ROOT = str(Path(hookman.__file__).resolve().parent.parent)
# Heavy standard-library modules the runner's start-up path must not pay for.
FORBIDDEN_AT_IMPORT = {
    "asyncio",
    "typing",
    "inspect",
    "subprocess",
    "dataclasses",
    "threading",
    "logging",
}


def imported_modules(code: str) -> list[str]:
    """Modules `code` imports in a fresh interpreter without site (so nothing is preloaded)."""
    completed = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": PACKAGE_ROOT},
        check=True,
    )
    names = []
    for line in completed.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.append(line.rsplit("|", 1)[1].strip())
    return [name for name in names if name != "imported package"]


def test_importing_the_runtime_loads_only_lean_standard_library_modules() -> None:
    modules = imported_modules("import hookman.runtime")
    top_level = {name.split(".")[0] for name in modules}
    assert "hookman.runtime" in modules
    stdlib = set(sys.stdlib_module_names)
    assert {name for name in top_level if name not in stdlib} == {"hookman"}
    assert not (top_level & FORBIDDEN_AT_IMPORT)


def test_using_a_typed_dict_name_loads_typing_lazily() -> None:
    modules = imported_modules("import hookman.runtime as r; r.ToolCallEvent")
    assert "typing" in modules
    assert "asyncio" not in modules


def test_dispatching_to_sync_handlers_never_imports_asyncio(tmp_path: Path) -> None:
    hook = tmp_path / "guard.py"
    hook.write_text("def hook(pi):\n    pi.on('tool_call', lambda event, ctx: {'block': True})\n")
    code = (
        "import sys, hookman.runtime as r\n"
        f"hooks, errors = r.load_hooks([{str(hook)!r}], {str(tmp_path)!r})\n"
        "assert not errors, errors\n"
        "runner = r.HookRunner(hooks, '.')\n"
        "assert runner.emit_tool_call({'type': 'tool_call', 'input': {}})['block']\n"
        "runner.emit({'type': 'agent_start'})\n"
        "r.render_status_line({'a': 'b'}, 10)\n"
        "assert 'asyncio' not in sys.modules\n"
        "assert 'subprocess' not in sys.modules\n"
    )
    modules = imported_modules(code)
    assert "asyncio" not in modules


def test_an_async_handler_imports_asyncio_when_it_runs() -> None:
    code = (
        "import sys, hookman.runtime as r\n"
        "async def handler(event, ctx): return {'block': True}\n"
        "runner = r.HookRunner([r.LoadedHook('a.py', {'tool_call': [handler]})], '.')\n"
        "assert 'asyncio' not in sys.modules\n"
        "assert runner.emit_tool_call({'type': 'tool_call'}) == {'block': True}\n"
        "assert 'asyncio' in sys.modules\n"
    )
    assert "asyncio" in imported_modules(code)
