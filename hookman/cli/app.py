"""The command line: wiring only. Each command is declared on the function in
hookman/commands/ that does its work (hookman/commands/options.py: its options, arguments,
help and examples, each once); this module lists the commands in help order, adds the root
options, and hands typer the commands read from the generated index (cli/command_index.py).
Errors become one clear line (see error_handler).

Start-up cost is the budget here (BENCHMARKS.md, "Management commands"):
- help is click's plain help (`rich_markup_mode=None`): rich is imported only by commands
  that print rich output on a terminal;
- the commands come from hookman/cli/command_index.json, so parsing `hookman list` (or
  `hookman list --help`) imports no command module before the command runs, and only the
  command named on the command line is made into a typer command and converted to click
  (`app_for`);
- typer < 0.29 (pyproject.toml): typer 0.29 coerces every non-bool parameter through a
  pydantic TypeAdapter, which imports pydantic on each run.

Adding a command: declare it on its function with `@cli_command(...)` (shared options:
PROJECT, CLAUDE_VERSION, JSON, DRY_RUN), add the function to COMMANDS below and run
`python -m hookman.cli.completion_scripts` (the index and the shell completions).
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
import typer.main

from hookman import __version__
from hookman.cli.command_index import example, read_index, register
from hookman.cli.error_handler import BROKEN_PIPE_EXIT, silence_stdout

PROG_NAME = "hookman"
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
# Every command, in the order of `hookman --help`: "MODULE:FUNCTION" in hookman.commands.
# A command named `GROUP SUB` goes into its group (GROUPS: the modules declaring them).
COMMANDS = tuple(
    f"hookman.commands.{reference}"
    for reference in (
        "install:install",
        "remove:remove",
        "list_hooks:list_hooks",
        "new_repo:new_command",
        "autoupdate:autoupdate",
        "try_repo:try_repo",
        "enable:enable",
        "enable:disable",
        "uninstall:uninstall",
        "run:run",
        "fire:fire",
        "log:show_log",
        "statusline:statusline",
        "hook_commands:run_hook_command",
        "hook_commands:list_hook_commands",
        "doctor:doctor",
        "completions:print_completions",
        "registry:add",
        "registry:remove",
        "registry:list_entries",
        "plugin:build",
        "serve:run",
        "serve:start",
        "serve:stop",
        "serve:status",
        "serve:enable",
        "serve:disable",
    )
)
GROUPS = ("hookman.commands.registry", "hookman.commands.plugin", "hookman.commands.serve")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hookman {__version__}")
        raise typer.Exit()


def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show tracebacks of internal errors.")
    ] = False,
) -> None:
    ctx.obj = {"debug": debug}


def _debug(ctx: typer.Context) -> bool:
    return bool((ctx.find_root().obj or {}).get("debug"))


def _typer(help: str, examples: list[str], **settings: Any) -> typer.Typer:
    return typer.Typer(
        help=help,
        epilog=example(*examples),
        no_args_is_help=True,
        rich_markup_mode=None,
        context_settings=HELP_OPTIONS,
        **settings,
    )


def app_for(args: list[str]) -> typer.Typer:
    """The app with only the command `args` names made into a typer command (typer converts
    every registered command to click before parsing, about half a bare Python start for
    all of them); every command when no known command is named (root help, a typo that
    deserves "No such command")."""
    return build_app(read_index(), next((arg for arg in args if not arg.startswith("-")), None))


def __getattr__(name: str) -> typer.Typer:
    """`app`: every command (tests drive it with typer's CliRunner); built when asked for,
    so that a run builds only the command it names (`app_for`)."""
    if name == "app":
        return build_app(read_index())
    raise AttributeError(name)


def build_app(index: dict[str, Any], name: str | None = None) -> typer.Typer:
    """The app of the commands in `index` (only command `name`'s when it names one)."""
    known = {entry["path"][0] for entry in index["commands"]}
    app = _typer(
        "Install, manage and run Claude Code hooks written as Python factories.",
        ["hookman install hooks/guard.py", "hookman list", "hookman <command> --help"],
        name=PROG_NAME,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_root)
    groups = {}
    for group in index["groups"]:
        if name in (None, group["name"]) or name not in known:
            groups[group["name"]] = _typer(group["help"], group["examples"])
    for entry in index["commands"]:
        first = entry["path"][0]
        if name in known and first != name:
            continue
        target = groups[first] if len(entry["path"]) > 1 else app
        register(target, entry, _debug)
    for group_name, group_app in groups.items():
        app.add_typer(group_app, name=group_name)
    return app


def conventional_usage(command: Any) -> Any:
    """Usage lines as man pages write them (`fire [OPTIONS] EVENT`): typer < 0.29 writes a
    required argument as `{EVENT}`. Applied to the click command tree typer built."""
    for param in getattr(command, "params", []):
        make_metavar = getattr(param, "make_metavar", None)  # absent in typer 0.29
        if param.param_type_name == "argument" and make_metavar is not None:

            def plain(*args: Any, _make_metavar: Any = make_metavar, **kwargs: Any) -> str:
                return str(_make_metavar(*args, **kwargs)).replace("{", "").replace("}", "")

            param.make_metavar = plain
    for child in getattr(command, "commands", {}).values():
        conventional_usage(child)
    return command


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        command = conventional_usage(typer.main.get_command(app_for(args)))
        command(args=args, prog_name=PROG_NAME)
    except SystemExit as exit_:
        code = exit_.code
        result = code if isinstance(code, int) else (0 if code is None else 1)
    else:
        result = 0
    return _flush_stdout() or result


def _flush_stdout() -> int:
    """Flush now, so output into a pipe the reader closed ends quietly (exit 141)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return BROKEN_PIPE_EXIT
    return 0
