"""The cache of what hooks subscribe to (`subscriptions.json` in the project's state dir).

One entry per module path: the child's answer for it (hooks/subscriptions.py), with the
digests of the module and of the files it imported from outside the interpreter's own
directories (the project's helpers). An entry is good while every one of those files is
byte for byte what it was, for the same hookman and interpreter. Reading it needs only the
stdlib, so `list` and `doctor` use it to compare a hook's code with hookman.toml without
starting a child while nothing changed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import hookman
from hookman.bridge.guard_drift import CACHE_FILE_NAME

CACHE_FORMAT = 1


class SubscriptionCache:
    """The cache read once, with every file's digest computed at most once: a project of
    hundreds of hooks sharing helper modules checks each file once."""

    def __init__(self, project_dir: Path) -> None:
        self.project_dir = project_dir
        self.modules = _read_cache(project_dir)
        self.key = _cache_key(project_dir)
        self._digests: dict[str, str | None] = {}

    def digest(self, path: str) -> str | None:
        if path not in self._digests:
            self._digests[path] = file_digest(path)
        return self._digests[path]

    def answer(self, module_path: Path) -> dict[str, Any] | None:
        """The child's answer for this module when its entry is still good, else None."""
        entry = self.modules.get(str(module_path))
        if not isinstance(entry, dict) or entry.get("key") != self.key:
            return None
        sources = entry.get("sources")
        answer = entry.get("answer")
        if not isinstance(sources, dict) or not isinstance(answer, dict):
            return None
        if str(module_path) not in sources:
            return None
        if any(self.digest(path) != digest for path, digest in sources.items()):
            return None
        return answer

    def remember(self, answers: Mapping[Path, dict[str, Any]]) -> None:
        """Keep these answers (each a hook that loaded) with the digests of the files they
        depend on, in one write; best effort."""
        prefixes = tuple(
            os.path.join(os.path.realpath(prefix), "")
            for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}
        )
        kept = 0
        for module_path, answer in answers.items():
            files = [str(module_path), *(answer.get("sources") or [])]
            sources = {
                path: file_digest(path)  # read again now: the child may have changed one
                for path in dict.fromkeys(files)
                if not os.path.realpath(path).startswith(prefixes)
            }
            if any(digest is None for digest in sources.values()):
                continue
            self.modules[str(module_path)] = {"key": self.key, "sources": sources, "answer": answer}
            kept += 1
        if kept:
            _write_cache(self.project_dir, self.modules)


def learned_before(module_path: Path, project_dir: Path) -> dict[str, Any] | None:
    """The child's answer for this module from the cache, when the module and every file
    it imported from outside the interpreter's own directories (the project's helpers) are
    byte for byte what they were, for the same hookman and interpreter; else None."""
    return SubscriptionCache(project_dir).answer(module_path)


def remember(module_path: Path, project_dir: Path, answer: dict[str, Any]) -> None:
    """Cache the child's answer with the digests of the files it depends on; best effort."""
    SubscriptionCache(project_dir).remember({module_path: answer})


def _write_cache(project_dir: Path, modules: dict[str, Any]) -> None:
    from hookman import paths
    from hookman.atomic_file import atomic_write_text
    from hookman.bridge.private_dir import make_private_dir

    state_dir, problem = make_private_dir(str(paths.project_state_dir(project_dir)))
    if problem is not None:  # another user could write there: no cache
        return
    path = Path(state_dir) / CACHE_FILE_NAME
    with contextlib.suppress(OSError):  # atomic_file's sweeper knows its temporary files
        atomic_write_text(path, json.dumps({"format": CACHE_FORMAT, "modules": modules}))


def _cache_path(project_dir: Path) -> str | None:
    """The cache, only in a state directory no other user can write (they could plant what
    a hook subscribes to); else None."""
    from hookman import paths
    from hookman.bridge.private_dir import private_dir_problem

    state_dir = paths.project_state_dir(project_dir)
    if private_dir_problem(str(state_dir)) is not None:
        return None
    return str(state_dir / CACHE_FILE_NAME)


def _cache_key(project_dir: Path) -> list[str]:
    return [hookman.__version__, sys.executable, str(project_dir.resolve())]


def _read_cache(project_dir: Path) -> dict[str, Any]:
    path = _cache_path(project_dir)
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, RecursionError):  # planted nesting: read as no cache
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return {}
    modules = data.get("modules")
    return modules if isinstance(modules, dict) else {}


def file_digest(path: str) -> str | None:
    """The sha256 of the file's bytes (bridge/project_moved.py file_digest: never waiting on
    a named pipe); None when it cannot be read at all, so no answer is kept for it."""
    from hookman.bridge.project_moved import UNREADABLE
    from hookman.bridge.project_moved import file_digest as digest_of

    found = digest_of(path)
    return None if found == UNREADABLE else found
