"""`hookman autoupdate [--freeze] [--repo URL]`: move each hook repository's rev to its
newest release tag (a tag such as v1.2.0 or 1.2), keeping hookman.toml's comments and
layout; `--freeze` writes the tag's full commit SHA with pre-commit's `# frozen: TAG`
comment. Prints `REPO: OLD -> NEW` per repository, repins the hooks and rewrites the
settings; the sync re-learns what every enabled hook subscribes to (one child for all).
Nothing is written unless every hook of every updated repository resolves at its new rev
and every enabled hook loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hookman.commands.install import exit_code_of, print_sync_report
from hookman.commands.options import CLAUDE_VERSION, JSON, PROJECT, Option, cli_command
from hookman.commands.sync_report import sync_json
from hookman.errors import HookmanError
from hookman.hooks import store
from hookman.hooks.repo_source import resolve_repo_hook
from hookman.install.fetched import store_snapshot
from hookman.install.report import project_target
from hookman.install.sync import sync_project
from hookman.output import console, escape, print_json
from hookman.project.config import (
    HookSpec,
    ProjectConfigDocument,
    load_project_config,
    read_project_config,
)
from hookman.project.location import find_project_dir
from hookman.project.lock import edit_lock
from hookman.project.pins import Pin, read_pins

if TYPE_CHECKING:
    from hookman.json_shapes import AutoupdateJson, AutoupdateUnchangedJson, UpdateJson


class Update(NamedTuple):
    repo: str
    old: str  # as shown: the rev, with its frozen tag when it has one
    new_rev: str
    new_shown: str
    commit: str
    frozen_tag: str | None
    changed: bool


@cli_command(
    "autoupdate",
    Option("--freeze", flag=True, help="Write the full commit SHA with a `# frozen: TAG` comment."),
    Option(
        "--repo", metavar="REPO", help="Update only this repository (as hookman.toml names it)."
    ),
    PROJECT,
    CLAUDE_VERSION,
    JSON,
    help="Move each hook repository's rev to its newest release tag.",
    examples=(
        "hookman autoupdate",
        "hookman autoupdate --freeze --repo https://example.org/acme/agent-hooks.git",
    ),
)
def autoupdate(
    *,
    freeze: bool = False,
    repo: str | None = None,
    project: Path | None = None,
    claude_version: str | None = None,
    json_output: bool = False,
) -> int:
    """Update the revs (see the module docstring). Returns the exit code.

    `--json` prints an `AutoupdateJson` (hookman/json_shapes.py), the object of
    `install --json` (without "installed") plus "updates", when something was written; an
    `AutoupdateUnchangedJson`, "updates" alone, when nothing was."""
    project_dir = find_project_dir(project)
    preview = read_project_config(project_dir)
    repos = list(dict.fromkeys(h.source.value for h in preview.hooks if h.source.kind == "repo"))
    if repo is not None:
        if repo not in repos:
            listed = ", ".join(repos) if repos else "none"
            raise HookmanError(
                f"hookman.toml has no hook from the repository {repo!r} (it uses: {listed}).",
                "give --repo exactly as hookman.toml's `repo` says, or leave it out.",
                exit_code=2,
            )
        repos = [repo]
    out = console()
    if not repos:
        if json_output:
            nothing: AutoupdateUnchangedJson = {"updates": []}
            print_json(nothing)
        else:
            out.print("no hook in .claude/hookman.toml comes from a hook repository.")
        return 0
    target = project_target(project_dir, claude_version, preview)
    with edit_lock(project_dir, dry_run=False):
        config = load_project_config(project_dir)
        pins = read_pins(project_dir)
        stored_before = store_snapshot(repos, project_dir)
        updates = [_newest(config, project_dir, url, pins, freeze=freeze) for url in repos]
        new_pins: dict[tuple[str, str], Pin] = {}
        for update in updates:
            for hook in [h for h in config.hooks if h.source.value == update.repo]:
                config.set_rev(hook.name, update.new_rev, frozen_tag=update.frozen_tag)
            new_pins[(update.repo, update.new_rev)] = Pin(
                update.repo, update.new_rev, update.commit, "commit" if freeze else "tag"
            )
        for update in updates:
            for hook in [h for h in config.hooks if h.source.value == update.repo]:
                _fetch(config, hook, project_dir, new_pins)
        result = None
        if any(update.changed for update in updates):
            result = sync_project(
                project_dir,
                config,
                target,
                dry_run=False,
                known_pins=new_pins,
                stored_before=stored_before,
            )
    if json_output:
        moved: list[UpdateJson] = [
            {
                "repo": u.repo,
                "old": u.old,
                "new": u.new_shown,
                "commit": u.commit,
                "changed": u.changed,
            }
            for u in updates
        ]
        shown: AutoupdateJson | AutoupdateUnchangedJson = (
            {"updates": moved} if result is None else {**sync_json(result), "updates": moved}
        )
        print_json(shown)
        return 0 if result is None else exit_code_of(result)
    for update in updates:
        if update.changed:
            out.print(
                f"{escape(update.repo)}: {escape(update.old)} -> {escape(update.new_shown)}",
                highlight=False,
            )
        else:
            out.print(
                f"{escape(update.repo)}: already up to date ({escape(update.old)})",
                highlight=False,
            )
    if result is None:
        return 0
    print_sync_report(result, verb="updated", names=[])
    return exit_code_of(result)


def _newest(
    config: ProjectConfigDocument,
    project_dir: Path,
    repo: str,
    pins: dict[tuple[str, str], Pin],
    *,
    freeze: bool,
) -> Update:
    hooks = [h for h in config.hooks if h.source.kind == "repo" and h.source.value == repo]
    url = store.fetch_url(repo, project_dir)
    refs = store.remote_refs(url)
    tags = store.release_tags(refs)
    if not tags:
        raise HookmanError(
            f"the repository {repo} has no release tag (such as v1.2.0), so there is nothing "
            "to update to; nothing was changed.",
            "tag a release in it, or set the rev by hand in .claude/hookman.toml.",
        )
    newest = tags[-1]
    commit = refs.get(f"{store.TAG_PREFIX}{newest}^{{}}") or refs[store.TAG_PREFIX + newest]
    old_rev = hooks[0].source.rev
    old_frozen = config.frozen_tag(hooks[0].name)
    old_shown = f"{old_rev} (frozen: {old_frozen})" if old_frozen else old_rev
    new_rev = commit if freeze else newest
    new_shown = f"{commit} (frozen: {newest})" if freeze else newest
    old_pin = pins.get((repo, old_rev))
    same_code = old_pin is not None and old_pin.commit == commit
    changed = (
        any(h.source.rev != new_rev for h in hooks)
        or not same_code
        or (freeze and old_frozen != newest)
        or (not freeze and old_frozen is not None)
    )
    if old_rev == new_rev and not same_code and old_pin is not None:
        old_shown = f"{old_rev} ({old_pin.commit[:12]}, the tag moved since)"
        new_shown = f"{newest} ({commit[:12]})"
    return Update(repo, old_shown, new_rev, new_shown, commit, newest if freeze else None, changed)


def _fetch(
    config: ProjectConfigDocument,
    hook: HookSpec,
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
) -> None:
    """Fetch the hook at its new rev (refused when the repository no longer offers it);
    the sync learns what that code subscribes to, with every other enabled hook."""
    current = config.find(hook.name)
    resolve_repo_hook(current, project_dir, pins, fetch=True)
