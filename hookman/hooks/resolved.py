"""The resolved hook set: each hook's name -> the module that runs and, for a hook from a
repository, the repository's root (its sibling modules import relative to it).

This is what install writes into the manifest and what anything else that packages a
project's hooks reads (`resolve_hook_set`). A path, registry or template hook resolves
on this machine alone; a repository hook through its pin (`.claude/hookman-pins.json`) and
the store: with `fetch`, a rev not pinned yet is resolved (git ls-remote) and pinned, and a
commit not in the store is fetched. Without it nothing touches the network, and a hook
whose store entry is missing is reported missing (its path is still where it will be).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from hookman import __version__
from hookman.errors import HookmanError
from hookman.hooks import store
from hookman.hooks.repository import read_repository_manifest
from hookman.hooks.sources import module_path
from hookman.project.config import HookSpec
from hookman.project.pins import Pin


class ResolvedHook(NamedTuple):
    name: str
    module_path: Path
    # The repository tree of a repo hook (sibling imports resolve against it), else None.
    package_root: Path | None = None
    pin: Pin | None = None


@dataclass
class HookSet:
    """`resolve_hook_set`'s answer: every hook asked for, in order."""

    hooks: dict[str, ResolvedHook] = field(default_factory=dict)
    # name -> (what is wrong, how to fix it), for hooks this machine cannot run now
    missing: dict[str, tuple[str, str]] = field(default_factory=dict)
    # every pin the set used, including new ones made by this resolution
    pins: dict[tuple[str, str], Pin] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def resolve_hook_set(
    hooks: Iterable[HookSpec],
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
    *,
    fetch: bool,
) -> HookSet:
    result = HookSet()
    for hook in hooks:
        try:
            if hook.source.kind == "repo":
                resolved = _resolve_repo_hook(hook, project_dir, pins, result, fetch=fetch)
            else:
                resolved = ResolvedHook(hook.name, module_path(hook, project_dir))
        except HookmanError as error:
            result.missing[hook.name] = (error.message, error.hint or "")
            continue
        result.hooks[hook.name] = resolved
    return result


def pin_for(
    hook: HookSpec, project_dir: Path, pins: dict[tuple[str, str], Pin], *, fetch: bool
) -> tuple[Pin, list[str]]:
    """The pin of a repo hook's (repo, rev): the recorded one, else (with `fetch`) the
    commit the rev names now. Also the warnings resolving it gave."""
    source = hook.source
    key = (source.value, source.rev)
    url = store.fetch_url(source.value, project_dir)
    pin = pins.get(key)
    if pin is not None:
        return pin, []
    if not fetch:
        raise HookmanError(
            f"the hook {hook.name!r} comes from {source.describe()}, which is not pinned yet.",
            "run `hookman install` to fetch it.",
        )
    resolved = store.resolve_rev(url, source.rev)
    return Pin(source.value, source.rev, resolved.commit, resolved.kind), []


def _resolve_repo_hook(
    hook: HookSpec,
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
    result: HookSet,
    *,
    fetch: bool,
) -> ResolvedHook:
    source = hook.source
    url = store.fetch_url(source.value, project_dir)
    pin, warnings = pin_for(hook, project_dir, pins, fetch=fetch)
    result.pins[(pin.repo, pin.rev)] = pin
    result.warnings.extend(warnings)
    tree = store.tree_dir(url, pin.commit)
    offered = source.offered_name(hook.name)
    if not store.is_stored(url, pin.commit):
        if not fetch:
            raise _MissingEntry(hook, tree)
        if pin.ref == "tag":
            result.warnings.extend(_moved_tag_warning(url, pin))
        store.ensure_stored(url, pin.commit, rev=source.rev)
    where = f"{source.value} at {source.rev}"
    manifest = read_repository_manifest(tree, where)
    offer = manifest.find(offered)
    if offer is None:
        raise HookmanError(
            f"the repository {where} offers no hook named {offered!r} "
            f"(it offers {', '.join(manifest.names())}).",
            "fix the name in .claude/hookman.toml, or use a rev that offers it.",
        )
    if offer.min_hookman is not None:
        from hookman.hooks.repository import needs_newer_hookman

        if needs_newer_hookman(offer, __version__):
            raise HookmanError(
                f"the hook {hook.name!r} from {where} needs hookman >= {offer.min_hookman}, "
                f"and this is hookman {__version__}.",
                "upgrade hookman, or pin an older rev of the repository.",
            )
    return ResolvedHook(hook.name, tree / offer.path, tree, pin)


class _MissingEntry(HookmanError):
    def __init__(self, hook: HookSpec, tree: Path) -> None:
        super().__init__(
            f"the hook {hook.name!r} comes from {hook.source.describe()}, which is not in "
            f"this machine's hookman store ({tree}).",
            "run `hookman install` to fetch it.",
        )


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


def used_pins(
    hooks: Sequence[HookSpec], old: dict[tuple[str, str], Pin], new: dict[tuple[str, str], Pin]
) -> dict[tuple[str, str], Pin]:
    """The pins hookman.toml's repo hooks use: the new ones, and the old ones of hooks not
    resolved now (disabled ones); pins no hook uses are dropped."""
    wanted = {(hook.source.value, hook.source.rev) for hook in hooks if hook.source.kind == "repo"}
    merged = {key: pin for key, pin in old.items() if key in wanted}
    merged.update({key: pin for key, pin in new.items() if key in wanted})
    return merged
