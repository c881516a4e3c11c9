"""`hookman enable NAME` / `hookman disable NAME`: switch a hook on or off in hookman.toml
(only its `enabled` key changes; comments and layout stay) and rewrite the settings.

A disabled hook stays listed, in its place, and runs nowhere: no settings entry serves it
and the runner does not load it.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING

from rich.markup import escape

from hookman.commands.install import exit_code_of, print_sync_report
from hookman.commands.options import CLAUDE_VERSION, DRY_RUN, JSON, PROJECT, Argument, cli_command
from hookman.commands.sync_report import sync_json
from hookman.errors import HookmanError
from hookman.install.report import project_target
from hookman.install.sync import sync_project
from hookman.output import console, print_json
from hookman.project.config import ProjectConfigView, load_project_config
from hookman.project.location import find_project_dir
from hookman.project.lock import edit_lock

if TYPE_CHECKING:
    from hookman.json_shapes import (
        DisableJson,
        DisableUnchangedJson,
        EnableJson,
        EnableUnchangedJson,
    )


def set_enabled(
    name: str,
    enabled: bool,
    *,
    project: Path | None = None,
    claude_version: str | None = None,
    dry_run: bool = False,
    json_output: bool = False,
) -> int:
    """Switch `name` on (`enabled`) or off and rewrite the settings. Returns the exit code.

    `--json` prints an `EnableJson` or `DisableJson` (hookman/json_shapes.py): the object of
    `install --json` with "enabled" or "disabled" ([name]) and "unchanged" ([]) in place of
    "installed". When the hook already was in that state nothing is written, and it prints
    an `EnableUnchangedJson` or `DisableUnchangedJson` ("unchanged": [name]).
    """
    verb = "enabled" if enabled else "disabled"
    project_dir = find_project_dir(project)
    preview = load_project_config(project_dir)
    target = project_target(project_dir, claude_version, preview)
    with edit_lock(project_dir, dry_run=dry_run):
        config = load_project_config(project_dir)
        hook = config.find(name)
        if hook is None:
            raise _unknown_hook(config, name)
        if hook.enabled == enabled:
            if json_output:
                kept: EnableUnchangedJson | DisableUnchangedJson = (
                    {"project": str(project_dir), "enabled": [], "unchanged": [name]}
                    if enabled
                    else {"project": str(project_dir), "disabled": [], "unchanged": [name]}
                )
                print_json(kept)
            else:
                console().print(
                    f"[bold]{escape(name)}[/] is already {verb}; nothing changed.",
                    highlight=False,
                )
            return 0
        config.set_enabled(name, enabled)
        result = sync_project(project_dir, config, target, dry_run=dry_run)
    if json_output:
        shown: EnableJson | DisableJson = (
            {**sync_json(result), "enabled": [name], "unchanged": []}
            if enabled
            else {**sync_json(result), "disabled": [name], "unchanged": []}
        )
        print_json(shown)
    else:
        print_sync_report(result, verb=verb, names=[name])
    return exit_code_of(result)


def _unknown_hook(config: ProjectConfigView, name: str) -> HookmanError:
    listed = [hook.name for hook in config.hooks]
    close = difflib.get_close_matches(name, listed, n=1)
    guess = f"did you mean {close[0]!r}? " if close else ""
    return HookmanError(
        f"the project has no hook named {name!r}.",
        f"{guess}`hookman list` shows the project's hooks.",
    )


@cli_command(
    "enable",
    Argument("name", "NAME", complete="hooks", help="The hook to switch on."),
    PROJECT,
    CLAUDE_VERSION,
    DRY_RUN,
    JSON,
    help="Switch a hook on in hookman.toml and rewrite settings.",
    examples=("hookman enable guard",),
)
def enable(
    name: str,
    *,
    project: Path | None = None,
    claude_version: str | None = None,
    dry_run: bool = False,
    json_output: bool = False,
) -> int:
    """`hookman enable NAME`: set_enabled(NAME, True)."""
    return set_enabled(
        name,
        True,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )


@cli_command(
    "disable",
    Argument("name", "NAME", complete="hooks", help="The hook to switch off."),
    PROJECT,
    CLAUDE_VERSION,
    DRY_RUN,
    JSON,
    help="Switch a hook off in hookman.toml (it stays listed) and rewrite settings.",
    examples=("hookman disable guard",),
)
def disable(
    name: str,
    *,
    project: Path | None = None,
    claude_version: str | None = None,
    dry_run: bool = False,
    json_output: bool = False,
) -> int:
    """`hookman disable NAME`: set_enabled(NAME, False)."""
    return set_enabled(
        name,
        False,
        project=project,
        claude_version=claude_version,
        dry_run=dry_run,
        json_output=json_output,
    )
