"""The command index, from the commands' declarations (hookman/commands/options.py).

The declarations sit on the command functions in hookman/commands/, whose modules import
what their commands need: importing all of them for `hookman --help` would cost more than
the command itself. So they are read here, once, with the defaults of the functions'
signatures, into hookman/cli/command_index.json, which the CLI reads (cli/command_index.py).
`python -m hookman.cli.completion_scripts` writes it with the completions.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

from hookman.cli.command_index import VALUE_TYPES, import_module
from hookman.commands.options import Argument, Command, Group, Option


def declared_index() -> dict[str, Any]:
    """The command index as the declarations say now (not the file written from them)."""
    from hookman.cli import app

    return build_index(app.COMMANDS, app.GROUPS)


def build_index(functions: Sequence[str], groups: Sequence[str]) -> dict[str, Any]:
    """The index of the commands `functions` ("hookman.commands.MODULE:FUNCTION", in help
    order) and the groups `groups` ("hookman.commands.MODULE", whose GROUP it is)."""
    return {
        "groups": [_group_entry(import_module(module).GROUP) for module in groups],
        "commands": [_command_entry(reference) for reference in functions],
    }


def index_text(index: dict[str, Any]) -> str:
    return json.dumps(index, indent=1, ensure_ascii=False) + "\n"


def _group_entry(group: Group) -> dict[str, Any]:
    return {"name": group.name, "help": group.help, "examples": list(group.examples)}


def _command_entry(reference: str) -> dict[str, Any]:
    module, _, name = reference.partition(":")
    function = getattr(import_module(module), name)
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
