"""Whether git ignores .claude/settings.local.json (`git check-ignore`), remembered while
what git reads to answer is unchanged.

doctor asks on every run; a child process costs more than the rest of the check. The answer
(ignored, or not) is kept in the project's state dir (`git-ignored.json`) with the stat of every
file git reads for it (install/unchanged.py `_git_files`: the .gitignore files from .claude/
up to the work tree's root, the repository's exclude file, config and index, the user's and
the system's git config and ignore file) and the environment git's answer depends on. While
every one of those stats and that environment is the same, the kept answer is given without
running git. Never kept: a git config that names another excludes file or includes other
config (files this list does not stat), a worktree or submodule (.git is a file), a file
changed within the last second (a coarse clock could hide a second change: "racily clean",
as git says), a state dir other users can write, or an answer other than 0 or 1.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
from pathlib import Path

STAMP_NAME = "git-ignored.json"
STAMP_FORMAT = 1
RACY_NS = 1_000_000_000
TIMEOUT_S = 5
_ENV_NAMES = ("HOME", "PATH", "XDG_CONFIG_HOME")
# git config that makes git read files the stamp does not stat
_UNTRACKED_CONFIG = (b"excludesfile", b"include")


def check_ignore(project_dir: Path, local: Path) -> int | None:
    """`git check-ignore -q -- LOCAL`'s exit code in `project_dir` (0: ignored, 1: not
    ignored, 128: git's error), or None when git could not be run."""
    stamp_path = _stamp_path(project_dir)
    files = None if stamp_path is None else _git_files(project_dir)
    key = None if files is None else _key(local, files)
    if key is not None and stamp_path is not None:
        kept = _kept_code(stamp_path, key)
        if kept is not None:
            return kept
    started = time.time_ns()
    try:
        done = subprocess.run(
            ["git", "check-ignore", "-q", "--", str(local)],
            cwd=project_dir,
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if key is not None and stamp_path is not None and done.returncode in (0, 1):
        files_now = _git_files(project_dir)
        if files_now is not None and _key(local, files_now) == key and not _racy(files, started):
            _keep(stamp_path, key, done.returncode)
    return done.returncode


def _stamp_path(project_dir: Path) -> Path | None:
    """Where the answer is kept; None when the project's state dir is missing (nothing
    installed: doctor creates no directory) or other users could write it."""
    from hookman import paths
    from hookman.bridge.private_dir import private_dir_problem

    state = paths.project_state_dir(project_dir)
    if not state.is_dir() or private_dir_problem(str(state)) is not None:
        return None
    return state / STAMP_NAME


def _git_files(project_dir: Path) -> list[str] | None:
    from hookman.install.unchanged import _git_files as git_files

    files = git_files(str(project_dir))
    if files is None or any(_names_other_files(path) for path in files if _is_config(path)):
        return None
    return files


def _is_config(path: str) -> bool:
    return os.path.basename(path) in ("config", ".gitconfig", "gitconfig") or path in (
        os.environ.get("GIT_CONFIG_GLOBAL"),
        os.environ.get("GIT_CONFIG_SYSTEM"),
    )


def _names_other_files(config: str) -> bool:
    try:
        with open(config, "rb") as handle:
            text = handle.read().lower()
    except OSError:
        return False  # missing: its stat says so
    return any(word in text for word in _UNTRACKED_CONFIG)


def _key(local: Path, files: list[str]) -> dict[str, object]:
    from hookman.bridge.project_moved import stat_text

    environment = {
        name: value
        for name, value in sorted(os.environ.items())
        if name in _ENV_NAMES or name.startswith("GIT_")
    }
    return {
        "format": STAMP_FORMAT,
        "local": str(local),
        "env": environment,
        "files": {path: stat_text(path) for path in files},
    }


def _kept_code(stamp_path: Path, key: dict[str, object]) -> int | None:
    try:
        with open(stamp_path, encoding="utf-8") as handle:
            kept = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("key") != key:
        return None
    code = kept.get("code")
    return code if code in (0, 1) and not isinstance(code, bool) else None


def _racy(files: list[str], since: int) -> bool:
    for path in files:
        try:
            found = os.stat(path)
        except OSError:
            continue
        if max(found.st_mtime_ns, found.st_ctime_ns) > since - RACY_NS:
            return True
    return False


def _keep(stamp_path: Path, key: dict[str, object], code: int) -> None:
    from hookman.atomic_file import write_text_if_changed

    with contextlib.suppress(OSError):  # only a cache
        write_text_if_changed(stamp_path, json.dumps({"key": key, "code": code}))
