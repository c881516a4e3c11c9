"""Loading hook modules and running their factories (docs/dispatch.md, "Loading hooks").

Loading never raises: every failure, from an unresolvable path to a factory that calls
`sys.exit()`, becomes a `LoadError` and loading goes on with the next path.
"""

from __future__ import annotations

import os
import sys

from hookman.runtime.awaiting import settle
from hookman.runtime.hook_api import HookAPI, LoadedHook
from hookman.runtime.hook_paths import refuse_non_file, resolve_hook_path
from hookman.runtime.js_values import error_message
from hookman.runtime.records import LoadError, Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from types import ModuleType
    from typing import Any

FACTORY_NAME = "hook"
MISSING_FACTORY_ERROR = "Hook must define a callable 'hook'"
LOAD_FAILED_PREFIX = "Failed to load hook: "
_MODULE_NAME_PREFIX = "hookman_hook_"

# A module is imported once per resolved path; a path given twice runs its factory twice.
_modules_by_path: dict[str, ModuleType] = {}
_imports_started = 0


class LoadHooksResult(Record):
    """What `load_hooks` returns: loaded hooks and load errors, each in input order."""

    __slots__ = ("errors", "hooks")
    _fields = ("hooks", "errors")

    def __init__(self, hooks: list[LoadedHook], errors: list[LoadError]) -> None:
        self.hooks = hooks
        self.errors = errors


class _HookExited(Exception):
    """A hook module called sys.exit() while loading; reported as a load error."""


def load_hooks(
    paths: Iterable[str],
    cwd: str,
    package_root: str | None = None,
    *,
    digests: Mapping[str, str] | None = None,
) -> LoadHooksResult:
    """Load each hook in order; `paths` relative to `cwd`. Never raises; no de-duplication.

    `package_root`: the root of the hook repository the paths belong to. A module under it
    is imported as part of a package made for that root, so it imports its siblings
    relatively (`from . import rules`, `from .lib import words`), and two repositories'
    modules of the same name never meet in sys.modules.

    `digests` (with `package_root`): the sha256 of each module of the repository as it was
    fetched (POSIX path relative to the root); then every module imported from it, the hook
    and its siblings, is compiled from bytes whose digest matched, or refused
    (hookman/runtime/verified_import.py)."""
    hooks: list[LoadedHook] = []
    errors: list[LoadError] = []
    for path in paths:
        loaded_or_error = _load_hook(path, cwd, package_root, digests)
        if isinstance(loaded_or_error, LoadError):
            errors.append(loaded_or_error)
        else:
            hooks.append(loaded_or_error)
    return LoadHooksResult(hooks, errors)


def discover_and_load_hooks(configured_paths: Iterable[str], cwd: str) -> LoadHooksResult:
    """Resolve the configured paths against `cwd`, drop repeats (first kept), then load.

    Discovery is the project's hookman.toml, which the caller reads and passes in; the
    loaded hooks' `path` is therefore the absolute path.
    """
    paths_by_key: dict[object, str] = {}
    for index, path in enumerate(configured_paths):
        try:
            resolved = resolve_hook_path(path, cwd)
        except Exception:
            # Passed on unchanged: load_hooks reports it, in its place in the input order.
            paths_by_key[("unresolvable", index)] = path
        else:
            paths_by_key.setdefault(resolved, resolved)
    return load_hooks(paths_by_key.values(), cwd)


def _load_hook(
    path: str,
    cwd: str,
    package_root: str | None = None,
    digests: Mapping[str, str] | None = None,
) -> LoadedHook | LoadError:
    try:
        resolved_path = resolve_hook_path(path, cwd)
        module = _import_once(resolved_path, package_root, digests)
    except Exception as error:
        return LoadError(_as_text(path), LOAD_FAILED_PREFIX + error_message(error))
    factory = getattr(module, FACTORY_NAME, None)
    if not callable(factory):
        return LoadError(_as_text(path), MISSING_FACTORY_ERROR)
    loaded = LoadedHook(_as_text(path), resolved_path=resolved_path)
    loaded.loading = True
    try:
        _guard_exit(lambda: settle(factory(HookAPI(loaded, cwd))))
    except Exception as error:
        return LoadError(_as_text(path), LOAD_FAILED_PREFIX + error_message(error))
    finally:
        loaded.loading = False
    return loaded


def _import_once(
    resolved_path: str, package_root: str | None = None, digests: Mapping[str, str] | None = None
) -> ModuleType:
    verified = package_root is not None and digests is not None
    key = f"verified:{resolved_path}" if verified else resolved_path
    module = _modules_by_path.get(key)
    if module is None:
        if verified:
            module = _guard_exit(lambda: _import_verified(resolved_path, package_root, digests))
        else:
            refuse_non_file(resolved_path)  # a named pipe would hold the import to the deadline
            module = _guard_exit(lambda: _import_module(resolved_path, package_root))
        _modules_by_path[key] = module
    return module


def _import_verified(resolved_path: str, package_root: Any, digests: Any) -> ModuleType:
    """Import a repository's module from the bytes its recorded digest matches."""
    from hookman.runtime.verified_import import module_spec

    module_from_spec = _import_machinery()[0]
    spec = module_spec(package_root, digests, resolved_path, _module_name(resolved_path))
    module = module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(spec.name, None)
        raise
    return module


def _import_machinery() -> tuple[Any, Any, Any]:
    """The functions importlib.util re-exports, taken from where they are defined.

    CPython keeps its import system loaded as the frozen `_frozen_importlib(_external)`
    modules; using those directly spares every runner start the `importlib` package,
    `importlib.util`, `contextlib` and `warnings` (a few ms together).
    """
    bootstrap = sys.modules.get("_frozen_importlib")
    external = sys.modules.get("_frozen_importlib_external")
    if bootstrap is None or external is None:  # another interpreter: the public spelling
        from importlib.machinery import SourceFileLoader
        from importlib.util import module_from_spec, spec_from_file_location

        return module_from_spec, SourceFileLoader, spec_from_file_location
    return bootstrap.module_from_spec, external.SourceFileLoader, external.spec_from_file_location


def _import_module(resolved_path: str, package_root: str | None = None) -> ModuleType:
    """Import the file under a unique module name, so equal file stems never collide."""
    module_from_spec, SourceFileLoader, spec_from_file_location = _import_machinery()

    name = None if package_root is None else _name_in_package(resolved_path, package_root)
    if name is None:
        name = _module_name(resolved_path)
    # An explicit loader accepts any file name, not only ones ending in ".py".
    loader = SourceFileLoader(name, resolved_path)
    spec = spec_from_file_location(name, resolved_path, loader=loader)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {resolved_path}")
    module = module_from_spec(spec)
    sys.modules[name] = module  # dataclasses, pickle and typing look modules up here
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


# repository root -> the name of the package made for it
_repository_packages: dict[str, str] = {}


def _name_in_package(resolved_path: str, package_root: str) -> str | None:
    """`hookman_repo_N.sub.module` for a module under `package_root` (None when it is not
    under it, or a part of its path is no Python identifier)."""
    root = os.path.realpath(package_root)
    relative = os.path.relpath(os.path.realpath(resolved_path), root)
    stem, dot, suffix = relative.rpartition(".")
    parts = stem.split(os.sep) if dot and suffix == "py" else []
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    package = _repository_packages.get(root)
    if package is None:
        package = f"{_MODULE_NAME_PREFIX}repo_{len(_repository_packages) + 1}"
        bootstrap = sys.modules.get("_frozen_importlib")
        if bootstrap is None:
            from importlib.machinery import ModuleSpec
        else:
            ModuleSpec = bootstrap.ModuleSpec
        spec = ModuleSpec(package, None, is_package=True)
        spec.submodule_search_locations = [root]
        module = type(sys)(package)
        module.__spec__ = spec
        module.__path__ = [root]
        module.__package__ = package
        sys.modules[package] = module
        _repository_packages[root] = package
    return ".".join([package, *parts])


def _module_name(resolved_path: str) -> str:
    global _imports_started
    _imports_started += 1
    stem = os.path.basename(resolved_path).split(".", 1)[0]
    identifier = "".join(char if char.isalnum() else "_" for char in stem) or "hook"
    return f"{_MODULE_NAME_PREFIX}{_imports_started}_{identifier}"


def _guard_exit(action: Callable[[], object]) -> object:
    """Run `action`, turning a `sys.exit()` inside the hook into an ordinary error."""
    try:
        return action()
    except SystemExit as error:
        raise _HookExited(f"hook called sys.exit({error.code!r})") from error


def _as_text(path: object) -> str:
    """The path as a string for records and messages, whatever the caller passed."""
    if isinstance(path, str):
        return path
    try:
        return os.fsdecode(path)  # type: ignore[arg-type]
    except TypeError:
        return repr(path)
