"""The command line: typer wiring only. Each command's work lives in hookman/commands/<name>.py
as a function that returns an exit code; this module parses, calls, and turns errors into
one clear line (see error_handler).

Start-up cost is the budget here (BENCHMARKS.md, "Management commands"):
- help is click's plain help (`rich_markup_mode=None`): rich is imported only by commands
  that print rich output on a terminal;
- a command block imports its hookman.commands module inside the function, so parsing
  `hookman list` never imports install's machinery, and only the command named on the
  command line is converted to click (`app_for`);
- typer < 0.29 (pyproject.toml): typer 0.29 coerces every non-bool parameter through a
  pydantic TypeAdapter, which imports pydantic on each run.

Adding a command is one block: a function decorated with `@app.command()` (or
`@registry_app.command()`), its parameters annotated with the shared option types below and
a conventional metavar (NAME, HOOK, EVENT, FILE, DIR, N), a one-line docstring, an
`epilog=example(...)` and a body that imports its module and calls `run_command`.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.main

from hookman import __version__
from hookman.cli.error_handler import BROKEN_PIPE_EXIT, run_command, silence_stdout

PROG_NAME = "hookman"
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}


def example(*lines: str) -> str:
    """A help epilog listing example command lines, kept verbatim by click (`\\b`)."""
    shown = "\n".join(f"  {line}" for line in lines)
    return f"\b\nExample{'s' if len(lines) > 1 else ''}:\n{shown}"


app = typer.Typer(
    name=PROG_NAME,
    help="Install, manage and run Claude Code hooks written as Python factories.",
    epilog=example("hookman install hooks/guard.py", "hookman list", "hookman <command> --help"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
)
registry_app = typer.Typer(
    help="The user registry: named hooks any project can install.",
    epilog=example("hookman registry add ~/hooks/guard.py", "hookman registry list"),
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
)
app.add_typer(registry_app, name="registry")
plugin_app = typer.Typer(
    help="This project's hooks as a Claude Code plugin.",
    epilog=example("hookman plugin build ../team-hooks/guards --marketplace ../team-hooks"),
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
)
app.add_typer(plugin_app, name="plugin")

ProjectOpt = Annotated[
    Path | None,
    typer.Option(
        "--project",
        metavar="DIR",
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


@app.command(
    epilog=example(
        "hookman install hooks/guard.py",
        "hookman install guard --async",
        "hookman install          # rewrite settings from hookman.toml",
    )
)
def install(
    ctx: typer.Context,
    hooks: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[HOOK]...",
            help="Hooks to add: a path to a .py factory, or a name known to hookman.toml, the "
            "user registry or the bundled templates. None: rewrite settings from hookman.toml.",
            show_default=False,
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Name for a single path hook (default: the file's stem).",
            show_default=False,
        ),
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
    repo: Annotated[
        str | None,
        typer.Option(
            "--repo",
            metavar="REPO",
            help="Install the named hooks from this hook repository (a git URL or a path).",
            show_default=False,
        ),
    ] = None,
    rev: Annotated[
        str | None,
        typer.Option(
            "--rev",
            metavar="REV",
            help="With --repo: the tag or full commit SHA to pin.",
            show_default=False,
        ),
    ] = None,
    agent: Annotated[
        list[str] | None,
        typer.Option(
            "--agent",
            metavar="AGENT",
            help="Also write this agent's hooks from now on (codex), recorded as `agents` in "
            "hookman.toml.",
            show_default=False,
        ),
    ] = None,
    codex_version: Annotated[
        str | None,
        typer.Option(
            "--codex-version",
            metavar="V",
            help="Target Codex CLI version (default: `codex --version`).",
            show_default=False,
        ),
    ] = None,
    no_codex_trust: Annotated[
        bool,
        typer.Option(
            "--no-codex-trust",
            help="Do not record Codex's trust in hookman's own hooks; only say what to do.",
        ),
    ] = False,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Add hooks to the project and write its Claude Code settings.

    Writes .claude/hookman.toml and .claude/settings.local.json (and, when the project's
    agents include Codex CLI, .codex/hooks.json).
    """
    from hookman.commands import install as command

    run_command(
        _debug(ctx),
        command.install,
        hooks or [],
        repo=repo,
        rev=rev,
        name=name,
        allow_unknown_event=allow_unknown_event,
        run_async=run_async,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
        agents=agent or [],
        codex_version=codex_version,
        codex_trust=not no_codex_trust,
    )


@app.command(epilog=example("hookman remove guard", "hookman remove guard notes --dry-run"))
def remove(
    ctx: typer.Context,
    hooks: Annotated[
        list[str], typer.Argument(metavar="HOOK...", help="Names of hooks to take out.")
    ],
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


@app.command("list", epilog=example("hookman list", "hookman list --json"))
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


@app.command(
    epilog=example(
        "hookman new block_rm --template bash_guard --install", "hookman new --list --json"
    )
)
def new(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="NAME",
            help="Name of the new hook (its file is .claude/hooks/NAME.py).",
            show_default=False,
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
    repo_dir: Annotated[
        Path | None,
        typer.Option(
            "--repo",
            metavar="DIR",
            help="Scaffold a hook repository in DIR (hookman-hooks.toml, the hook, its test).",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="With --list: print the templates as JSON.")
    ] = False,
) -> None:
    """Create a hook and its test from a template, and record it in hookman.toml."""
    from hookman.commands import new as command

    if list_only:
        run_command(_debug(ctx), command.list_templates, json_output=json_output)
    if json_output:
        from hookman.output import print_error

        print_error("--json works with --list only.", "`hookman new --list --json`.")
        raise typer.Exit(2)
    if repo_dir is not None:
        from hookman.commands import new_repo

        run_command(_debug(ctx), new_repo.new_repo, name, repo_dir, template=template)
    run_command(
        _debug(ctx),
        command.new,
        name,
        template=template,
        install=install_now,
        project=project,
        claude_version=claude_version,
    )


def _switch(
    ctx: typer.Context,
    name: str,
    enabled: bool,
    project: Path | None,
    claude_version: str | None,
    dry_run: bool,
    json_output: bool,
) -> None:
    from hookman.commands import enable as command

    run_command(
        _debug(ctx),
        command.set_enabled,
        name,
        enabled,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )


@app.command(
    epilog=example(
        "hookman autoupdate",
        "hookman autoupdate --freeze --repo https://example.org/acme/agent-hooks.git",
    )
)
def autoupdate(
    ctx: typer.Context,
    freeze: Annotated[
        bool,
        typer.Option("--freeze", help="Write the full commit SHA with a `# frozen: TAG` comment."),
    ] = False,
    repo: Annotated[
        str | None,
        typer.Option(
            "--repo",
            metavar="REPO",
            help="Update only this repository (as hookman.toml names it).",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Move each hook repository's rev to its newest release tag."""
    from hookman.commands import autoupdate as command

    run_command(
        _debug(ctx),
        command.autoupdate,
        freeze=freeze,
        repo=repo,
        project=project,
        claude_version=claude_version,
        json_output=json_output,
    )


@app.command(
    "try-repo",
    epilog=example("hookman try-repo ../agent-hooks", "hookman try-repo URL no-rm-rf --rev v1.2.0"),
)
def try_repo(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(metavar="REPO", help="A hook repository (URL or path).")],
    hooks: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[HOOK]...", help="Hooks to try (default: all it offers).", show_default=False
        ),
    ] = None,
    rev: Annotated[
        str | None,
        typer.Option(
            "--rev",
            metavar="REV",
            help="A tag, branch or full SHA (default: the repository's HEAD).",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Try a repository's hooks in this project without adding them to hookman.toml."""
    from hookman.commands import try_repo as command

    run_command(
        _debug(ctx),
        command.try_repo,
        repo,
        hooks or [],
        rev=rev,
        project=project,
        claude_version=claude_version,
        json_output=json_output,
    )


@app.command(epilog=example("hookman enable guard"))
def enable(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The hook to switch on.")],
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Switch a hook on in hookman.toml and rewrite settings."""
    _switch(ctx, name, True, project, claude_version, dry_run, json_output)


@app.command(epilog=example("hookman disable guard"))
def disable(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The hook to switch off.")],
    project: ProjectOpt = None,
    claude_version: ClaudeVersionOpt = None,
    dry_run: DryRunOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Switch a hook off in hookman.toml (it stays listed) and rewrite settings."""
    _switch(ctx, name, False, project, claude_version, dry_run, json_output)


@registry_app.command("add", epilog=example("hookman registry add ~/hooks/guard.py --name guard"))
def registry_add(
    ctx: typer.Context,
    path: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Path to a .py hook factory; with --rev and --hook, a hook repository.",
        ),
    ],
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Registry name (default: the file's stem, or the --hook name).",
            show_default=False,
        ),
    ] = None,
    rev: Annotated[
        str | None,
        typer.Option(
            "--rev", metavar="REV", help="The repository's tag or full SHA.", show_default=False
        ),
    ] = None,
    hook: Annotated[
        str | None,
        typer.Option(
            "--hook", metavar="NAME", help="The hook the repository offers.", show_default=False
        ),
    ] = None,
) -> None:
    """Add a hook to the user registry."""
    from hookman.commands import registry as command

    target = path if rev is not None or hook is not None else Path(path)
    run_command(_debug(ctx), command.add, target, name=name, rev=rev, hook=hook)


@registry_app.command("remove", epilog=example("hookman registry remove guard"))
def registry_remove(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Registry name to remove.")],
) -> None:
    """Remove a hook from the user registry."""
    from hookman.commands import registry as command

    run_command(_debug(ctx), command.remove, name)


@registry_app.command("list", epilog=example("hookman registry list --json"))
def registry_list(ctx: typer.Context, json_output: JsonOpt = False) -> None:
    """List the user registry."""
    from hookman.commands import registry as command

    run_command(_debug(ctx), command.list_entries, json_output=json_output)


@plugin_app.command(
    "build",
    epilog=example(
        "hookman plugin build ../team-hooks/guards --marketplace ../team-hooks",
        "hookman plugin build dist/guard-plugin --name team-guard --hooks guard",
    ),
)
def plugin_build(
    ctx: typer.Context,
    out_dir: Annotated[
        Path, typer.Argument(metavar="OUT_DIR", help="Directory to build the plugin in.")
    ],
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Plugin name, kebab-case (default: PROJECT-hooks).",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        str | None,
        typer.Option(
            "--version",
            metavar="V",
            help="Plugin version (default: 0.1.0; a rebuild that changes it bumps the patch).",
            show_default=False,
        ),
    ] = None,
    hooks: Annotated[
        list[str] | None,
        typer.Option(
            "--hooks",
            metavar="NAME",
            help="A hook to put in the plugin (repeat it; default: every enabled hook).",
            show_default=False,
        ),
    ] = None,
    marketplace: Annotated[
        Path | None,
        typer.Option(
            "--marketplace",
            metavar="DIR",
            help="Also write or update a local marketplace in DIR listing the plugin.",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    claude_version: Annotated[
        str | None,
        typer.Option(
            "--claude-version",
            metavar="V",
            help="Newest Claude Code version the plugin serves (default: claude_version in "
            "hookman.toml, else the newest hookman knows); older clients run it too.",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
) -> None:
    """Build a self-contained Claude Code plugin from the project's hooks."""
    from hookman.commands import plugin as command

    run_command(
        _debug(ctx),
        command.build,
        out_dir,
        name=name,
        version=version,
        hooks=hooks or [],
        marketplace=marketplace,
        project=project,
        claude_version=claude_version,
        json_output=json_output,
    )


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    epilog=example("hookman run PreToolUse --manifest FILE < payload.json"),
)
def run(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The Claude Code event name.")],
) -> None:
    """The runner Claude Code invokes (`hookman install` writes it into the settings).

    Reads the event payload on stdin and prints one answer on stdout.
    """
    from hookman.bridge.run_command import main as run_main

    raise typer.Exit(run_main([event, *ctx.args]))


@app.command(
    epilog=example("hookman fire PreToolUse", "hookman fire PreToolUse --payload rm-rf.json")
)
def fire(
    ctx: typer.Context,
    event: Annotated[
        str, typer.Argument(metavar="EVENT", help="Claude Code event name (e.g. PreToolUse).")
    ],
    payload: Annotated[
        Path | None,
        typer.Option(
            "--payload",
            metavar="FILE",
            help="Payload JSON file (default: a bundled sample).",
            show_default=False,
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            metavar="AGENT",
            help="Show what this agent and its model get (codex; default Claude Code).",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Run the hooks on a sample event; show what Claude Code and the model get."""
    from hookman.commands import fire as command

    run_command(
        _debug(ctx),
        command.fire,
        event,
        payload=payload,
        project=project,
        json_output=json_output,
        agent=agent,
    )


@app.command(epilog=example("hookman log -n 50", "hookman log --follow --event PreToolUse"))
def log(
    ctx: typer.Context,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow", "-f", help="Stay open: a live view on a terminal, new lines when piped."
        ),
    ] = False,
    lines: Annotated[
        int, typer.Option("-n", "--lines", metavar="N", help="How many recent lines.")
    ] = 20,
    session: Annotated[
        str | None,
        typer.Option(
            "--session", metavar="ID", help="Only this session (a prefix).", show_default=False
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            metavar="ID",
            help="Only this agent id ('main' for the main agent).",
            show_default=False,
        ),
    ] = None,
    event: Annotated[
        str | None,
        typer.Option("--event", metavar="EVENT", help="Only this event.", show_default=False),
    ] = None,
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


@app.command(epilog=example("hookman statusline --width 60 < status.json"))
def statusline(
    ctx: typer.Context,
    width: Annotated[
        int | None,
        typer.Option(
            "--width",
            metavar="N",
            help="Columns (default: terminal width).",
            show_default=False,
        ),
    ] = None,
    project: ProjectOpt = None,
) -> None:
    """Print the status line built from the hooks' set_status texts.

    Use it as Claude Code's statusLine command: Claude Code pipes its status JSON on stdin.
    """
    from hookman.commands import statusline as command

    run_command(_debug(ctx), command.statusline, width=width, project=project)


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    epilog=example("hookman command deploy staging"),
)
def command(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="A command registered with register_command.")
    ],
    project: ProjectOpt = None,
) -> None:
    """Run a command that a hook registered with register_command.

    Words after NAME are passed to the command as its argument text.
    """
    from hookman.commands import hook_commands

    run_command(
        _debug(ctx), hook_commands.run_hook_command, name, " ".join(ctx.args), project=project
    )


@app.command(epilog=example("hookman commands", "hookman commands --json"))
def commands(ctx: typer.Context, project: ProjectOpt = None, json_output: JsonOpt = False) -> None:
    """List the commands hooks registered with register_command."""
    from hookman.commands import hook_commands

    run_command(
        _debug(ctx), hook_commands.list_hook_commands, project=project, json_output=json_output
    )


@app.command(
    epilog=example(
        "hookman doctor", "hookman doctor --probe --json", "hookman doctor --probe-commands"
    )
)
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


@app.command(
    epilog=example(
        "hookman completions bash > ~/.local/share/bash-completion/completions/hookman",
        "hookman completions zsh > ~/.zfunc/_hookman",
        "hookman completions fish > ~/.config/fish/completions/hookman.fish",
    )
)
def completions(
    ctx: typer.Context,
    shell: Annotated[
        str, typer.Argument(metavar="SHELL", help="bash, zsh or fish.", show_default=False)
    ],
) -> None:
    """Print the shell completion script for bash, zsh or fish."""
    from hookman.commands import completions as command

    run_command(_debug(ctx), command.print_completions, shell)


def app_for(args: list[str]) -> typer.Typer:
    """The app with only the command `args` names (typer converts every registered command
    to click before parsing, about half a bare Python start for all of them); the whole app
    when no known command is named (root help, a typo that deserves "No such command")."""
    name = next((arg for arg in args if not arg.startswith("-")), None)
    commands = [info for info in app.registered_commands if _command_name(info) == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if not commands and not groups:
        return app
    view = copy.copy(app)
    view.registered_commands = commands
    view.registered_groups = groups
    return view


def _command_name(info: typer.models.CommandInfo) -> str | None:
    if info.name:
        return info.name
    callback = info.callback
    return None if callback is None else callback.__name__.lower().replace("_", "-")


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
