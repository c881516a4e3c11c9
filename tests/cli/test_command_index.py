"""Each option is declared once, beside its command (hookman/commands/options.py), and the
CLI, its help and the completions are made from that declaration."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest
import typer.main

from hookman.cli import app as cli_app
from hookman.cli import command_index, complete_words, declarations
from hookman.commands import options
from hookman.commands.options import Argument, Option

PACKAGE = Path(options.__file__).resolve().parents[1]
# The root's own options, declared once in cli/app.py (typer's eager --version callback).
ROOT_FLAGS = {"--version", "--debug"}


def _declared_functions() -> list[Any]:
    functions = []
    for reference in cli_app.COMMANDS:
        module, _, name = reference.partition(":")
        functions.append(getattr(importlib.import_module(module), name))
    return functions


def test_the_index_the_cli_reads_is_the_declarations() -> None:
    written = command_index.INDEX_FILE.read_text(encoding="utf-8")
    assert written == declarations.index_text(declarations.declared_index()), (
        "hookman/cli/command_index.json is stale: run `python -m hookman.cli.completion_scripts`"
    )


def _flag_literals(node: ast.Call) -> list[str]:
    return [
        arg.value
        for arg in node.args
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value[:1] == "-"
    ]


def _parameter_declarations() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every call declaring a command-line parameter in hookman/ (hookman's Option and
    Argument, typer's and click's): (file, callee, flags)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            callee = ast.unparse(node.func)
            if callee.split(".")[-1] in ("Option", "Argument", "option", "argument"):
                where = str(path.relative_to(PACKAGE))
                found.append((where, callee, tuple(_flag_literals(node))))
    return found


def test_no_parameter_is_declared_outside_its_command() -> None:
    """Typer (or click) parameters exist only for the root's own options; every command's
    are hookman Option/Argument declarations in hookman/commands/ (the command index turns
    them into typer's, from data)."""
    declarations = _parameter_declarations()
    typer_made = [d for d in declarations if d[1].startswith(("typer.", "click."))]
    assert {flag for _, _, flags in typer_made for flag in flags} == ROOT_FLAGS
    assert {where for where, _, flags in typer_made if flags} == {"cli/app.py"}
    assert {where for where, _, flags in typer_made if not flags} == {"cli/command_index.py"}
    own = [d for d in declarations if d[1] in ("Option", "Argument")]
    assert len(own) > 40
    assert all(where.startswith("commands/") for where, _, _ in own)


def test_each_option_string_is_declared_once_per_meaning() -> None:
    """An option several commands share is one declaration (options.py), not copies: the
    same flags with the same help are never declared twice. (A flag two commands use with
    different meanings, like install's and fire's --agent, is two declarations.)"""
    seen: dict[tuple[tuple[str, ...], str], Option] = {}
    for function in _declared_functions():
        for param in function.cli.params:
            if not isinstance(param, Option):
                continue
            key = (param.flags, param.help)
            assert seen.setdefault(key, param) is param, f"{param.flags} is declared twice"
    assert seen[(("--project",), options.PROJECT.help)] is options.PROJECT
    calls = _parameter_declarations()
    per_flags: dict[tuple[str, ...], int] = {}
    for _, callee, flags in calls:
        if callee == "Option":
            per_flags[flags] = per_flags.get(flags, 0) + 1
    shared = {flags for flags, count in per_flags.items() if count > 1}
    meanings = {flags: {p.help for p in seen.values() if p.flags == flags} for flags in shared}
    assert all(len(helps) == per_flags[flags] for flags, helps in meanings.items()), meanings


def test_every_declared_parameter_is_a_parameter_of_its_function() -> None:
    functions = _declared_functions()
    assert len(functions) >= 10  # every command's function: the loop below runs
    for function in functions:
        signature = inspect.signature(function)
        declared = function.cli
        for param in declared.params:
            if isinstance(param, Option) and param.passthrough:
                continue
            assert param.dest in signature.parameters, (function.__name__, param.dest)
        if declared.rest:
            assert declared.rest in signature.parameters


def test_every_cli_parameter_comes_from_a_declaration() -> None:
    """The click tree the CLI runs: each command's parameters are its declaration's, in
    order, with the function's defaults."""
    root = typer.main.get_command(cli_app.build_app(command_index.read_index()))
    by_path = {tuple(f.cli.path): f for f in _declared_functions()}
    checked = 0
    for path, function in by_path.items():
        node: Any = root
        for word in path:
            node = node.commands[word]
        params = [p for p in node.params if p.name != "help"]
        declared = [p for p in function.cli.params if not (isinstance(p, Option) and p.passthrough)]
        assert [p.name for p in params] == [p.dest for p in declared], path
        signature = inspect.signature(function)
        for click_param, param in zip(params, declared, strict=True):
            default = signature.parameters[param.dest].default
            takes_one = isinstance(param, Argument) or not (param.flag or param.multiple)
            if takes_one and default is not inspect.Parameter.empty and default != ():
                assert click_param.default == default, (path, param.dest)
            if isinstance(param, Option):
                assert set(click_param.opts) | set(click_param.secondary_opts) == {
                    *param.flags,
                    *([param.secondary] if param.secondary else []),
                }
            checked += 1
    assert checked > 60


def test_every_completion_kind_declared_is_one_the_scripts_or_the_helper_know() -> None:
    kinds = {
        param.complete
        for function in _declared_functions()
        for param in function.cli.params
        if param.complete
    }
    helper = set()
    for kind in kinds - set(options.SCRIPT_KINDS):
        assert complete_words.main([kind]) == 0, kind  # 2: a KIND the helper does not know
        helper.add(kind)
    assert {"hooks", "installable", "registry", "templates"} <= helper


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["install"], {}),
        (["install", "a", "b", "--agent", "codex"], {"hooks": ["a", "b"], "agents": ["codex"]}),
        (["install", "--no-codex-trust", "--no-async"], {"codex_trust": False, "run_async": False}),
        (["log", "-n", "5", "--all"], {"lines": 5, "all_projects": True}),
        (["command", "deploy", "staging", "now"], {"name": "deploy", "args": "staging now"}),
        (["run", "Stop", "--manifest", "m"], {"event": "Stop", "args": ["--manifest", "m"]}),
    ],
)
def test_a_command_gets_what_the_command_line_gave_and_its_own_defaults(
    args: list[str], expected: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict[str, Any]] = []

    def record(debug: bool, function: Any, **kwargs: Any) -> None:
        calls.append(kwargs)

    monkeypatch.setattr(command_index, "run_command", record)
    command = typer.main.get_command(cli_app.app_for(args))
    command(args=args, prog_name="hookman", standalone_mode=False)
    assert calls == [expected]
