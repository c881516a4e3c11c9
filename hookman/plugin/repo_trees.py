"""What a plugin carries of a hook repository: the whole store copy of its pinned commit
(every file its fetch recorded, in the same layout), so a hook imports its siblings
(`from .words import REFUSED`) and reads its data files there as it does in a project.

The copy goes to `hookman-runner/repos/KEY/` and the plugin's manifest gives the hook the
same `package_root` and `digests` an install gives it (paths relative to the manifest): the
plugin's runner imports every module of the copy only through the digest check
(hookman/runtime/verified_import.py), so a module changed in the plugin is refused too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookman.errors import HookmanError
from hookman.hooks import store
from hookman.hooks.repo_source import resolve_repo_hook
from hookman.project.config import HookSpec
from hookman.project.pins import read_pins

REPOS_DIR = "repos"  # under hookman-runner/


@dataclass
class RepoCopies:
    """The repository trees a plugin carries, and where each repository hook is in them."""

    # runner-relative tree directory -> {POSIX path in the tree: bytes}
    trees: dict[str, dict[str, bytes]] = field(default_factory=dict)
    # hook name -> its module, relative to the runner directory
    paths: dict[str, Path] = field(default_factory=dict)
    # hook name -> the manifest keys install writes for a repository hook (runner-relative)
    origins: dict[str, dict[str, Any]] = field(default_factory=dict)
    # hook name -> the module's absolute path in the store (for messages)
    store_paths: dict[str, Path] = field(default_factory=dict)
    _keys: dict[tuple[str, str], str] = field(default_factory=dict)

    def add(self, hook: HookSpec, project_dir: Path) -> None:
        """Carry the store copy of `hook`'s repository (once per repository and commit)."""
        source = hook.source
        found = resolve_repo_hook(hook, project_dir, read_pins(project_dir), fetch=False)
        url = store.fetch_url(source.value, project_dir)
        commit = found.pin.commit
        key = self._keys.get((url, commit))
        if key is None:
            key = self._new_key(source.value, commit)
            self.trees[key] = _store_copy(hook, url, commit)
            self._keys[(url, commit)] = key
        relative = found.module_path.relative_to(found.tree).as_posix()
        self.paths[hook.name] = Path(f"{key}/{relative}")
        self.store_paths[hook.name] = found.module_path
        self.origins[hook.name] = {
            "repo": source.value,
            "rev": source.rev,
            "commit": commit,
            "package_root": key,
            "digests": store.module_digests(url, commit),
        }

    def _new_key(self, repo: str, commit: str) -> str:
        stem = re.sub(r"\.git$", "", repo.rstrip("/").rsplit("/", 1)[-1])
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "repo"
        key = f"{REPOS_DIR}/{stem}-{commit[:12]}"
        number = 2
        while key in self.trees:
            key = f"{REPOS_DIR}/{stem}-{commit[:12]}-{number}"
            number += 1
        return key


def _store_copy(hook: HookSpec, url: str, commit: str) -> dict[str, bytes]:
    """The files of the store entry as fetched; a HookmanError when the entry changed since
    its fetch (a plugin must carry the pinned commit, nothing edited in the store)."""
    where = hook.source.describe()
    changed = store.changed_files(url, commit)
    if changed is None or changed:
        shown = "its fetch record is unreadable" if changed is None else ", ".join(changed[:3])
        raise HookmanError(
            f"the hookman store copy of {where} (the hook {hook.name!r}) is not as it was "
            f"fetched ({shown}), so a plugin cannot carry it; no plugin was built.",
            "run `hookman install` to fetch the pinned commit again, then build the plugin.",
        )
    unnamed = [
        path
        for path in sorted(store.fetched_contents_names(url, commit))
        if not store.is_utf8(path)
    ]
    if unnamed:
        shown = unnamed[0].encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise HookmanError(
            f"the repository of {where} (the hook {hook.name!r}) holds {shown}, a file whose "
            "name is not UTF-8, which a plugin cannot name in its records; no plugin was built.",
            "give that file a UTF-8 name in the repository, commit, pin that commit "
            "(`hookman autoupdate`), then build the plugin.",
        )
    try:
        return store.fetched_contents(url, commit)
    except OSError as error:
        raise HookmanError(
            f"the hookman store copy of {where} (the hook {hook.name!r}) cannot be read "
            f"({error.strerror or error}); no plugin was built.",
            "run `hookman install` to fetch it again, then build the plugin.",
        ) from None
