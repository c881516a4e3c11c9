"""The user registry (`paths.registry_path()`): named hooks any project can install.

    [hooks.guard]
    path = "/home/me/hooks/guard.py"

Edited with tomlkit under a file lock so comments survive and concurrent edits are not lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hookman import paths
from hookman.errors import HookmanError
from hookman.project.config import TextLayout, parse_toml, split_layout
from hookman.toml_data import parse_toml_or_none

if TYPE_CHECKING:
    import tomlkit

# tomlkit and filelock are imported by the functions that edit (each costs a good part of a
# bare Python start); reading the entries uses tomllib.

LOCK_TIMEOUT_S = 30.0


def registry_display_path() -> str:
    return str(paths.registry_path())


class _Registry(NamedTuple):  # not a dataclass: those compile methods at every start
    """The registry document and its text layout."""

    document: tomlkit.TOMLDocument
    layout: TextLayout


def registry_entries() -> dict[str, Path]:
    """Registry name -> absolute hook path, in file order (empty when there is no registry).

    A broken entry (no absolute `path`) is left out, so it blocks nothing else;
    `registry_problems` says what is wrong with it. Read with tomllib (tomlkit only to
    name the line and column of a syntax error)."""
    return _entries(_registry_data())


def registry_repo_entries() -> dict[str, tuple[str, str, str]]:
    """Registry name -> (repo, rev, hook) for the entries that point at a hook repository:

    [hooks.no-rm-rf]
    repo = "https://example.org/acme/agent-hooks.git"
    rev = "v1.2.0"
    hook = "no-rm-rf"
    """
    entries: dict[str, tuple[str, str, str]] = {}
    for name, entry in _hooks_table(_registry_data()).items():
        repo = _repo_entry(entry)
        if repo is not None:
            entries[name] = repo
    return entries


def _repo_entry(entry: object) -> tuple[str, str, str] | None:
    if not isinstance(entry, dict):
        return None
    values = (entry.get("repo"), entry.get("rev"), entry.get("hook"))
    if not all(isinstance(value, str) and value for value in values):
        return None
    return values  # type: ignore[return-value]


def add_registry_repo_entry(name: str, repo: str, rev: str, hook: str) -> None:
    """Register the hook `hook` of the repository `repo` at `rev` under `name`."""
    with _locked():
        import tomlkit

        registry = _read_document()
        document = registry.document
        hooks = document.get("hooks")
        if hooks is None:
            hooks = tomlkit.table(is_super_table=True)
            document["hooks"] = hooks
        entry = tomlkit.table()
        entry["repo"] = repo
        entry["rev"] = rev
        entry["hook"] = hook
        if name in hooks:
            del hooks[name]
        hooks[name] = entry
        _write_document(registry)


def registry_problems() -> dict[str, str]:
    """Registry name -> why the entry cannot be used, for the broken entries only."""
    return _problems(_registry_data())


def _registry_data() -> tomlkit.TOMLDocument | dict[str, Any]:
    """The registry's data, read with tomllib; {} when there is no registry."""
    raw_text = _read_text(paths.registry_path())
    if raw_text is None:
        return {}
    document = parse_toml_or_none(split_layout(raw_text)[0])
    if document is None:  # tomlkit names the line and column of the syntax error
        return _read_document().document
    return document


def add_registry_entry(name: str, hook_path: Path) -> Path | None:
    """Register `hook_path` (absolute) under `name`; returns the path it replaced, if any."""
    with _locked():
        import tomlkit

        registry = _read_document()
        document = registry.document
        previous = _entries(document).get(name)
        hooks = document.get("hooks")
        if isinstance(hooks, dict) and not isinstance(hooks.get(name, {}), dict):
            del hooks[name]  # a broken `name = "..."` line: the new entry replaces it
        hooks = document.get("hooks")
        if hooks is None:
            hooks = tomlkit.table(is_super_table=True)
            document["hooks"] = hooks
        entry = hooks.get(name)
        if entry is None:
            entry = tomlkit.table()
            hooks[name] = entry
        if entry.get("path") != str(hook_path):
            entry["path"] = str(hook_path)
        _write_document(registry)
    return previous


def remove_registry_entry(name: str) -> Path | None:
    """Take `name` out of the registry; returns its path (None when the entry had no
    usable one). KeyError when it is not there.

    Other entries are not validated, so a broken entry can always be removed."""
    with _locked():
        registry = _read_document(validate=False)
        hooks = registry.document.get("hooks")
        if not isinstance(hooks, dict) or name not in hooks:
            raise KeyError(name)
        entry = hooks[name]
        path_text = entry.get("path") if isinstance(entry, dict) else None
        del hooks[name]
        _write_document(registry)
    return Path(path_text) if isinstance(path_text, str) else None


@contextmanager
def _locked() -> Iterator[None]:
    # Imported here: filelock costs about 1.5x a bare Python start, and reading commands
    # (list, registry list, install resolving a name) never lock the registry.
    from filelock import FileLock, Timeout

    path = paths.registry_path()
    lock = FileLock(str(path) + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock.acquire(timeout=LOCK_TIMEOUT_S)
    except Timeout as error:
        raise HookmanError(
            f"another hookman is changing the user registry {path} and did not finish "
            f"within {LOCK_TIMEOUT_S:g} seconds.",
            f"wait for it and try again; if none is running, delete {path}.lock.",
        ) from error
    except OSError as error:
        raise HookmanError(
            f"hookman cannot lock the user registry {path}: {error.strerror or error}.",
            "check the permissions of its directory, or set HOOKMAN_HOME.",
        ) from error
    try:
        yield
    finally:
        lock.release()


def _read_text(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise HookmanError(
            f"cannot read the user registry {path}: {error}.",
            "check the file's permissions and encoding.",
        ) from None


def _read_document(*, validate: bool = True) -> _Registry:
    import tomlkit

    path = paths.registry_path()
    raw_text = _read_text(path)
    if raw_text is None:
        return _Registry(tomlkit.document(), TextLayout())
    text, layout = split_layout(raw_text)
    document = parse_toml(text, str(path))
    if validate:
        _entries(document)
    return _Registry(document, layout)


def _write_document(registry: _Registry) -> None:
    import tomlkit

    from hookman.atomic_file import write_text_if_changed

    path = paths.registry_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_if_changed(path, registry.layout.apply(tomlkit.dumps(registry.document)))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write the user registry {path}: {error.strerror or error}.",
            "check that the file and its directory are writable.",
        ) from error


def _hooks_table(document: tomlkit.TOMLDocument | dict[str, Any]) -> dict[str, object]:
    hooks = document.get("hooks", {})
    if not isinstance(hooks, dict):
        where = registry_display_path()
        raise HookmanError(
            f"`hooks` in the user registry {where} must be a table.",
            f"fix {where} by hand; hookman left it untouched.",
        )
    return hooks


def _entry_path(entry: object) -> Path | None:
    path_text = entry.get("path") if isinstance(entry, dict) else None
    if not isinstance(path_text, str) or not Path(path_text).is_absolute():
        return None
    return Path(path_text)


def _entries(document: tomlkit.TOMLDocument | dict[str, Any]) -> dict[str, Path]:
    entries: dict[str, Path] = {}
    for name, entry in _hooks_table(document).items():
        path = _entry_path(entry)
        if path is not None:
            entries[name] = path
    return entries


def _problems(document: tomlkit.TOMLDocument | dict[str, Any]) -> dict[str, str]:
    return {
        name: "needs an absolute `path`"
        for name, entry in _hooks_table(document).items()
        if _entry_path(entry) is None and _repo_entry(entry) is None
    }
