"""`hookman remove HOOK ...`: take hooks out of hookman.toml and rewrite settings.

Removing the last hook leaves no hookman entry in settings.local.json.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.commands.install import exit_code_of, print_sync_report
from hookman.commands.options import CLAUDE_VERSION, DRY_RUN, JSON, PROJECT, Argument, cli_command
from hookman.commands.sync_report import sync_json
from hookman.commands.try_repo import trial_hook_names
from hookman.errors import HookmanError
from hookman.install.report import project_target
from hookman.install.sync import sync_project
from hookman.output import print_json
from hookman.project.config import (
    ProjectConfigDocument,
    ProjectConfigView,
    load_project_config,
    read_project_config,
)
from hookman.project.location import find_project_dir
from hookman.project.lock import edit_lock

if TYPE_CHECKING:
    from hookman.json_shapes import RemoveJson


@cli_command(
    "remove",
    Argument(
        "hooks", "HOOK...", variadic=True, complete="hooks", help="Names of hooks to take out."
    ),
    PROJECT,
    CLAUDE_VERSION,
    DRY_RUN,
    JSON,
    help="Take hooks out of the project and rewrite settings.",
    examples=("hookman remove guard", "hookman remove guard notes --dry-run"),
)
def remove(
    hooks: Sequence[str],
    *,
    project: Path | None = None,
    claude_version: str | None = None,
    dry_run: bool = False,
    json_output: bool = False,
) -> int:
    """Remove `hooks` (names in hookman.toml) and rewrite the settings. Returns the exit code.

    `--json` prints a `RemoveJson` (hookman/json_shapes.py): the object of `install --json`
    with "removed" (the names given) in place of "installed"; "hooks" lists those that remain.
    """
    if not hooks:
        raise HookmanError("name at least one hook to remove.", "see `hookman list`.", exit_code=2)
    project_dir = find_project_dir(project)
    preview = read_project_config(project_dir)
    target = project_target(project_dir, claude_version, preview)
    names = list(dict.fromkeys(hooks))
    # A `try-repo` hook is in no hookman.toml: the rewrite below ends its trial.
    tried = set(trial_hook_names(project_dir))
    listed_names = [name for name in names if name not in tried or preview.find(name)]
    for name in listed_names:  # refused before the lock: a name not listed changes nothing
        _remove_listed(preview, name)
    with edit_lock(project_dir, dry_run=dry_run):
        config = load_project_config(project_dir)
        for name in listed_names:
            _remove_listed(config, name)
        result = sync_project(project_dir, config, target, dry_run=dry_run)
    if json_output:
        shown: RemoveJson = {**sync_json(result), "removed": names}
        print_json(shown)
    else:
        print_sync_report(result, verb="removed", names=names)
    return exit_code_of(result)


def _remove_listed(config: ProjectConfigView, name: str) -> None:
    """Remove the hook `name` from a document; of a view, only check that it lists it."""
    try:
        if isinstance(config, ProjectConfigDocument):
            config.remove_hook(name)
        elif config.find(name) is None:
            raise KeyError(name)
    except KeyError:
        listed = [hook.name for hook in config.hooks]
        close = difflib.get_close_matches(name, listed, n=1)
        guess = f"did you mean {close[0]!r}? " if close else ""
        raise HookmanError(
            f"the project has no hook named {name!r}.",
            f"{guess}`hookman list` shows the project's hooks.",
        ) from None
