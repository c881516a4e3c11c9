"""Which module each hook runs on this machine, and which hooks are missing or do not load.

install writes a missing or broken hook anyway (the runner's load error makes a guard deny);
list and doctor report the same hooks with the same words (`hook_problems`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookman.bridge.protocol import MISSING_HOOKS_DIR
from hookman.errors import HookmanError
from hookman.hooks.module_check import load_effect, module_problem
from hookman.hooks.sources import module_path
from hookman.project.config import HookSpec, ProjectConfigView
from hookman.project.location import CLAUDE_DIR
from hookman.project.pins import Pin, read_pins


class Resolution:
    """Each hook's module path, the hooks missing here with what is wrong and how to fix it,
    and for repository hooks their manifest keys, the pins they used and any warnings."""

    __slots__ = ("missing", "not_files", "origins", "paths", "pins", "repaired", "warnings")

    def __init__(self) -> None:
        self.paths: dict[str, Path] = {}
        self.missing: dict[str, tuple[str, str]] = {}
        # of `missing`: the hooks whose module is there but no regular file (a named pipe)
        self.not_files: set[str] = set()
        # repository hooks: name -> their manifest keys (repo, rev, commit, package_root, trial)
        self.origins: dict[str, dict[str, Any]] = {}
        self.pins: dict[tuple[str, str], Pin] = {}
        self.warnings: list[str] = []
        # store entries fetched again because their files had changed: pin -> those files
        self.repaired: dict[Pin, list[str]] = {}


def used_pins(
    hooks: Sequence[HookSpec], old: dict[tuple[str, str], Pin], new: dict[tuple[str, str], Pin]
) -> dict[tuple[str, str], Pin]:
    """The pins hookman.toml's repo hooks use: the new ones, and the old ones of hooks not
    resolved now (disabled ones); pins no hook uses are dropped."""
    wanted = {(hook.source.value, hook.source.rev) for hook in hooks if hook.source.kind == "repo"}
    merged = {key: pin for key, pin in old.items() if key in wanted}
    merged.update({key: pin for key, pin in new.items() if key in wanted})
    return merged


def broken_modules(
    hooks: list[HookSpec], module_paths: dict[str, Path], missing: dict[str, tuple[str, str]]
) -> dict[str, tuple[str, str]]:
    """The enabled hooks whose module is there but cannot load (a syntax error): written
    anyway, like a missing one, so the runner's load error makes a guard deny."""
    broken: dict[str, tuple[str, str]] = {}
    for hook in hooks:
        if hook.name in missing or hook.name not in module_paths:
            continue
        problem = module_problem(module_paths[hook.name])
        if problem is not None:
            broken[hook.name] = (
                f"the hook {hook.name!r} {problem}: {load_effect(hook.events)}.",
                f"fix the module (`hookman fire EVENT` shows the error), or take it out with "
                f"`hookman remove {hook.name}`.",
            )
    return broken


def hook_problems(config: ProjectConfigView, project_dir: Path) -> dict[str, tuple[str, str]]:
    """Every enabled hook that will not load on this machine (missing or broken module, a
    repository module changed in the store since its fetch), with what is wrong and how to
    fix it: what `list` reports and install exits 1 for."""
    return hook_problems_and_additions(config, project_dir)[0]


def hook_problems_and_additions(
    config: ProjectConfigView, project_dir: Path
) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """`hook_problems`, and a sentence for each store copy that only had files added since
    its fetch (no hook stops loading for that: doctor's warning, which `list` says too)."""
    enabled = [hook for hook in config.hooks if hook.enabled]
    pins = read_pins(project_dir)
    resolution = resolve_modules(enabled, project_dir, pins, fetch=False)
    missing = resolution.missing
    problems = {**missing, **broken_modules(enabled, resolution.paths, missing)}
    repo_hooks = [h for h in enabled if h.source.kind == "repo" and h.name not in problems]
    changed, additions = _store_copies(repo_hooks, project_dir, pins)
    return {**problems, **changed}, additions


def _store_copies(
    hooks: list[HookSpec], project_dir: Path, pins: dict[tuple[str, str], Pin]
) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """Each repository hook whose store copy has a module that changed since it was fetched:
    the runner refuses it, so the hook does not load (doctor's `hookman-repo-store-changed`;
    install fetches the pinned commit again); and the store copies that only had files
    added. Each store entry is hashed once."""
    if not hooks:
        return {}, []
    from hookman.hooks import store

    found: dict[str, tuple[str, str]] = {}
    additions: list[str] = []
    drifts: dict[tuple[str, str], store.StoreDrift | None] = {}
    for hook in hooks:
        pin = pins.get((hook.source.value, hook.source.rev))
        if pin is None:
            continue
        key = (store.fetch_url(hook.source.value, project_dir), pin.commit)
        fresh = key not in drifts
        if fresh:
            drifts[key] = store.store_drift(*key)
        drift = drifts[key]
        where = f"{hook.source.value} at {hook.source.rev}"
        if drift is not None and drift.changed:
            found[hook.name] = (
                f"the store copy of {where} changed since it was fetched "
                f"({store.shown_files(drift.changed)}): the hook {hook.name!r} does not load, "
                "so a guard denies every call it guards.",
                "run `hookman install`: it fetches the pinned commit again in its place.",
            )
        elif drift is not None and drift.added and fresh:
            additions.append(store.additions_sentence(where, drift.added))
    return found, additions


def resolve_modules(
    hooks: list[HookSpec],
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
    *,
    fetch: bool,
) -> Resolution:
    """Each hook's module, and the hooks whose module is not on this machine (a deleted
    file, a teammate's registry hook, a repository not in the store) with what is wrong and
    how to get it. With `fetch`, repository hooks are pinned and fetched first.

    A missing hook does not stop the others from being written: it stays in the manifest
    and the settings, and the runner reports it as a load error, so a missing guard still
    denies its tool calls (fail closed) instead of silently letting them through.
    """
    result = Resolution()
    repo_hooks = [hook for hook in hooks if hook.source.kind == "repo"]
    resolved = None
    if repo_hooks:  # imported only then: a project of path hooks never loads the store
        from hookman.hooks.resolved import resolve_hook_set

        resolved = resolve_hook_set(repo_hooks, project_dir, pins, fetch=fetch)
        result.pins, result.warnings = resolved.pins, resolved.warnings
        result.repaired = resolved.repaired
    for hook in hooks:
        if hook.source.kind == "repo":
            _add_repo_hook(hook, project_dir, pins, resolved, result)
            continue
        try:
            result.paths[hook.name] = _existing_module(hook, project_dir)
        except _MissingModule as gone:
            result.paths[hook.name] = gone.path
            result.missing[hook.name] = (gone.error.message, gone.error.hint or "")
            if gone.not_a_file:
                result.not_files.add(hook.name)
        except HookmanError as error:
            result.paths[hook.name] = _unresolved_path(hook, project_dir)
            result.missing[hook.name] = (error.message, error.hint or "")
    return result


def _add_repo_hook(
    hook: HookSpec,
    project_dir: Path,
    pins: dict[tuple[str, str], Pin],
    resolved: Any,
    result: Resolution,
) -> None:
    from hookman.hooks import store

    source = hook.source
    url = store.fetch_url(source.value, project_dir)
    found = resolved.hooks.get(hook.name)
    pin = found.pin if found is not None else pins.get((source.value, source.rev))
    if found is not None:
        tree, path = found.package_root, found.module_path
        if not path.is_file():
            result.missing[hook.name] = (
                f"the module of the hook {hook.name!r} ({path}) is gone from the store.",
                f"delete {tree.parent} and run `hookman install` to fetch it again.",
            )
    else:
        commit = pin.commit if pin is not None else "unpinned"
        tree = store.tree_dir(url, commit)
        path = tree / f"{source.offered_name(hook.name)}.missing.py"
        result.missing[hook.name] = resolved.missing[hook.name]
    result.paths[hook.name] = path
    result.origins[hook.name] = {
        "repo": source.value,
        "rev": source.rev,
        "commit": None if pin is None else pin.commit,
        "package_root": str(tree),
        # what the runner checks each module it imports from the tree against
        "digests": {} if pin is None else store.module_digests(url, pin.commit),
    }


class _MissingModule(Exception):
    def __init__(self, path: Path, error: HookmanError, *, not_a_file: bool = False) -> None:
        super().__init__(error.message)
        self.path = path
        self.error = error
        self.not_a_file = not_a_file


def _existing_module(hook: HookSpec, project_dir: Path) -> Path:
    path = module_path(hook, project_dir)
    try:
        exists = path.is_file()
    except (OSError, ValueError) as error:  # e.g. a name too long for the filesystem
        reason = getattr(error, "strerror", None) or str(error)
        raise HookmanError(
            f"the module path of the hook {hook.name!r} cannot be used: {reason}.",
            f"fix its path in .claude/hookman.toml, or take the hook out with "
            f"`hookman remove {hook.name}`.",
        ) from None
    if not exists and (kind := _not_a_file(path)) is not None:  # recorded as it is: the
        raise _MissingModule(  # runner refuses it at once, naming what it is
            path,
            HookmanError(
                f"the module of the hook {hook.name!r} ({path}) is {kind}, not a Python file.",
                f"put the hook's file back in its place, or take the hook out with "
                f"`hookman remove {hook.name}`.",
            ),
            not_a_file=True,
        )
    if not exists and (reason := _unreadable(path)) is not None:  # there, but stat fails:
        raise _MissingModule(  # a symlink loop (ELOOP), a directory it cannot search
            path,
            HookmanError(
                f"the module of the hook {hook.name!r} ({path}) cannot be read ({reason}).",
                f"put the hook's file back in its place, or take the hook out with "
                f"`hookman remove {hook.name}`.",
            ),
            not_a_file=True,
        )
    if not exists:
        fix = f"restore the file, or take the hook out with `hookman remove {hook.name}`."
        if hook.source.kind == "registry":
            fix = (
                f"restore the file, or register the hook's new place with `hookman registry add "
                f"PATH --name {hook.source.value}`."
            )
        raise _MissingModule(
            path,
            HookmanError(f"the module of the hook {hook.name!r} ({path}) does not exist.", fix),
        )
    return path


def _unreadable(path: Path) -> str | None:
    """Why a name that is there (lstat sees it) cannot be stat'ed, or None."""
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return None  # not there at all
    try:
        os.stat(path)
    except FileNotFoundError:
        return None  # a dangling symlink: nothing is there, as doctor and the runner say
    except OSError as error:
        return error.strerror or str(error)
    except ValueError:
        return None
    return None


def _not_a_file(path: Path) -> str | None:
    """What `path` is when it exists and is no regular file (a named pipe, a directory)."""
    from hookman.runtime.hook_paths import not_a_file

    try:
        return not_a_file(path.stat().st_mode)
    except (OSError, ValueError):
        return None


def _unresolved_path(hook: HookSpec, project_dir: Path) -> Path:
    """Where the runner will look for a hook this machine cannot resolve: a path that
    does not exist, so loading it fails and names the hook."""
    placeholder = f"{hook.source.kind}-{hook.source.value}.py"
    return project_dir / CLAUDE_DIR / MISSING_HOOKS_DIR / placeholder
