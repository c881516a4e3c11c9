"""The sentinel's stamp and the files it watches (project/command-sentinel.sh).

A guarded event's sentinel entry reaches the tools its blocking entry does not
(install_plan._sentinels). Its command compares, with the shell's built-in `[ A -nt B ]`,
the stamp in the project's state directory against each file install read: hookman.toml,
the pins (where a repository hook is enabled), each path hook's module, the helper modules
it imported when install learned it (a `sys.path` entry of its own outside its directory
included), and the directories that hold them (watched_files). While the stamp
is newer than all of them, nothing changed since install and the tool runs with no process
but the shell; anything else runs the guarded command, whose runner denies naming `hookman
install` when the project moved on (or a path hook guards what install did not wire), and
answers `{}` otherwise.

Install touches the stamp after writing everything, at a whole second past the newest
watched file (busybox's `[` compares whole seconds): a file a pull writes within that second
is caught by the next prompt's gate, not by the sentinel. So is a file copied with an older
modification time kept (`cp -p`, `rsync -t`, `tar -x`; git writes the time of the checkout):
`[` has no test of the change time, which no user can set. The runner's own checks (the
sha256 of hookman.toml and the pins, the path hooks' guards) decide in every case; the stamp
only spares the calls nothing changed for a Python start.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path

from hookman import paths
from hookman.bridge.guard_drift import cached_sources
from hookman.bridge.protocol import SENTINEL_STAMP_NAME
from hookman.project.config import HookSpec
from hookman.project.location import config_path
from hookman.project.pins import pins_path

# Path hooks past this many are watched by their directories alone: the command stays short
# (an `sh -c` argument longer than 128 KiB cannot start at all).
MAX_WATCHED_MODULES = 64


def stamp_path(project_dir: Path) -> Path:
    return paths.project_state_dir(project_dir) / SENTINEL_STAMP_NAME


def watched_files(project_dir: Path, hooks: Sequence[HookSpec]) -> list[Path]:
    """What a sentinel watches: hookman.toml, the pins where an enabled hook comes from a
    repository, each enabled path hook's module and the helper modules it imported when
    install learned it, wherever they lie (subscriptions.json; past MAX_WATCHED_MODULES
    files in all, the hook modules alone), the directories that hold every one of them, and
    the directory holding each symlink on their paths. A pull writes a file by making it
    anew, which changes its directory too: that is how a hook's sibling module or data file,
    a helper past the cap, or a symlink pointed elsewhere (whose target may be older than
    the stamp: a link at the end of the path, or a linked directory on the way) is seen."""
    enabled = [hook for hook in hooks if hook.enabled]
    config = config_path(project_dir)
    files = [config]
    if any(hook.source.kind == "repo" for hook in enabled):
        files.append(pins_path(project_dir))
    modules = [
        Path(os.path.normpath(project_dir / hook.source.value))
        for hook in enabled
        if hook.source.kind == "path"
    ]
    helpers = _imported_files(project_dir, modules)
    code = [*modules, *helpers]
    directories = [config.parent, *(path.parent for path in code)]
    directories += [link for path in code for link in _symlink_homes(path)]
    if len(code) <= MAX_WATCHED_MODULES:
        files += code
    elif len(modules) <= MAX_WATCHED_MODULES:
        files += modules  # the helpers by their directories (the gate sees the rest)
    return list(dict.fromkeys([*files, *directories]))


def _imported_files(project_dir: Path, modules: Sequence[Path]) -> list[Path]:
    """The files beyond the hook modules themselves that they imported when install last
    learned them (the subscriptions cache's "sources"), normalised, in order."""
    sources = cached_sources(str(paths.project_state_dir(project_dir)))
    own = {str(module) for module in modules}
    found: dict[str, None] = {}
    for module in modules:
        for path in sources.get(str(module), ()):
            if os.path.isabs(path) and os.path.normpath(path) not in own:
                found[os.path.normpath(path)] = None
    return [Path(path) for path in found]


def _symlink_homes(path: Path) -> list[Path]:
    """The directories holding a symlink on the way to `path` (its last part included):
    pointing such a link elsewhere changes its directory, not the files it led to."""
    homes = []
    current = Path(path.anchor)
    for part in path.parts[1:]:
        current = current / part
        with contextlib.suppress(OSError):
            if stat.S_ISLNK(os.lstat(current).st_mode):
                homes.append(current.parent)
    return homes


def stamp_time(watched: Sequence[Path], now: float) -> float | None:
    """When the stamp says install ran: now, or a whole second past the newest watched
    file's modification when that is later; None when one is dated past now and the next
    second (clock skew, an archive's dates): a stamp past it would hide every change until
    then, so there is none, and the sentinel runs the runner on every call."""
    newest = max((_mtime(path) for path in watched), default=0.0)
    if newest > now + 1.0:
        return None
    return max(now, math.floor(newest) + 1.0)


def touch_stamp(project_dir: Path, watched: Sequence[Path]) -> None:
    """Make the stamp newer than every watched file, as they are now (or remove it: see
    stamp_time)."""
    path = stamp_path(project_dir)
    moment = stamp_time(watched, time.time())
    if moment is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.utime(descriptor, (moment, moment))
    finally:
        os.close(descriptor)


def stamp_is_current(project_dir: Path, watched: Sequence[Path]) -> bool:
    """Whether the stamp is newer than every watched file that exists (what the sentinel's
    fast path needs; a missing stamp is not)."""
    try:
        stamp = os.stat(stamp_path(project_dir)).st_mtime
    except OSError:
        return False
    return all(math.floor(stamp) > _mtime(path) for path in watched)


def _mtime(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0
