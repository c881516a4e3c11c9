"""`hookman try-repo REPO [HOOK ...] [--rev REV]`: hooks from a repository, installed into
this project for a trial without adding them to hookman.toml.

They run after hookman.toml's hooks, in the manifest and the settings only (marked
`"trial": true` in the manifest), so `fire`, `doctor` and the client see them. `hookman
install` (which rewrites from hookman.toml) or `hookman remove` ends the trial. Without
--rev the trial is of the repository's HEAD (its default branch) as it is now.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.commands.install import exit_code_of, print_sync_report
from hookman.commands.options import CLAUDE_VERSION, JSON, PROJECT, Argument, Option, cli_command
from hookman.commands.sync_report import sync_json
from hookman.errors import HookmanError
from hookman.hooks import store
from hookman.hooks.repo_source import resolve_repo_hook
from hookman.hooks.repository import read_repository_manifest
from hookman.hooks.subscriptions import (
    LearnRequest,
    check_event_names,
    learn_many,
    subscriptions_or_raise,
)
from hookman.install.report import installed_trial_hooks, project_target
from hookman.install.sync import Trial, sync_project
from hookman.output import console, escape, print_json
from hookman.project.config import HookSource, HookSpec, read_project_config
from hookman.project.location import find_project_dir
from hookman.project.lock import edit_lock
from hookman.project.pins import Pin

if TYPE_CHECKING:
    from hookman.json_shapes import TrialJson, TryRepoJson


@cli_command(
    "try-repo",
    Argument("repo", "REPO", help="A hook repository (URL or path)."),
    Argument(
        "hooks",
        "[HOOK]...",
        variadic=True,
        show_default=False,
        help="Hooks to try (default: all it offers).",
    ),
    Option(
        "--rev",
        metavar="REV",
        help="A tag, branch or full SHA (default: the repository's HEAD).",
    ),
    PROJECT,
    CLAUDE_VERSION,
    JSON,
    help="Try a repository's hooks in this project without adding them to hookman.toml.",
    examples=("hookman try-repo ../agent-hooks", "hookman try-repo URL no-rm-rf --rev v1.2.0"),
)
def try_repo(
    repo: str,
    hooks: Sequence[str] = (),
    *,
    rev: str | None = None,
    project: Path | None = None,
    claude_version: str | None = None,
    json_output: bool = False,
) -> int:
    """Install the repository's `hooks` (default: every hook it offers) for a trial.

    `--json` prints a `TryRepoJson` (hookman/json_shapes.py): the object of `install --json`
    (without "installed") plus "trial", what is tried."""
    project_dir = find_project_dir(project)
    config = read_project_config(project_dir)
    target = project_target(project_dir, claude_version, config)
    url = store.fetch_url(repo, project_dir)
    if rev is None:
        head = store.head_commit(url)
        pin = Pin(repo, head, head, "branch")
    else:
        resolved = store.resolve_rev(url, rev)
        pin = Pin(repo, rev, resolved.commit, resolved.kind)
    tree = store.ensure_stored(url, pin.commit, rev=pin.rev)
    manifest = read_repository_manifest(tree, f"{repo} at {rev or 'HEAD'}")
    names = list(dict.fromkeys(hooks)) or manifest.names()
    pins = {(pin.repo, pin.rev): pin}
    specs: list[HookSpec] = []
    requests: list[LearnRequest] = []
    for name in names:
        listed = config.find(name)
        if listed is not None:
            raise HookmanError(
                f"hookman.toml already has a hook named {name!r} (from "
                f"{listed.source.describe()}), so it cannot be tried beside it.",
                f"`hookman disable {name}` or `hookman remove {name}` first.",
            )
        spec = HookSpec(name=name, source=HookSource("repo", repo, pin.rev))
        found = resolve_repo_hook(spec, project_dir, pins, fetch=True)
        requests.append(LearnRequest(name, found.module_path, found.tree, name))
        specs.append(spec)
    outcomes = learn_many(requests, project_dir, keep=True)  # one child for all of them
    for index, spec in enumerate(specs):
        learned = subscriptions_or_raise(outcomes, spec.name)
        check_event_names(spec.name, learned.events, allow_unknown=False)
        specs[index] = HookSpec(
            name=spec.name, source=spec.source, events=learned.events, tools=learned.tools
        )
    with edit_lock(project_dir, dry_run=False):
        current = read_project_config(project_dir)
        result = sync_project(project_dir, current, target, dry_run=False, trial=Trial(specs, pins))
    shown_rev = rev or f"HEAD ({pin.commit[:12]})"
    trial: TrialJson = {"repo": repo, "rev": pin.rev, "commit": pin.commit, "hooks": names}
    if json_output:
        shown: TryRepoJson = {**sync_json(result), "trial": trial}
        print_json(shown)
        return exit_code_of(result)
    print_sync_report(result, verb="trying", names=names)
    out = console()
    out.print(
        f"trial of {escape(repo)} at {escape(shown_rev)}: not added to .claude/hookman.toml; "
        "`hookman install` ends it (or `hookman remove NAME`). To keep a hook: "
        f"`hookman install NAME --repo {escape(repo)} --rev TAG`.",
        highlight=False,
    )
    return exit_code_of(result)


def trial_hook_names(project_dir: Path) -> list[str]:
    """The hooks the installed manifest runs for a `try-repo` trial."""
    return [hook.name for hook in installed_trial_hooks(project_dir)]
