"""The command line: typer wiring only. Each command's work lives in hookman/commands/<name>.py
as a function that returns an exit code; this module parses, calls, and turns errors into
one clear line (see error_handler)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from hookman import __version__
from hookman.cli.error_handler import run_command

app = typer.Typer(
    name="hookman",
    help="Install, manage and run Claude Code hooks written as Python factories.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
registry_app = typer.Typer(
    help="The user registry: named hooks any project can install.", no_args_is_help=True
)
app.add_typer(registry_app, name="registry")

ProjectOpt = Annotated[
    Path | None,
    typer.Option(
        "--project",
        help="Project directory (default: nearest ancestor with .claude/, "
        "else the git root, else the current directory).",
        show_default=False,
    ),
]
ClaudeVersionOpt = Annotated[
    str | None,
    typer.Option(
        "--claude-version",
        metavar="V",
        help="Target Claude Code version (default: `claude --version`, or "
        "claude_version in hookman.toml).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Show the diff; write nothing.")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hookman {__version__}")
        raise typer.Exit()


@app.callback()
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


@app.command()
def install(
    ctx: typer.Context,
    hooks: Annotated[
        list[str] | None,
        typer.Argument(
            help="Hooks to add: a path to a .py factory, or a name known to hookman.toml, the "
            "user registry or the bundled templates. None: rewrite settings from hookman.toml.",
            show_default=False,
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help="Name for a single path hook (default: the file's stem)."),
    ] = None,
    allow_unknown_event: Annotated[
        bool,
        typer.Option(
            "--allow-unknown-event", help="Keep event names no Claude Code version knows (inert)."
        ),
    ] = False,
    run_async: Annotated[
        bool | None,
        typer.Option(
            "--async/--no-async",
            help="Observe-only: run the hooks given in a separate entry Claude Code does not "
            "wait for (--no-async: wait again). Default: keep each hook's setting.",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Add hooks to the project and write .claude/settings.local.json."""
    from hookman.commands import install as command

    run_command(
        _debug(ctx),
        command.install,
        hooks or [],
        name=name,
        allow_unknown_event=allow_unknown_event,
        run_async=run_async,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )


@app.command()
def remove(
    ctx: typer.Context,
    hooks: Annotated[list[str], typer.Argument(help="Names of hooks to take out.")],
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Take hooks out of the project and rewrite settings."""
    from hookman.commands import remove as command

    run_command(
        _debug(ctx),
        command.remove,
        hooks,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )


@app.command("list")
def list_hooks(
    ctx: typer.Context,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """The project's hooks in dispatch order."""
    from hookman.commands import list_hooks as command

    run_command(
        _debug(ctx),
        command.list_hooks,
        project=project,
        claude_version=claude_version,
        json_output=json_output,
    )


@app.command()
def new(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            help="Name of the new hook (its file is .claude/hooks/NAME.py).", show_default=False
        ),
    ] = None,
    template: Annotated[
        str | None,
        typer.Option(
            "--template",
            "-t",
            metavar="TEMPLATE",
            help="The template to start from.",
            show_default=False,
        ),
    ] = None,
    list_only: Annotated[
        bool, typer.Option("--list", help="List the templates and what each does.")
    ] = False,
    install_now: Annotated[
        bool, typer.Option("--install", help="Also install it now (write the settings).")
    ] = False,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="With --list: print the templates as JSON.")
    ] = False,
) -> None:
    """Create a hook and its test from a template, and record it in hookman.toml.

    Example: hookman new block_rm --template bash_guard --install
    """
    from hookman.commands import new as command

    if list_only:
        run_command(_debug(ctx), command.list_templates, json_output=json_output)
    if json_output:
        from hookman.cli.output import print_error

        print_error("--json works with --list only.", "`hookman new --list --json`.")
        raise typer.Exit(2)
    run_command(
        _debug(ctx),
        command.new,
        name,
        template=template,
        install=install_now,
        project=project,
        claude_version=claude_version,
    )


@app.command()
def enable(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The hook to switch on.")],
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Switch a hook on in hookman.toml and rewrite settings.

    Example: hookman enable guard
    """
    from hookman.commands import enable as command

    run_command(
        _debug(ctx),
        command.set_enabled,
        name,
        True,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )


@app.command()
def disable(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The hook to switch off.")],
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Switch a hook off in hookman.toml (it stays listed) and rewrite settings.

    Example: hookman disable guard
    """
    from hookman.commands import enable as command

    run_command(
        _debug(ctx),
        command.set_enabled,
        name,
        False,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )


@registry_app.command("add")
def registry_add(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="Path to a .py hook factory.")],
    name: Annotated[
        str | None, typer.Option("--name", help="Registry name (default: the file's stem).")
    ] = None,
) -> None:
    """Add a hook to the user registry."""
    from hookman.commands import registry as command

    run_command(_debug(ctx), command.add, path, name=name)


@registry_app.command("remove")
def registry_remove(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Registry name to remove.")],
) -> None:
    """Remove a hook from the user registry."""
    from hookman.commands import registry as command

    run_command(_debug(ctx), command.remove, name)


@registry_app.command("list")
def registry_list(ctx: typer.Context, json_output: JsonOpt = False) -> None:
    """List the user registry."""
    from hookman.commands import registry as command

    run_command(_debug(ctx), command.list_entries, json_output=json_output)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(help="The Claude Code event name.")],
) -> None:
    """The runner Claude Code invokes: reads the event payload on stdin, answers on stdout."""
    from hookman.bridge.run_command import main as run_main

    raise typer.Exit(run_main([event, *ctx.args]))


@app.command()
def fire(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(help="Claude Code event name (e.g. PreToolUse).")],
    payload: Annotated[
        Path | None,
        typer.Option("--payload", help="Payload JSON file (default: a bundled sample)."),
    ] = None,
    project: ProjectOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Run the project's hooks for one event and show what Claude Code and the model get."""
    from hookman.commands import fire as command

    run_command(
        _debug(ctx), command.fire, event, payload=payload, project=project, json_output=json_output
    )


@app.command()
def log(
    ctx: typer.Context,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow", "-f", help="Stay open: a live view on a terminal, new lines when piped."
        ),
    ] = False,
    lines: Annotated[int, typer.Option("-n", "--lines", help="How many recent lines.")] = 20,
    session: Annotated[str | None, typer.Option("--session", help="Only this session.")] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="Only this agent id ('main' for the main agent).")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="Only this event.")] = None,
    all_projects: Annotated[
        bool, typer.Option("--all", help="Every project's lines, not only this project's.")
    ] = False,
    project: ProjectOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """The firing log as a room: per session and agent, counts by event and outcome, the
    last denies, then the latest lines (this project; --all for every project)."""
    from hookman.commands import log as command

    run_command(
        _debug(ctx),
        command.show_log,
        follow=follow,
        lines=lines,
        session=session,
        agent=agent,
        event=event,
        project=project,
        all_projects=all_projects,
        json_output=json_output,
    )


@app.command()
def statusline(
    ctx: typer.Context,
    width: Annotated[
        int | None, typer.Option("--width", help="Columns (default: terminal width).")
    ] = None,
    project: ProjectOpt = None,
) -> None:
    """Print the status line built from set_status texts (a Claude Code statusLine command)."""
    from hookman.commands import statusline as command

    run_command(_debug(ctx), command.statusline, width=width, project=project)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A command registered with register_command.")],
    project: ProjectOpt = None,
) -> None:
    """Run a command that a hook registered with register_command."""
    from hookman.commands import hook_commands

    run_command(
        _debug(ctx), hook_commands.run_hook_command, name, " ".join(ctx.args), project=project
    )


@app.command()
def commands(ctx: typer.Context, project: ProjectOpt = None, json_output: JsonOpt = False) -> None:
    """List the commands hooks registered with register_command."""
    from hookman.commands import hook_commands

    run_command(
        _debug(ctx), hook_commands.list_hook_commands, project=project, json_output=json_output
    )


@app.command()
def doctor(
    ctx: typer.Context,
    probe: Annotated[
        bool,
        typer.Option("--probe", help="Also run hookman's hooks on sample payloads (via fire)."),
    ] = False,
    probe_commands: Annotated[
        bool,
        typer.Option(
            "--probe-commands",
            help="Also run foreign command hooks on sample payloads, in a throwaway directory "
            "with a timeout, and classify what their exit code and output do.",
        ),
    ] = False,
    managed_settings: Annotated[
        Path | None,
        typer.Option(
            "--managed-settings",
            metavar="PATH",
            help="Managed settings file (or directory) to read instead of this platform's.",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Explain every silent hook: read every source Claude Code merges and report findings."""
    from hookman.commands import doctor as command

    run_command(
        _debug(ctx),
        command.doctor,
        project=project,
        claude_version=claude_version,
        managed_settings=managed_settings,
        probe=probe,
        probe_commands=probe_commands,
        json_output=json_output,
    )


def main() -> int:
    try:
        app()
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
