"""The user registry (`paths.registry_path()`): named hooks any project can install.

    [hooks.guard]
    path = "/home/me/hooks/guard.py"

Edited with tomlkit under a file lock so comments survive and concurrent edits are not lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import tomlkit
from filelock import FileLock

from hookman import paths
from hookman.atomic_file import write_text_if_changed
from hookman.errors import HookmanError
from hookman.project_config import parse_toml

LOCK_TIMEOUT_S = 30.0


def registry_display_path() -> str:
    return str(paths.registry_path())


def registry_entries() -> dict[str, Path]:
    """Registry name -> absolute hook path, in file order (empty when there is no registry)."""
    return _entries(_read_document())


def add_registry_entry(name: str, hook_path: Path) -> Path | None:
    """Register `hook_path` (absolute) under `name`; returns the path it replaced, if any."""
    with _locked():
        document = _read_document()
        previous = _entries(document).get(name)
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
        _write_document(document)
    return previous


def remove_registry_entry(name: str) -> Path:
    """Take `name` out of the registry; returns its path. KeyError when it is not there.

    Other entries are not validated, so a broken entry can always be removed."""
    with _locked():
        document = _read_document(validate=False)
        hooks = document.get("hooks")
        if not isinstance(hooks, dict) or name not in hooks:
            raise KeyError(name)
        entry = hooks[name]
        path_text = entry.get("path") if isinstance(entry, dict) else None
        del hooks[name]
        _write_document(document)
    return Path(str(path_text))


@contextmanager
def _locked() -> Iterator[None]:
    path = paths.registry_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock", timeout=LOCK_TIMEOUT_S):
        yield


def _read_document(*, validate: bool = True) -> tomlkit.TOMLDocument:
    path = paths.registry_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return tomlkit.document()
    except (OSError, UnicodeDecodeError) as error:
        raise HookmanError(
            f"cannot read the user registry {path}: {error}.",
            "check the file's permissions and encoding.",
        ) from None
    document = parse_toml(text, str(path))
    if validate:
        _entries(document)
    return document


def _write_document(document: tomlkit.TOMLDocument) -> None:
    path = paths.registry_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_if_changed(path, tomlkit.dumps(document))


def _entries(document: tomlkit.TOMLDocument) -> dict[str, Path]:
    hooks = document.get("hooks", {})
    where = registry_display_path()
    if not isinstance(hooks, dict):
        raise HookmanError(
            f"`hooks` in the user registry {where} must be a table.",
            f"fix {where} by hand; hookman left it untouched.",
        )
    entries: dict[str, Path] = {}
    for name, entry in hooks.items():
        path_text = entry.get("path") if isinstance(entry, dict) else None
        if not isinstance(path_text, str) or not Path(path_text).is_absolute():
            raise HookmanError(
                f"registry entry {name!r} in {where} needs an absolute `path`.",
                f"fix {where} by hand, or remove it with `hookman registry remove {name}`.",
            )
        entries[name] = Path(path_text)
    return entries
