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

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from hookman.errors import HookmanError
from hookman.hooks.repo_source import resolve_repo_hook
from hookman.hooks.sources import module_path
from hookman.project.config import HookSpec
from hookman.project.pins import Pin


class ResolvedHook(NamedTuple):
    name: str
    module_path: Path
    # The repository tree of a repo hook (sibling imports resolve against it), else None.
    package_root: Path | None = None
    pin: Pin | None = None


class HookSet:
    """`resolve_hook_set`'s answer: every hook asked for, in order (not a dataclass: those
    compile methods at every start)."""

    __slots__ = ("hooks", "missing", "pins", "repaired", "warnings")

    def __init__(self) -> None:
        self.hooks: dict[str, ResolvedHook] = {}
        # name -> (what is wrong, how to fix it), for hooks this machine cannot run now
        self.missing: dict[str, tuple[str, str]] = {}
        # every pin the set used, including new ones made by this resolution
        self.pins: dict[tuple[str, str], Pin] = {}
        self.warnings: list[str] = []
        # store entries fetched again because their files had changed: pin -> those files
        self.repaired: dict[Pin, list[str]] = {}


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
                found = resolve_repo_hook(hook, project_dir, pins, fetch=fetch)
                result.pins[(found.pin.repo, found.pin.rev)] = found.pin
                result.warnings.extend(found.warnings)
                if found.repaired:
                    result.repaired[found.pin] = found.repaired
                resolved = ResolvedHook(hook.name, found.module_path, found.tree, found.pin)
            else:
                resolved = ResolvedHook(hook.name, module_path(hook, project_dir))
        except HookmanError as error:
            result.missing[hook.name] = (error.message, error.hint or "")
            continue
        result.hooks[hook.name] = resolved
    return result
