"""Which module a hook name or install argument means.

Resolution order for a name (README, Commands): the project's hookman.toml, then the user
registry, then the bundled templates; the first wins and later ones are shadowed.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hookman.errors import HookmanError
from hookman.hooks.registry import registry_entries, registry_problems, registry_repo_entries
from hookman.project.config import HookSource, HookSpec, ProjectConfigView, is_valid_hook_name
from hookman.project.pins import read_pins
from hookman.scaffold.template_files import bundled_templates

if TYPE_CHECKING:
    from hookman.json_shapes import Shadowed


class HookChoice(NamedTuple):  # not a dataclass: those compile methods at every start
    """What one `hookman install` argument names."""

    name: str
    source: HookSource
    module_path: Path
    already_listed: bool
    # A repository hook's store tree, against which it imports its siblings.
    package_root: Path | None = None


def looks_like_path(argument: str) -> bool:
    return argument.endswith(".py") or "/" in argument or os.sep in argument


def choose_hook(
    argument: str, *, name_override: str | None, project_dir: Path, config: ProjectConfigView
) -> HookChoice:
    """Resolve one install argument: a path to a `.py` factory, or a known hook name."""
    if looks_like_path(argument):
        return _choose_path(argument, name_override, project_dir, config)
    listed = config.find(argument)
    if listed is not None:
        if name_override is not None and name_override != argument:
            raise HookmanError(
                f"the hook {argument!r} is already in hookman.toml; --name only names new hooks.",
                f"drop --name to refresh {argument!r}, or install the module's path with --name.",
                exit_code=2,
            )
        if listed.source.kind == "repo":
            from hookman.hooks.repo_source import resolve_repo_hook

            found = resolve_repo_hook(listed, project_dir, read_pins(project_dir), fetch=True)
            return HookChoice(argument, listed.source, found.module_path, True, found.tree)
        return HookChoice(
            argument, listed.source, module_path(listed, project_dir), already_listed=True
        )
    name = _checked_name(name_override or argument)
    registry = registry_entries()
    if argument in registry:
        return _new_choice(name, HookSource("registry", argument), registry[argument], config)
    shared = registry_repo_entries()
    if argument in shared:
        # Written into hookman.toml as the repository itself, so it travels with the project.
        repo, rev, offered = shared[argument]
        return choose_repo_hook(
            offered, repo, rev, name=name, project_dir=project_dir, config=config
        )
    templates = bundled_templates()
    if argument in templates:
        return _new_choice(name, HookSource("template", argument), templates[argument], config)
    known = sorted({*(hook.name for hook in config.hooks), *registry, *templates})
    close = difflib.get_close_matches(argument, known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise HookmanError(
        f"no hook named {argument!r} in hookman.toml, the user registry or the templates.",
        hint + "give a path to a .py hook factory, or `hookman registry add PATH` first.",
    )


def choose_repo_hook(
    offered: str,
    repo: str,
    rev: str,
    *,
    name: str | None,
    project_dir: Path,
    config: ProjectConfigView,
) -> HookChoice:
    """The hook `offered` of the repository `repo` at `rev`, fetched into the store (under
    `name` in the project, default its own name)."""
    name = _checked_name(name or offered)
    source = HookSource("repo", repo, rev, "" if offered == name else offered)
    spec = HookSpec(name=name, source=source)
    from hookman.hooks.repo_source import resolve_repo_hook

    found = resolve_repo_hook(spec, project_dir, read_pins(project_dir), fetch=True)
    listed = config.find(name)
    if listed is not None and listed.source.kind == "repo" and listed.source.value == repo:
        return HookChoice(name, source, found.module_path, True, found.tree)
    choice = _new_choice(name, source, found.module_path, config)
    return choice._replace(package_root=found.tree)


def module_path(hook: HookSpec, project_dir: Path) -> Path:
    """The absolute module path of a listed hook (its file may not exist); a HookmanError
    when its registry entry or template is not on this machine, or its repository is not
    in the store (nothing is fetched here)."""
    source = hook.source
    if source.kind == "repo":
        from hookman.hooks.repo_source import resolve_repo_hook

        return resolve_repo_hook(hook, project_dir, read_pins(project_dir), fetch=False).module_path
    if source.kind == "path":
        return Path(os.path.normpath(project_dir / source.value))
    if source.kind == "registry":
        registry = registry_entries()
        if source.value not in registry:
            broken = source.value in registry_problems()
            raise HookmanError(
                f"the hook {hook.name!r} comes from the registry entry {source.value!r}, "
                + (
                    "which is broken in your user registry."
                    if broken
                    else "which is not in this machine's user registry."
                ),
                f"get its file (from whoever added it to hookman.toml) and register it with "
                f"`hookman registry add PATH --name {source.value}`, or take the hook out "
                f"with `hookman remove {hook.name}`.",
            )
        return registry[source.value]
    templates = bundled_templates()
    if source.value not in templates:
        raise HookmanError(
            f"the hook {hook.name!r} uses the template {source.value!r}, which this hookman "
            "does not ship.",
            f"see `hookman new --list`, or take the hook out with `hookman remove {hook.name}`.",
        )
    return templates[source.value]


def shadowed_sources(hook: HookSpec) -> list[Shadowed]:
    """Lower-priority places that also define `hook.name` and lose to this hook."""
    shadowed: list[Shadowed] = []
    if hook.name in registry_entries() and hook.source != HookSource("registry", hook.name):
        shadowed.append("registry")
    if hook.name in bundled_templates() and hook.source != HookSource("template", hook.name):
        shadowed.append("template")
    return shadowed


def _choose_path(
    argument: str, name_override: str | None, project_dir: Path, config: ProjectConfigView
) -> HookChoice:
    given = Path(argument).expanduser()
    if not given.is_file():
        raise HookmanError(
            f"{argument!r} is not a file.",
            "give the path to a .py module that defines `def hook(pi): ...`.",
        )
    absolute = Path(os.path.abspath(given))
    relative = _relative_to(absolute, project_dir)
    if relative is None:
        raise HookmanError(
            f"{argument!r} is outside the project {project_dir}, and hookman.toml holds only "
            "project-relative paths.",
            f"register it once with `hookman registry add {argument}`, then "
            "`hookman install NAME`.",
        )
    name = _checked_name(name_override or absolute.stem)
    source = HookSource("path", relative.as_posix())
    listed = config.find(name)
    if listed is not None and listed.source == source:
        return HookChoice(name, source, absolute, already_listed=True)
    return _new_choice(name, source, absolute, config)


def _new_choice(name: str, source: HookSource, path: Path, config: ProjectConfigView) -> HookChoice:
    listed = config.find(name)
    if listed is not None:
        raise HookmanError(
            f"hookman.toml already has a hook named {name!r} (from {listed.source.describe()}).",
            "pick another name with --name, or `hookman remove` the old one first.",
        )
    return HookChoice(name, source, path, already_listed=False)


def _relative_to(path: Path, directory: Path) -> Path | None:
    for candidate, base in ((path, directory), (path.resolve(), directory.resolve())):
        try:
            return candidate.relative_to(base)
        except ValueError:
            continue
    return None


def _checked_name(name: str) -> str:
    if not is_valid_hook_name(name):
        raise HookmanError(
            f"{name!r} cannot be a hook name: use letters, digits, '_', '.' or '-'.",
            "choose one with --name.",
            exit_code=2,
        )
    return name
