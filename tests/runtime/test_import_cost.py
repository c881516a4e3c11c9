"""`import hookman.runtime` must stay lean: standard library only, no asyncio, no typing."""

from __future__ import annotations

import json
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


# The status line and the completion helper run on the lean path, like `hookman run`.
FORBIDDEN_ON_LEAN_COMMANDS = {
    "typer",
    "click",
    "rich",
    "tomlkit",
    "platformdirs",
    "filelock",
    "pydantic",
    "argparse",
    "pathlib",
    "subprocess",
    "asyncio",
    "dataclasses",
    "tempfile",
}
ENTRY = "import sys; from hookman.__main__ import main; sys.exit(main())"


def lean_command_modules(
    arguments: list[str], cwd: Path, stdin: str = "", home: Path | None = None
) -> set[str]:
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    if home is not None:
        env["HOOKMAN_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-c", ENTRY, *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    } - {"imported package"}


def test_the_statusline_imports_only_lean_modules(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    status = json.dumps({"session_id": "s", "workspace": {"project_dir": str(project)}})
    modules = lean_command_modules(["statusline"], project, status, home=tmp_path / "home")
    assert "hookman.commands.statusline" in modules
    assert not {name.split(".")[0] for name in modules} & FORBIDDEN_ON_LEAN_COMMANDS
    assert not {name for name in modules if name.startswith("hookman.cli")}


def test_completing_hook_names_imports_only_lean_modules(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "hookman.toml").write_text('[[hooks]]\nname = "a"\npath = "a.py"\n')
    modules = lean_command_modules(["__complete", "installable"], project, home=tmp_path / "h")
    assert "hookman.cli.complete_words" in modules
    assert not {name.split(".")[0] for name in modules} & FORBIDDEN_ON_LEAN_COMMANDS


def test_version_loads_no_cli_layer(tmp_path: Path) -> None:
    modules = lean_command_modules(["--version"], tmp_path)
    assert not {name.split(".")[0] for name in modules} & FORBIDDEN_ON_LEAN_COMMANDS
