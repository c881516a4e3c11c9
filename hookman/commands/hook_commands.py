"""`hookman commands` and `hookman command NAME [ARGS]`: the commands hooks registered with
`pi.register_command`, loaded from the project's installed hooks in-process.

Lookup is first-wins in dispatch order (docs/dispatch.md, "Commands and renderers"): a later
hook's command with the same name is listed as shadowed and never runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookman.bridge.content_text import message_text
from hookman.bridge.manifest_reader import Manifest
from hookman.bridge.session_state import SessionState
from hookman.commands.fire import load_installed_manifest
from hookman.commands.options import JSON, PROJECT, Argument, cli_command
from hookman.errors import HookmanError
from hookman.output import console, escape, print_json
from hookman.project.location import find_project_dir
from hookman.runtime import HookRunner, LoadedHook, StatusRecordingUI, load_hooks
from hookman.runtime.awaiting import settle

if TYPE_CHECKING:
    from hookman.json_shapes import HookCommandJson, HookCommandsJson, LoadErrorJson

COMMAND_LINE_SESSION = "command-line"


@cli_command(
    "commands",
    PROJECT,
    JSON,
    help="List the commands hooks registered with register_command.",
    examples=("hookman commands", "hookman commands --json"),
)
def list_hook_commands(*, project: Path | None = None, json_output: bool = False) -> int:
    """`hookman commands`; `--json` prints a `HookCommandsJson` (hookman/json_shapes.py)."""
    manifest = load_installed_manifest(find_project_dir(project))
    named_hooks, load_errors = _load_named_hooks(manifest)
    rows = _command_rows(named_hooks)
    if json_output:
        shown: HookCommandsJson = {"commands": rows, "load_errors": load_errors}
        print_json(shown)
        return 0
    out = console()
    for error in load_errors:
        out.print(f"[red]hook {escape(error['hook'])} failed to load:[/] {escape(error['error'])}")
    if not rows:
        out.print("no hook registers a command (pi.register_command).")
    for row in rows:
        line = f"[bold]{escape(row['name'])}[/]  {escape(row['description'] or '')}"
        line += f"  (hook {escape(row['hook'])})"
        if row["shadowed_by"]:
            line += f"  [yellow]shadowed by hook {escape(row['shadowed_by'])}[/]"
        out.print(line)
    return 0


@cli_command(
    "command",
    Argument("name", "NAME", help="A command registered with register_command."),
    PROJECT,
    rest="args",
    rest_text=True,
    help="""Run a command that a hook registered with register_command.

    Words after NAME are passed to the command as its argument text.""",
    examples=("hookman command deploy staging",),
)
def run_hook_command(name: str, args: str = "", *, project: Path | None = None) -> int:
    manifest = load_installed_manifest(find_project_dir(project))
    named_hooks, load_errors = _load_named_hooks(manifest)
    hooks = [loaded for _, loaded in named_hooks]
    runner = HookRunner(hooks, manifest.project_dir)
    out = console()
    state = SessionState(manifest.state_dir, COMMAND_LINE_SESSION)
    runner.initialize(
        send_message_handler=lambda message, **_: out.print(
            f"[dim]message for the agent:[/] {escape(message_text(message))}"
        ),
        append_entry_handler=lambda custom_type, data=None: state.append_entry(
            custom_type, data, "command"
        ),
        ui=StatusRecordingUI(),
        has_ui=False,
    )
    command = runner.get_command(name)
    if command is None:
        raise HookmanError(
            f"no installed hook registers the command {name!r}.",
            _missing_command_hint(load_errors),
        )
    owner = next(hook_name for hook_name, loaded in named_hooks if name in loaded.commands)
    try:
        result = settle(command.handler(args, runner.create_command_context()))
    except Exception as error:
        raise HookmanError(
            f"the command {name!r} of hook {owner!r} failed: {type(error).__name__}: {error}.",
            f"fix the hook, then run `hookman command {name}` again.",
        ) from None
    if isinstance(result, str) and result:
        out.print(escape(result))
    return 0


def _missing_command_hint(load_errors: list[LoadErrorJson]) -> str:
    if load_errors:
        names = ", ".join(error["hook"] for error in load_errors)
        return f"some hooks failed to load ({names}); `hookman commands` shows why."
    return "`hookman commands` lists the commands the installed hooks register."


def _load_named_hooks(
    manifest: Manifest,
) -> tuple[list[tuple[str, LoadedHook]], list[LoadErrorJson]]:
    named: list[tuple[str, LoadedHook]] = []
    errors: list[LoadErrorJson] = []
    for hook in manifest.hooks:
        # A repository hook as the runner loads it: its siblings, only as fetched.
        result = load_hooks(
            [hook.path], manifest.project_dir, hook.package_root, digests=hook.digests
        )
        errors.extend({"hook": hook.name, "error": error.error} for error in result.errors)
        named.extend((hook.name, loaded) for loaded in result.hooks)
    return named, errors


def _command_rows(named_hooks: list[tuple[str, LoadedHook]]) -> list[HookCommandJson]:
    first_owner: dict[str, str] = {}
    rows: list[HookCommandJson] = []
    for hook_name, loaded in named_hooks:
        for key, command in loaded.commands.items():
            owner = first_owner.setdefault(key, hook_name)
            rows.append(
                {
                    "name": key,
                    "description": command.description,
                    "hook": hook_name,
                    "shadowed_by": None if owner == hook_name else owner,
                }
            )
    return rows
