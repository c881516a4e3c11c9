"""Hooks from hook repositories (docs/hook-repositories.md): a store entry missing (a
teammate's machine, a cleaned cache), a rev that is a branch (not pinned), a repository
without a manifest, a hook it does not offer, a `min_hookman` newer than this hookman, and a
store copy whose files changed since it was fetched. Nothing here touches the network."""

from __future__ import annotations

import json

from hookman import __version__, paths
from hookman.doctor.context import Context
from hookman.doctor.model import Finding
from hookman.errors import HookmanError
from hookman.project.config import HookSpec, read_project_config
from hookman.project.pins import Pin, pins_path, read_pins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.hooks.store import StoreDrift

INSTALL_FIX = "run `hookman install` in the project."


def check_repositories(ctx: Context) -> None:
    try:
        config = read_project_config(ctx.project_dir)
        pins = read_pins(ctx.project_dir)
    except HookmanError:
        return  # findings_hookman reports a hookman.toml that does not parse
    toml = str(config.path)
    seen: set[tuple[str, str]] = set()
    for hook in config.hooks:
        if hook.source.kind != "repo" or not hook.enabled:
            continue
        key = (hook.source.value, hook.source.rev)
        pin = pins.get(key)
        if pin is None:
            ctx.add(
                Finding(
                    "hookman-repo-not-fetched",
                    "error",
                    toml,
                    f"the hook {hook.name!r} comes from {hook.source.describe()}, which "
                    f"{pins_path(ctx.project_dir).name} does not pin yet, so it does not run "
                    "(a guard denies every tool call).",
                    INSTALL_FIX,
                )
            )
            continue
        _check_hook(ctx, hook, pin, toml, first=key not in seen)
        seen.add(key)


def _check_hook(ctx: Context, hook: HookSpec, pin: Pin, toml: str, *, first: bool) -> None:
    # imported here: only a project with a repository hook needs the store
    from hookman.hooks import store
    from hookman.hooks.repository import (
        MANIFEST_NAME,
        needs_newer_hookman,
        read_repository_manifest,
    )

    source = hook.source
    where = f"{source.value} at {source.rev}"
    url = store.fetch_url(source.value, ctx.project_dir)
    if first and pin.ref == "branch":
        ctx.add(
            Finding(
                "hookman-repo-rev-is-branch",
                "warning",
                toml,
                f"the rev {source.rev!r} of {source.value} is a branch, not a release: the "
                f"project runs the commit pinned when it was installed ({pin.commit[:12]}), and "
                "what a teammate reviews under that name changes with every push.",
                f"pin a tag or a full SHA: `hookman autoupdate --repo {source.value}` "
                "(add --freeze for a SHA).",
            )
        )
    if not store.is_stored(url, pin.commit):
        if first:
            ctx.add(
                Finding(
                    "hookman-repo-not-fetched",
                    "error",
                    toml,
                    _not_fetched(ctx, hook, pin, url, where),
                    INSTALL_FIX,
                )
            )
        return
    tree = store.tree_dir(url, pin.commit)
    if first:
        _check_store_copy(ctx, store.store_drift(url, pin.commit), str(tree), where)
    try:
        manifest = read_repository_manifest(tree, where)
    except HookmanError as error:
        if first:
            ctx.add(
                Finding(
                    "hookman-repo-no-manifest",
                    "error",
                    str(tree / MANIFEST_NAME),
                    error.message + " Its hooks do not run.",
                    error.hint or INSTALL_FIX,
                )
            )
        return
    offered = source.offered_name(hook.name)
    offer = manifest.find(offered)
    if offer is None:
        ctx.add(
            Finding(
                "hookman-repo-hook-not-listed",
                "error",
                toml,
                f"{where} offers no hook named {offered!r} (it offers "
                f"{', '.join(manifest.names())}), so the hook {hook.name!r} does not run.",
                "fix the name in .claude/hookman.toml, or use a rev that offers it.",
            )
        )
        return
    linked_out = store.modules_linked_out(url, pin.commit)
    if linked_out:
        _add_linked_out(ctx, hook, where, str(tree / linked_out[0]), linked_out)
    if needs_newer_hookman(offer, __version__):
        ctx.add(
            Finding(
                "hookman-repo-needs-newer-hookman",
                "error",
                toml,
                f"the hook {hook.name!r} from {where} needs hookman >= {offer.min_hookman}, "
                f"and this is hookman {__version__}.",
                "upgrade hookman, or pin an older rev of the repository.",
            )
        )


def _add_linked_out(
    ctx: Context, hook: HookSpec, where: str, path: str, linked_out: list[str]
) -> None:
    """The sentence install and plugin build refuse with: a module of the repository is a
    symlink out of it, so the hook does not run (the runner verifies no bytes outside the
    store entry)."""
    from hookman.hooks.repo_source import linked_out_error

    error = linked_out_error(hook.name, where, linked_out)
    ctx.add(
        Finding(
            "hookman-repo-symlink-out",
            "error",
            path,
            error.message + " Its hooks do not run (a guard denies its tool calls).",
            error.hint or INSTALL_FIX,
        )
    )


def _check_store_copy(ctx: Context, drift: StoreDrift | None, tree: str, where: str) -> None:
    """A store copy edited since its fetch: a changed module does not load (its hooks'
    guards deny); a file added since never runs, and only a hook that imports one fails."""
    if drift is None or not (drift.changed or drift.added):
        return
    from hookman.hooks import store

    fix = (
        "run `hookman install` in the project: it fetches the pinned commit again in its "
        "place (until then the runner refuses the changed modules)."
    )
    if drift.changed:
        files = store.shown_files(drift.changed + drift.added)
        ctx.add(
            Finding(
                "hookman-repo-store-changed",
                "error",
                tree,
                f"the store copy of {where} changed since it was fetched ({files}): the runner "
                "does not import a changed module, so a hook that uses one does not run (a guard "
                "denies its tool calls).",
                fix,
            )
        )
        return
    ctx.add(
        Finding(
            "hookman-repo-store-changed",
            "warning",
            tree,
            store.additions_sentence(where, drift.added) + ".",
            fix,
        )
    )


def _not_fetched(ctx: Context, hook: HookSpec, pin: Pin, url: str, where: str) -> str:
    from hookman.hooks import store

    """What happens to a hook whose pinned commit is not in the store: nothing of it runs,
    unless this machine installed another commit of it before the pins changed (a pull of a
    teammate's autoupdate), which then still runs on observe-only events while guarded ones
    are denied until install (bridge/project_moved.py)."""
    installed = _installed_commit(ctx, hook.name)
    if installed is None or installed == pin.commit or not store.is_stored(url, installed):
        return (
            f"{where} (commit {pin.commit[:12]}) is not in this machine's hookman store, so "
            f"the hook {hook.name!r} does not run (a guard denies every tool call until it "
            "is fetched)."
        )
    return (
        f"{where} (commit {pin.commit[:12]}) is not in this machine's hookman store yet: "
        f"the pins changed since `hookman install` ran here, which installed commit "
        f"{installed[:12]} of the hook {hook.name!r}. Until install fetches the new one, "
        "hookman denies the guarded calls its installed entries reach and observe-only events "
        "run the old commit."
    )


def _installed_commit(ctx: Context, name: str) -> str | None:
    """The commit the manifest (the last install here) runs for the hook `name`."""
    try:
        manifest = json.loads(paths.manifest_path(ctx.project_dir).read_text(encoding="utf-8"))
        hooks = manifest["hooks"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    for record in hooks if isinstance(hooks, list) else ():
        if isinstance(record, dict) and record.get("name") == name:
            commit = record.get("commit")
            return commit if isinstance(commit, str) else None
    return None
