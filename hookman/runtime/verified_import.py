"""Importing a hook repository's modules only as they were fetched (docs/hook-repositories.md,
"The store"): each module's file is read once, its bytes hashed and compared with the digest
install recorded for it, and those same bytes compiled. No bytecode cache is read (a planted
`__pycache__/*.pyc` with a matching source timestamp never runs) or written, and a file that
changes between the check and the compile cannot slip in: nothing is read twice.

A repository imported this way is a package of its own (`hookman_repo_vN`) whose
`__path__` is empty: its submodules (`from .words import X`, `from .lib import rules`) are
found only by the finder here, only among the recorded modules, and any other name under it
is refused, so no other finder can load a file the record does not name (a sourceless
`.pyc`, an extension module, a module added after the fetch).
"""

from __future__ import annotations

import os
import sys

from hookman.runtime.hook_paths import NotAFile, refuse_non_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import ModuleType
    from typing import Any

PACKAGE_PREFIX = "hookman_repo_v"
CHANGED_TEXT = "changed in the hookman store since it was fetched"


class StoreCopyChanged(ImportError):
    """A module of a hook repository whose bytes are not the ones recorded at its fetch."""

    def __init__(self, relative: str, how: str = "differs from the pinned commit") -> None:
        super().__init__(f"{relative} {CHANGED_TEXT} ({how})")
        self.relative = relative


_sha256: list = []  # the constructor, found once


def sha256_hex(data: bytes) -> str:
    """SHA-256 of `data` in hex, with the built-in module (hashlib would load OpenSSL on the
    runner's path), imported under its name for this Python (a failed import would search
    sys.path). The runtime's and the bridge's one helper; the same as
    hookman.user_dirs.sha256_hex, which the runtime cannot import: a plugin carries only
    runtime/ and bridge/ (plugin/carry.py), and user_dirs sits below the runtime."""
    if not _sha256:
        try:
            if sys.version_info >= (3, 12):
                from _sha2 import sha256  # type: ignore[import-not-found]
            else:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
        except ImportError:
            from hashlib import sha256
        _sha256.append(sha256)
    return _sha256[0](data).hexdigest()


class _Repository:
    __slots__ = ("digests", "name", "root")

    def __init__(self, name: str, root: str, digests: Mapping[str, str]) -> None:
        self.name = name
        self.root = root
        self.digests = digests


# absolute repository root -> its package; package name -> its repository
_by_root: dict[str, _Repository] = {}
_by_name: dict[str, _Repository] = {}


class VerifiedLoader:
    """Executes one recorded module from the bytes whose digest matched."""

    def __init__(self, repository: _Repository, relative: str, path: str) -> None:
        self.repository = repository
        self.relative = relative
        self.path = path
        self.source: bytes | None = None

    def create_module(self, spec: object) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        data = read_verified(self.repository.digests, self.relative, self.path)
        self.source = data
        code = compile(data, self.path, "exec", dont_inherit=True)
        exec(code, module.__dict__)

    def get_source(self, fullname: str) -> str | None:
        """The checked source, for tracebacks (linecache asks the module's loader)."""
        return None if self.source is None else self.source.decode("utf-8", "replace")


def read_verified(digests: Mapping[str, str], relative: str, path: str) -> bytes:
    """The bytes of `path`, read once, when their digest is the one recorded for
    `relative`; StoreCopyChanged otherwise."""
    expected = digests.get(relative)
    if expected is None:
        raise StoreCopyChanged(relative, "not a module of the pinned commit")
    try:
        refuse_non_file(path)  # a named pipe would hold the read to the deadline
        with open(path, "rb") as handle:
            data = handle.read()
    except NotAFile as error:
        raise StoreCopyChanged(relative, f"cannot be read: {error}") from None
    except OSError as error:
        raise StoreCopyChanged(relative, f"cannot be read: {error.strerror or error}") from None
    if sha256_hex(data) != expected:
        raise StoreCopyChanged(relative)
    return data


def relative_in(path: str, root: str) -> str | None:
    """`path` relative to `root` as the record spells it (POSIX), taken lexically: a
    symlink is never resolved to pick the digest (a module replaced by a symlink to another
    recorded module is checked against its own digest). None when it is not under `root`."""
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    if relative == os.curdir or relative.startswith(os.pardir):
        return None
    return relative.replace(os.sep, "/")


def repository_package(root: str, digests: Mapping[str, str]) -> str:
    """The package made for the repository at `root` (made once, with these digests)."""
    key = os.path.abspath(root)
    repository = _by_root.get(key)
    if repository is None:
        name = f"{PACKAGE_PREFIX}{len(_by_root) + 1}"
        repository = _Repository(name, key, dict(digests))
        _by_root[key] = repository
        _by_name[name] = repository
        sys.modules[name] = _package_module(name, None)
        _install_finder()
    return repository.name


def module_spec(root: str, digests: Mapping[str, str], path: str, fallback_name: str) -> Any:
    """The spec that imports the hook module `path` of the repository at `root` verified:
    named in the repository's package when its path is made of identifiers (so its
    relative imports work), else `fallback_name`."""
    package = repository_package(root, digests)
    repository = _by_name[package]
    relative = relative_in(path, root)
    if relative is None:
        raise StoreCopyChanged(os.path.basename(path), "not in the repository's store copy")
    stem = relative[: -len(".py")] if relative.endswith(".py") else ""
    parts = stem.split("/") if stem else []
    ok = bool(parts) and all(part.isidentifier() for part in parts)
    name = ".".join([package, *parts]) if ok else fallback_name
    return _file_spec(name, repository, relative, is_package=False)


def _spec_class() -> Any:
    """importlib's ModuleSpec, from the frozen bootstrap the interpreter has loaded already
    (importlib.machinery would import the importlib package on the runner's path)."""
    bootstrap = sys.modules.get("_frozen_importlib")
    if bootstrap is None:  # another interpreter: the public spelling
        from importlib.machinery import ModuleSpec

        return ModuleSpec
    return bootstrap.ModuleSpec


def _file_spec(
    name: str,
    repository: _Repository,
    relative: str,
    *,
    is_package: bool,
    locations: list[str] | None = None,
) -> Any:
    ModuleSpec = _spec_class()
    path = os.path.join(repository.root, *relative.split("/"))
    spec = ModuleSpec(name, VerifiedLoader(repository, relative, path), origin=path)
    spec.has_location = True
    if is_package:
        spec.submodule_search_locations = locations or []
    return spec


def _recorded_spec(
    name: str, repository: _Repository, stem: str, locations: list[str] | None
) -> Any:
    """The spec of the recorded module `stem` (POSIX, no suffix): a module, a package, or a
    directory of modules; StoreCopyChanged when a file of that name is there but not
    recorded; None when there is nothing of that name. `locations`: the package's search
    path (None: empty, found by the package finder alone)."""
    digests = repository.digests
    if stem + ".py" in digests:
        return _file_spec(name, repository, stem + ".py", is_package=False)
    if stem + "/__init__.py" in digests:
        return _file_spec(
            name, repository, stem + "/__init__.py", is_package=True, locations=locations
        )
    if any(key.startswith(stem + "/") for key in digests):
        spec = _spec_class()(name, _NamespaceLoader(), is_package=True)
        spec.submodule_search_locations = locations or []
        return spec
    import _imp

    base = os.path.join(repository.root, *stem.split("/"))
    _refuse_link_out(repository.root, stem + ".py", base + ".py")
    for suffix in (".py", ".pyc", "", *_imp.extension_suffixes()):
        if os.path.lexists(base + suffix):
            raise StoreCopyChanged(stem + (suffix or "/"), "not a module of the pinned commit")
    return None


class LinkedOut(ImportError):
    """A module of a hook repository that is a symlink out of the repository: no digest
    was recorded for it, and running `hookman install` again does not change that."""

    def __init__(self, relative: str) -> None:
        super().__init__(
            f"{relative} is a symlink out of the repository, whose bytes hookman cannot "
            f"verify; make {relative} a regular file in the repository"
        )
        self.relative = relative


def _refuse_link_out(root: str, relative: str, path: str) -> None:
    """LinkedOut when `path` is a symlink whose target lies outside `root`."""
    if not os.path.islink(path):
        return
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if real != real_root and not real.startswith(real_root + os.sep):
        raise LinkedOut(relative)


def _package_module(name: str, spec: Any) -> ModuleType:
    module = type(sys)(name)
    module.__spec__ = spec or _spec_class()(name, None, is_package=True)
    module.__spec__.submodule_search_locations = []
    module.__path__ = []
    module.__package__ = name
    return module


class _NamespaceLoader:
    """A directory of the repository without an `__init__.py`: an empty package."""

    def create_module(self, spec: object) -> ModuleType:
        return _package_module(spec.name, spec)  # type: ignore[attr-defined]

    def exec_module(self, module: ModuleType) -> None:
        return None


class _VerifiedFinder:
    """Finds the submodules of the repository packages, among the recorded modules only."""

    @staticmethod
    def find_spec(fullname: str, path: object = None, target: object = None) -> Any:
        package, dot, rest = fullname.partition(".")
        repository = _by_name.get(package)
        if repository is None or not dot:
            return None
        spec = _recorded_spec(fullname, repository, rest.replace(".", "/"), None)
        if spec is None:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return spec


class _DirectoryFinder:
    """The path entry finder of a directory of a repository's store tree (a hook that puts
    its own directory on sys.path and imports a sibling absolutely): recorded modules only,
    verified; a name with no file there is left to the next entry of sys.path."""

    def __init__(self, repository: _Repository, directory: str, prefix: str) -> None:
        self.repository = repository
        self.directory = directory
        self.prefix = prefix

    def find_spec(self, fullname: str, target: object = None) -> Any:
        stem = self.prefix + fullname.rpartition(".")[2]
        child = os.path.join(self.directory, fullname.rpartition(".")[2])
        return _recorded_spec(fullname, self.repository, stem, [child])

    def invalidate_caches(self) -> None:
        return None


def _in_tree(entry: str) -> tuple[_Repository, str] | None:
    """The repository whose tree holds the directory `entry` (as written or resolved) and
    the directory's POSIX path in it ("" for the root, else ending in "/")."""
    paths = {os.path.abspath(entry or os.curdir), os.path.realpath(entry or os.curdir)}
    for root, repository in _by_root.items():
        for base in {root, os.path.realpath(root)}:
            for path in paths:
                if path == base or path.startswith(base + os.sep):
                    relative = os.path.relpath(path, base).replace(os.sep, "/")
                    return repository, "" if relative == os.curdir else relative + "/"
    return None


def _path_hook(entry: str) -> _DirectoryFinder:
    """sys.path_hooks: a directory inside a verified repository's tree gets its finder;
    any other entry goes on to the next hook (ImportError), a file too (runpy.run_path asks
    the path hooks about the file it runs)."""
    found = _in_tree(entry)
    if found is None or not os.path.isdir(entry or os.curdir):
        raise ImportError("not a directory of a hook repository")
    return _DirectoryFinder(found[0], os.path.abspath(entry or os.curdir), found[1])


def _install_finder() -> None:
    if not any(finder is _VerifiedFinder for finder in sys.meta_path):
        sys.meta_path.insert(0, _VerifiedFinder)  # type: ignore[arg-type]
    if _path_hook not in sys.path_hooks:
        sys.path_hooks.insert(0, _path_hook)
    for key in [key for key in sys.path_importer_cache if isinstance(key, str)]:
        if _in_tree(key) is not None:  # a finder cached before the tree was registered
            del sys.path_importer_cache[key]
