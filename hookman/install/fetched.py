"""What an install fetched into the store and how it changed hookman-pins.json, as data
(commands/sync_report.py words it): so `install` and `autoupdate` say when new code came and
when the committed pins file changed.

The store is read, never written, here: which commits of a repository are stored is
what `store.is_stored` says for each entry directory before and after.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from hookman.project.config import HookSpec
from hookman.project.pins import Pin


class Fetched(NamedTuple):
    """A commit of a repository that was not in the store before this command."""

    repo: str  # as hookman.toml gives it
    rev: str
    commit: str


class PinChange(NamedTuple):
    """One (repo, rev) of hookman-pins.json: its commit before (None: new) and now (None:
    dropped, no hook uses it any more)."""

    repo: str
    rev: str
    old: str | None
    new: str | None


StoreSnapshot = dict[str, frozenset[str]]  # fetch URL -> commits stored


def repos_of(hooks: Sequence[HookSpec]) -> list[str]:
    return list(dict.fromkeys(hook.source.value for hook in hooks if hook.source.kind == "repo"))


def store_snapshot(repos: Iterable[str], project_dir: Path) -> StoreSnapshot:
    """The commits stored now for each of `repos` (as hookman.toml gives them)."""
    repos = list(repos)
    if not repos:
        return {}
    from hookman.hooks import store

    snapshot: StoreSnapshot = {}
    for repo in repos:
        url = store.fetch_url(repo, project_dir)
        directory = store.entry_dir(url, "-").parent
        try:
            names = [entry.name for entry in directory.iterdir()]
        except OSError:
            names = []
        snapshot[url] = frozenset(name for name in names if store.is_stored(url, name))
    return snapshot


def fetched_since(
    before: StoreSnapshot, pins: dict[tuple[str, str], Pin], project_dir: Path
) -> list[Fetched]:
    """The pinned commits that are stored now and were not in `before`."""
    if not pins:
        return []
    from hookman.hooks import store

    found: list[Fetched] = []
    for (repo, rev), pin in pins.items():
        url = store.fetch_url(repo, project_dir)
        if pin.commit not in before.get(url, frozenset()) and store.is_stored(url, pin.commit):
            found.append(Fetched(repo, rev, pin.commit))
    return list(dict.fromkeys(found))


def pin_changes(
    old: dict[tuple[str, str], Pin], new: dict[tuple[str, str], Pin]
) -> list[PinChange]:
    """How hookman-pins.json changes from `old` to `new` (empty: it is not rewritten)."""
    changes: list[PinChange] = []
    for key in dict.fromkeys([*old, *new]):
        before = old[key].commit if key in old else None
        after = new[key].commit if key in new else None
        if before != after:
            changes.append(PinChange(key[0], key[1], before, after))
    return changes
