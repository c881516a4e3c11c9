"""A repository hook of hookman.toml -> its pin, its store tree and its module.

With `fetch`, a rev not pinned yet is resolved (git ls-remote) and a commit not in the store
is fetched; without it nothing touches the network, and a missing store entry is a
HookmanError naming `hookman install`.
"""

from __future__ import annotations

from pathlib import Path

from hookman import __version__
from hookman.errors import HookmanError
from hookman.hooks import store
from hookman.hooks.repository import needs_newer_hookman, read_repository_manifest
from hookman.project.config import HookSpec
from hookman.project.pins import Pin


class RepoHook:
    """A repository hook resolved: its module, its store tree, its pin, what was said, and
    the store files restored from the pinned commit because they had changed (with fetch)."""

    __slots__ = ("module_path", "pin", "repaired", "tree", "warnings")

    def __init__(
        self,
        module_path: Path,
        tree: Path,
        pin: Pin,
        warnings: list[str],
        repaired: list[str] | None = None,
    ) -> None:
        self.module_path = module_path
        self.tree = tree
        self.pin = pin
        self.warnings = warnings
        self.repaired = repaired or []


def resolve_repo_hook(
    hook: HookSpec, project_dir: Path, pins: dict[tuple[str, str], Pin], *, fetch: bool
) -> RepoHook:
    source = hook.source
    url = store.fetch_url(source.value, project_dir)
    pin = pin_for(hook, project_dir, pins, fetch=fetch)
    tree = store.tree_dir(url, pin.commit)
    warnings: list[str] = []
    repaired: list[str] = []
    if not store.is_stored(url, pin.commit):
        if not fetch:
            raise HookmanError(
                f"the hook {hook.name!r} comes from {source.describe()}, which is not in "
                f"this machine's hookman store.",
                "run `hookman install` to fetch it.",
            )
        if pin.ref == "tag" and (source.value, source.rev) in pins:
            warnings.extend(_moved_tag_warning(url, pin))
        store.ensure_stored(url, pin.commit, rev=source.rev)
    elif fetch:  # an entry edited since its fetch is fetched again from the pinned commit
        repaired = store.ensure_intact(url, pin.commit, rev=source.rev).repaired
    offered = source.offered_name(hook.name)
    where = f"{source.value} at {source.rev}"
    manifest = read_repository_manifest(tree, where, store.manifest_cache(url, pin.commit))
    offer = manifest.find(offered)
    if offer is None:
        raise HookmanError(
            f"the repository {where} offers no hook named {offered!r} "
            f"(it offers {', '.join(manifest.names())}).",
            "fix the name in .claude/hookman.toml, or use a rev that offers it.",
        )
    linked_out = store.modules_linked_out(url, pin.commit)
    if linked_out:
        raise linked_out_error(hook.name, where, linked_out)
    if needs_newer_hookman(offer, __version__):
        raise HookmanError(
            f"the hook {hook.name!r} from {where} needs hookman >= {offer.min_hookman}, "
            f"and this is hookman {__version__}.",
            "upgrade hookman, or pin an older rev of the repository.",
        )
    return RepoHook(tree / offer.path, tree, pin, warnings, repaired)


def linked_out_error(name: str, where: str, linked_out: list[str]) -> HookmanError:
    """The one sentence for a repository whose modules include a symlink out of it."""
    first = linked_out[0]
    more = f" (and {len(linked_out) - 1} more)" if len(linked_out) > 1 else ""
    return HookmanError(
        f"the hook {name!r} from {where} cannot be used: {first}{more} in the repository is "
        "a symlink out of it, which hookman can neither verify nor carry (on another machine "
        "it names another file).",
        f"make {first} a regular file in the repository (a symlink to a file inside it works "
        "too), commit, and pin that commit.",
    )


def pin_for(
    hook: HookSpec, project_dir: Path, pins: dict[tuple[str, str], Pin], *, fetch: bool
) -> Pin:
    """The pin of a repo hook's (repo, rev): the recorded one, else (with `fetch`) the
    commit the rev names now."""
    source = hook.source
    key = (source.value, source.rev)
    url = store.fetch_url(source.value, project_dir)
    pin = pins.get(key)
    if pin is not None:
        return pin
    if not fetch:
        raise HookmanError(
            f"the hook {hook.name!r} comes from {source.describe()}, which is not pinned yet.",
            "run `hookman install` to fetch it.",
        )
    resolved = store.resolve_rev(url, source.rev)
    return Pin(source.value, source.rev, resolved.commit, resolved.kind)


def _moved_tag_warning(url: str, pin: Pin) -> list[str]:
    """A sentence when the pinned tag names another commit on the server now."""
    try:
        now = store.resolve_rev(url, pin.rev)
    except HookmanError:
        return []
    if now.commit == pin.commit:
        return []
    return [
        f"the tag {pin.rev!r} of {pin.repo} now names the commit {now.commit[:12]}, but "
        f".claude/hookman-pins.json pins {pin.commit[:12]}: hookman runs the pinned commit. "
        f"Run `hookman autoupdate --repo {pin.repo}` to move to what the repository offers now."
    ]
