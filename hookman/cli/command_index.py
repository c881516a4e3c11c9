"""The commands of the CLI as typer commands, made from the command index.

hookman/cli/command_index.json holds every command's declaration as data (written from the
declarations by cli/declarations.py; tests/cli fail while it is stale). The CLI reads only
that file until it runs a command: then it imports the command's module and calls its
function with the values given on the command line (the function's defaults stand for the
rest). So `hookman --help` and a command's help import no command module.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from hookman.cli.error_handler import run_command

INDEX_FILE = Path(__file__).with_name("command_index.json")
VALUE_TYPES: dict[str, type] = {"str": str, "int": int, "path": Path}


def read_index() -> dict[str, Any]:
    with INDEX_FILE.open(encoding="utf-8") as handle:
        index: dict[str, Any] = json.load(handle)
    return index


def import_module(name: str) -> Any:
    """Import module `name` as an import statement does (so `-X importtime` lists it, which
    importlib.import_module does not)."""
    return __import__(name, fromlist=["__name__"])


def example(*lines: str) -> str:
    """A help epilog listing example command lines, kept verbatim by click (`\\b`)."""
    shown = "\n".join(f"  {line}" for line in lines)
    return f"\b\nExample{'s' if len(lines) > 1 else ''}:\n{shown}"


def register(target: typer.Typer, entry: dict[str, Any], debug: Callable[[Any], bool]) -> None:
    """Add the command `entry` to `target`: typer reads its parameters from the signature
    made here; running it imports the command's module and calls its function."""
    declared = [p for p in entry["params"] if not p.get("passthrough")]
    parameters = [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
        *(_typer_parameter(p) for p in declared),
    ]

    def callback(ctx: typer.Context, **values: Any) -> None:
        module, _, name = entry["function"].partition(":")
        function = getattr(import_module(module), name)
        run_command(debug(ctx), function, **_arguments(ctx, entry, declared, values))

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    rest = {"allow_extra_args": True, "ignore_unknown_options": True}
    target.command(
        entry["path"][-1],
        help=entry["help"],
        epilog=example(*entry["examples"]),
        context_settings=rest if entry["rest"] else None,
    )(callback)


def _arguments(
    ctx: typer.Context,
    entry: dict[str, Any],
    declared: list[dict[str, Any]],
    values: dict[str, Any],
) -> dict[str, Any]:
    """The keyword arguments of the call: what the command line gave (a flag: its value);
    the function's own defaults stand for the rest."""
    arguments: dict[str, Any] = {}
    for param in declared:
        dest = param["dest"]
        source = ctx.get_parameter_source(dest)
        if source is None or source.name == "DEFAULT":  # click's ParameterSource
            continue
        given = values[dest]
        if param["kind"] == "option" and param["flag"] and not param["secondary"]:
            given = param["value"] if given else not param["value"]
        arguments[dest] = given
    if entry["rest"]:
        arguments[entry["rest"]] = " ".join(ctx.args) if entry["rest_text"] else list(ctx.args)
    return arguments


def _typer_parameter(param: dict[str, Any]) -> inspect.Parameter:
    value_type: Any = VALUE_TYPES[param["type"]]
    default = param["default"]
    if param["kind"] == "argument":
        info: Any = typer.Argument(
            metavar=param["metavar"], help=param["help"], show_default=param["show_default"]
        )
        many = param["variadic"]
    else:
        flags = list(param["flags"])
        if param["secondary"]:
            flags = [f"{flags[0]}/{param['secondary']}", *flags[1:]]
        info = typer.Option(
            *flags,
            metavar=param["metavar"],
            help=param["help"],
            show_default=param["show_default"],
        )
        many = param["multiple"]
        if param["flag"]:
            value_type = bool
            default = None if param["secondary"] else False
    if many:
        value_type, default = list[value_type], None
    if default is None and not param["required"]:
        value_type = value_type | None
    return inspect.Parameter(
        param["dest"],
        inspect.Parameter.KEYWORD_ONLY,
        default=inspect.Parameter.empty if param["required"] else default,
        annotation=Annotated[value_type, info],
    )
