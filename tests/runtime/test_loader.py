"""Loading hook modules from real files (docs/dispatch.md, "Loading hooks")."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from hookman.runtime import LoadError, discover_and_load_hooks, load_hooks


def write_hook(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body))
    return path


GUARD = """
    calls = []

    def hook(pi):
        calls.append("factory")

        @pi.on("tool_call", tools=["Bash"])
        def guard(event, ctx):
            return {"block": True}

        pi.register_command("hello", description="greets", handler=lambda args, ctx: None)
"""


def test_a_hook_module_loads_with_its_handlers_commands_and_paths(tmp_path: Path) -> None:
    write_hook(tmp_path, "hooks/guard.py", GUARD)

    result = load_hooks(["hooks/guard.py"], str(tmp_path))

    assert result.errors == []
    [loaded] = result.hooks
    assert loaded.path == "hooks/guard.py"
    assert loaded.resolved_path == str(tmp_path / "hooks/guard.py")
    assert list(loaded.handlers) == ["tool_call"]
    assert loaded.tool_filters == {"tool_call": ["Bash"]}
    assert list(loaded.commands) == ["hello"]
    assert loaded.commands["hello"].description == "greets"


def test_errors_are_collected_in_order_and_loading_continues(tmp_path: Path) -> None:
    write_hook(tmp_path, "ok.py", "def hook(pi):\n    pi.on('turn_start', lambda e, c: None)\n")
    write_hook(tmp_path, "syntax.py", "def hook(pi)\n    pass\n")
    write_hook(tmp_path, "raises_on_import.py", "raise RuntimeError('import went wrong')\n")
    write_hook(tmp_path, "no_factory.py", "x = 1\n")
    write_hook(tmp_path, "not_callable.py", "hook = {'on': 1}\n")
    write_hook(tmp_path, "factory_raises.py", "def hook(pi):\n    raise ValueError('bad setup')\n")
    write_hook(tmp_path, "missing_import.py", "import hookman_no_such_module\n")
    paths = [
        "syntax.py",
        "ok.py",
        "missing.py",
        "raises_on_import.py",
        "no_factory.py",
        "not_callable.py",
        "factory_raises.py",
        "missing_import.py",
    ]

    hooks, errors = load_hooks(paths, str(tmp_path))

    assert [hook.path for hook in hooks] == ["ok.py"]
    assert [error.path for error in errors] == [p for p in paths if p != "ok.py"]
    messages = {error.path: error.error for error in errors}
    assert messages["syntax.py"].startswith("Failed to load hook: ")
    assert "syntax" in messages["syntax.py"]
    assert messages["missing.py"].startswith("Failed to load hook: ")
    assert "No such file" in messages["missing.py"]
    assert messages["raises_on_import.py"] == "Failed to load hook: import went wrong"
    assert messages["no_factory.py"] == "Hook must define a callable 'hook'"
    assert messages["not_callable.py"] == "Hook must define a callable 'hook'"
    assert messages["factory_raises.py"] == "Failed to load hook: bad setup"
    assert messages["missing_import.py"] == (
        "Failed to load hook: No module named 'hookman_no_such_module'"
    )


def test_a_factory_that_fails_after_registering_is_discarded_with_its_handlers(
    tmp_path: Path,
) -> None:
    write_hook(
        tmp_path,
        "half.py",
        """
        def hook(pi):
            pi.on("tool_call", lambda e, c: None)
            raise RuntimeError("second step failed")
        """,
    )
    hooks, errors = load_hooks(["half.py"], str(tmp_path))
    assert hooks == []
    assert errors == [LoadError("half.py", "Failed to load hook: second step failed")]


@pytest.mark.parametrize("call", ["send_message('hi')", "append_entry('note', {'a': 1})"])
def test_send_message_or_append_entry_in_the_factory_fails_the_load(
    tmp_path: Path, call: str
) -> None:
    write_hook(tmp_path, "eager.py", f"def hook(pi):\n    pi.{call}\n")
    _, errors = load_hooks(["eager.py"], str(tmp_path))
    method = call.split("(")[0]
    assert errors == [
        LoadError(
            "eager.py", f"Failed to load hook: {method} is not available while the hook is loading"
        )
    ]


def test_async_factories_are_awaited(tmp_path: Path) -> None:
    write_hook(
        tmp_path,
        "async_ok.py",
        """
        import asyncio

        async def hook(pi):
            await asyncio.sleep(0)
            pi.on("agent_start", lambda e, c: None)
        """,
    )
    write_hook(
        tmp_path,
        "async_fails.py",
        """
        import asyncio

        async def hook(pi):
            pi.on("agent_start", lambda e, c: None)
            await asyncio.sleep(0)
            raise RuntimeError("async setup failed")
        """,
    )
    hooks, errors = load_hooks(["async_ok.py", "async_fails.py"], str(tmp_path))
    assert [list(hook.handlers) for hook in hooks] == [["agent_start"]]
    assert errors == [LoadError("async_fails.py", "Failed to load hook: async setup failed")]


@pytest.mark.parametrize("where", ["import", "factory"])
def test_sys_exit_in_a_hook_is_a_load_error_and_later_hooks_still_load(
    tmp_path: Path, where: str
) -> None:
    body = (
        "import sys\nsys.exit(3)\n"
        if where == "import"
        else "import sys\ndef hook(pi):\n    sys.exit(3)\n"
    )
    write_hook(tmp_path, "exits.py", body)
    write_hook(tmp_path, "after.py", "def hook(pi):\n    pi.on('turn_start', lambda e, c: None)\n")

    hooks, errors = load_hooks(["exits.py", "after.py"], str(tmp_path))

    assert [hook.path for hook in hooks] == ["after.py"]
    assert errors == [LoadError("exits.py", "Failed to load hook: hook called sys.exit(3)")]


def test_the_same_path_twice_runs_the_factory_twice_but_imports_once(tmp_path: Path) -> None:
    write_hook(
        tmp_path,
        "counted.py",
        """
        imports = []
        imports.append("imported")
        factory_runs = []

        def hook(pi):
            factory_runs.append(len(factory_runs))
            pi.on("turn_start", lambda e, c: None)
        """,
    )
    path = str(tmp_path / "counted.py")
    hooks, errors = load_hooks([path, "counted.py"], str(tmp_path))
    assert errors == []
    assert len(hooks) == 2
    assert hooks[0].handlers["turn_start"] != hooks[1].handlers["turn_start"]
    module = sys.modules[hooks[0].handlers["turn_start"][0].__module__]
    assert module.imports == ["imported"]
    assert module.factory_runs == [0, 1]


def test_hooks_with_the_same_file_stem_do_not_collide(tmp_path: Path) -> None:
    write_hook(
        tmp_path,
        "one/guard.py",
        "NAME = 'one'\ndef hook(pi):\n    pi.on(NAME, lambda e, c: None)\n",
    )
    write_hook(
        tmp_path,
        "two/guard.py",
        "NAME = 'two'\ndef hook(pi):\n    pi.on(NAME, lambda e, c: None)\n",
    )
    hooks, errors = load_hooks(["one/guard.py", "two/guard.py"], str(tmp_path))
    assert errors == []
    assert [list(hook.handlers) for hook in hooks] == [["one"], ["two"]]


def test_hook_modules_are_real_modules_usable_by_dataclasses(tmp_path: Path) -> None:
    write_hook(
        tmp_path,
        "typed.py",
        """
        from dataclasses import dataclass

        @dataclass
        class Rule:
            pattern: str

        def hook(pi):
            pi.on("tool_call", lambda e, c: None)
        """,
    )
    _, errors = load_hooks(["typed.py"], str(tmp_path))
    assert errors == []


def test_paths_resolve_against_the_cwd_argument_not_the_process_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    write_hook(project, "h.py", "def hook(pi):\n    pi.on('x', lambda e, c: None)\n")
    monkeypatch.chdir(tmp_path)
    hooks, errors = load_hooks(["h.py"], str(project))
    assert errors == []
    assert hooks[0].resolved_path == str(project / "h.py")


def test_an_unresolvable_path_is_a_load_error_not_an_exception(tmp_path: Path) -> None:
    hooks, errors = load_hooks([42], str(tmp_path))  # type: ignore[list-item]
    assert hooks == []
    assert [error.path for error in errors] == ["42"]
    assert errors[0].error.startswith("Failed to load hook: ")


def test_exec_in_a_handler_defaults_to_the_loader_cwd(tmp_path: Path) -> None:
    write_hook(
        tmp_path,
        "runs.py",
        """
        results = []

        def hook(pi):
            def on_start(event, ctx):
                results.append(pi.exec("pwd", []).stdout.strip())
            pi.on("agent_start", on_start)
        """,
    )
    from hookman.runtime import HookRunner

    hooks, _ = load_hooks(["runs.py"], str(tmp_path))
    HookRunner(hooks, str(tmp_path)).emit({"type": "agent_start"})
    module = sys.modules[hooks[0].handlers["agent_start"][0].__module__]
    assert module.results == [str(tmp_path)]


# -- discover_and_load_hooks ---------------------------------------------------------------


def test_discover_dedupes_by_resolved_path_against_cwd_first_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    write_hook(project, "a.py", "def hook(pi):\n    pi.on('x', lambda e, c: None)\n")
    write_hook(project, "b.py", "def hook(pi):\n    pi.on('x', lambda e, c: None)\n")
    monkeypatch.chdir(tmp_path)  # a process-cwd based de-dup would see different files

    hooks, errors = discover_and_load_hooks(
        ["a.py", "./b.py", str(project / "a.py"), "sub/../a.py", "b.py"], str(project)
    )

    assert errors == []
    assert [hook.path for hook in hooks] == [str(project / "a.py"), str(project / "b.py")]


def test_discover_reports_errors_with_absolute_paths_in_input_order(tmp_path: Path) -> None:
    write_hook(tmp_path, "ok.py", "def hook(pi):\n    pi.on('x', lambda e, c: None)\n")
    hooks, errors = discover_and_load_hooks(["missing.py", 42, "ok.py"], str(tmp_path))  # type: ignore[list-item]
    assert [hook.path for hook in hooks] == [str(tmp_path / "ok.py")]
    assert [error.path for error in errors] == [str(tmp_path / "missing.py"), "42"]


def test_a_hook_file_without_py_suffix_still_loads(tmp_path: Path) -> None:
    write_hook(tmp_path, "guard.hook", "def hook(pi):\n    pi.on('x', lambda e, c: None)\n")
    hooks, errors = load_hooks([os.path.join(str(tmp_path), "guard.hook")], "/")
    assert errors == []
    assert len(hooks) == 1
