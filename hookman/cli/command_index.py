"""The command index: every command's declaration (hookman/commands/options.py) as data, and
the typer commands made from it.

The declarations sit on the command functions in hookman/commands/, whose modules import
what their commands need: importing all of them for `hookman --help` would cost more than
the command itself. So `build_index` reads them once, with the defaults of the functions'
signatures, into hookman/cli/command_index.json (written with the completions by
`python -m hookman.cli.completion_scripts`; tests/cli fail while it is stale), and the CLI
reads only that file until it runs a command: then it imports the command's module and calls
its function with the values given on the command line (the function's defaults stand for
the rest).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from hookman.cli.error_handler import run_command
from hookman.commands.options import Argument, Command, Group, Option

INDEX_FILE = Path(__file__).with_name("command_index.json")
VALUE_TYPES: dict[str, type] = {"str": str, "int": int, "path": Path}

# --- the index, from the declarations ----------------------------------------------------


def build_index(functions: Sequence[str], groups: Sequence[str]) -> dict[str, Any]:
    """The index of the commands `functions` ("hookman.commands.MODULE:FUNCTION", in help
    order) and the groups `groups` ("hookman.commands.MODULE", whose GROUP it is)."""
    return {
        "groups": [_group_entry(_module(module).GROUP) for module in groups],
        "commands": [_command_entry(reference) for reference in functions],
    }


def index_text(index: dict[str, Any]) -> str:
    return json.dumps(index, indent=1, ensure_ascii=False) + "\n"


def read_index() -> dict[str, Any]:
    with INDEX_FILE.open(encoding="utf-8") as handle:
        index: dict[str, Any] = json.load(handle)
    return index


def _module(name: str) -> Any:
    """Import module `name` as an import statement does (so `-X importtime` lists it, which
    importlib.import_module does not)."""
    return __import__(name, fromlist=["__name__"])


def _group_entry(group: Group) -> dict[str, Any]:
    return {"name": group.name, "help": group.help, "examples": list(group.examples)}


def _command_entry(reference: str) -> dict[str, Any]:
    module, _, name = reference.partition(":")
    function = getattr(_module(module), name)
    declared: Command = function.cli
    signature = inspect.signature(function)
    params = [_param_entry(param, signature) for param in declared.params]
    if declared.rest is not None and declared.rest not in signature.parameters:
        raise ValueError(f"{reference}: no parameter {declared.rest!r} for the other words")
    missing = [
        p.name
        for p in signature.parameters.values()
        if p.default is inspect.Parameter.empty
        and p.name not in {param["dest"] for param in params}
        and p.name != declared.rest
    ]
    if missing:
        raise ValueError(f"{reference}: parameters {missing} are not declared")
    return {
        "path": list(declared.path),
        "function": reference,
        "help": inspect.cleandoc(declared.help),
        "examples": list(declared.examples),
        "rest": declared.rest,
        "rest_text": declared.rest_text,
        "params": params,
    }


def _param_entry(param: Option | Argument, signature: inspect.Signature) -> dict[str, Any]:
    if isinstance(param, Option) and param.passthrough:
        default = None  # read by the command itself, not a parameter of the function
    elif param.dest in signature.parameters:
        default = signature.parameters[param.dest].default
    else:
        raise ValueError(f"the function has no parameter {param.dest!r}")
    if param.type not in VALUE_TYPES:
        raise ValueError(f"{param.dest}: type {param.type!r} is not one of {list(VALUE_TYPES)}")
    required = default is inspect.Parameter.empty
    if isinstance(default, tuple):
        default = list(default)
    entry: dict[str, Any] = {
        "kind": "option" if isinstance(param, Option) else "argument",
        "dest": param.dest,
        "metavar": param.metavar,
        "help": param.help,
        "type": param.type,
        "show_default": param.show_default,
        "complete": param.complete,
        "required": required,
        "default": None if required else default,
    }
    if isinstance(param, Option):
        entry.update(
            flags=list(param.flags),
            flag=param.flag,
            value=param.value,
            secondary=param.secondary,
            multiple=param.multiple,
            passthrough=param.passthrough,
        )
    else:
        entry["variadic"] = param.variadic
    return entry


# --- typer commands, from the index ------------------------------------------------------


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
        function = getattr(_module(module), name)
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
