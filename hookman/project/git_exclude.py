"""Keep settings.local.json (and Codex CLI's .codex/hooks.json) out of git through
`.git/info/exclude` (never `.gitignore`, which is the team's committed file).
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
from enum import Enum
from pathlib import Path
from typing import NamedTuple

EXCLUDE_COMMENT = "# added by hookman: machine-local Claude Code settings"

_GIT_TIMEOUT_SECONDS = 10
_GITIGNORE_SPECIAL = re.compile(r"[\\*?\[\]]")


class Excluded(Enum):
    """What `ensure_git_ignored` found or did."""

    ADDED = "added"  # a pattern appended to `exclude_file`
    ALREADY_IGNORED = "already-ignored"
    NOT_A_WORK_TREE = "not-a-work-tree"
    NO_GIT = "no-git"  # git is not installed
    TRACKED = "tracked"  # committed to git: ignoring it has no effect
    ASK_FAILED = "ask-failed"  # git did not answer (`error`)
    NEWLINE = "newline"  # a path with a newline: no exclude pattern can hold it
    WRITE_FAILED = "write-failed"  # `exclude_file` could not be appended to (`error`)
    STILL_NOT_IGNORED = "still-not-ignored"  # appended, yet git does not ignore it ('!')


class GitExclusion(NamedTuple):
    """The outcome for `path` (relative to the project); `exclude_file` as shown to the user
    (relative to the project when inside it), `error` what failed."""

    outcome: Excluded
    path: str
    exclude_file: str = ""
    error: str = ""


class _GitFailed(Exception):
    pass


def is_tracked(project_dir: Path, relative_path: str) -> bool:
    """Whether git tracks `relative_path` (False outside a work tree or without git)."""
    try:
        return _is_tracked(project_dir, relative_path)
    except (OSError, subprocess.SubprocessError):
        return False


def ensure_git_ignored(
    project_dir: Path, relative_path: str, comment: str = EXCLUDE_COMMENT
) -> GitExclusion:
    """Make git ignore `relative_path` (relative to `project_dir`) if it does not already;
    what was found or done (commands/git_wording.py says it)."""

    def outcome(excluded: Excluded, exclude_file: str = "", error: str = "") -> GitExclusion:
        return GitExclusion(excluded, relative_path, exclude_file, error)

    try:  # the common case, answered by one git process (check-ignore needs a work tree)
        if _is_ignored(project_dir, relative_path):
            return outcome(Excluded.ALREADY_IGNORED)
    except (_GitFailed, OSError):
        pass  # not a work tree, or no git: told apart below
    try:
        if _git(project_dir, "rev-parse", "--is-inside-work-tree").strip() != "true":
            return outcome(Excluded.NOT_A_WORK_TREE)
    except _GitFailed:
        return outcome(Excluded.NOT_A_WORK_TREE)
    except FileNotFoundError:
        return outcome(Excluded.NO_GIT)
    try:
        if _is_ignored(project_dir, relative_path):
            return outcome(Excluded.ALREADY_IGNORED)
        if _is_tracked(project_dir, relative_path):
            return outcome(Excluded.TRACKED)
        prefix = _git(project_dir, "rev-parse", "--show-prefix").strip()
        exclude_file = _exclude_file(project_dir)
    except (_GitFailed, OSError) as error:
        return outcome(Excluded.ASK_FAILED, error=str(error))
    if "\n" in relative_path or "\n" in prefix:
        return outcome(Excluded.NEWLINE)
    shown = _display_path(exclude_file, project_dir)
    try:
        _append_pattern(exclude_file, _anchored_pattern(prefix + relative_path), comment)
    except OSError as error:
        return outcome(Excluded.WRITE_FAILED, shown, str(error.strerror or error))
    try:
        if not _is_ignored(project_dir, relative_path):
            return outcome(Excluded.STILL_NOT_IGNORED, shown)
    except (_GitFailed, OSError):
        pass
    return outcome(Excluded.ADDED, shown)


def _git(project_dir: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=project_dir,
        capture_output=True,
        timeout=_GIT_TIMEOUT_SECONDS,
        check=False,
    )
    if done.returncode != 0:
        raise _GitFailed(_text(done.stderr).strip() or f"git {args[0]} failed")
    # Paths in git's output are bytes: decoded as the file system does, so a directory name
    # that is not UTF-8 survives as surrogate escapes instead of failing the decode.
    return _text(done.stdout)


def _text(output: bytes) -> str:
    return os.fsdecode(output)


def _is_ignored(project_dir: Path, relative_path: str) -> bool:
    done = subprocess.run(
        ["git", "check-ignore", "-q", "--", relative_path],
        cwd=project_dir,
        capture_output=True,
        timeout=_GIT_TIMEOUT_SECONDS,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise _GitFailed(_text(done.stderr).strip() or "git check-ignore failed")
    return done.returncode == 0


def _is_tracked(project_dir: Path, relative_path: str) -> bool:
    try:
        _git(project_dir, "ls-files", "--error-unmatch", "--", relative_path)
    except _GitFailed:
        return False
    return True


def _exclude_file(project_dir: Path) -> Path:
    # --git-path follows worktrees and submodules (and core.excludesFile is not ours to edit).
    reported = Path(_git(project_dir, "rev-parse", "--git-path", "info/exclude").rstrip("\n"))
    return Path(os.path.normpath(project_dir / reported))


def _anchored_pattern(repo_relative_path: str) -> str:
    escaped = _GITIGNORE_SPECIAL.sub(r"\\\g<0>", repo_relative_path)
    if escaped.endswith(" "):
        escaped = escaped[:-1] + "\\ "
    return "/" + escaped


def _append_pattern(exclude_file: Path, pattern: str, comment: str = EXCLUDE_COMMENT) -> None:
    # Appending (rather than rewriting) can never lose what the file already holds.
    exclude_file.parent.mkdir(parents=True, exist_ok=True)
    with exclude_file.open("ab+") as handle:
        handle.seek(0, os.SEEK_END)
        needs_newline = False
        if handle.tell():
            handle.seek(-1, os.SEEK_END)
            needs_newline = handle.read(1) != b"\n"
        lines = os.fsencode(f"{comment}\n{pattern}\n")  # a path's own bytes
        handle.write((b"\n" if needs_newline else b"") + lines)
        handle.flush()
        os.fsync(handle.fileno())


def _display_path(path: Path, project_dir: Path) -> str:
    return os.path.relpath(path, project_dir) if path.is_relative_to(project_dir) else str(path)


HOOKMAN_COMMENT_PREFIX = "# added by hookman"


class HookmanExclusions(NamedTuple):
    """The lines hookman added to the exclude file (`hookman uninstall`): each comment and
    the pattern after it, and the project file each pattern keeps out of git."""

    exclude_file: Path
    shown: str  # as shown to the user (relative to the project when inside it)
    patterns: dict[str, Path]  # pattern -> the file it names


def hookman_exclusions(project_dir: Path) -> HookmanExclusions | None:
    """The exclusions hookman added for this project's work tree (None: none, or no git)."""
    try:
        exclude_file = _exclude_file(project_dir)
        top = Path(_git(project_dir, "rev-parse", "--show-toplevel").rstrip("\n"))
        lines = exclude_file.read_text(encoding="utf-8").splitlines()
    except (_GitFailed, OSError, UnicodeDecodeError):
        return None
    patterns: dict[str, Path] = {}
    for comment, pattern in itertools.pairwise(lines):
        if comment.startswith(HOOKMAN_COMMENT_PREFIX) and pattern.startswith("/"):
            patterns[pattern] = top / _unescaped(pattern[1:])
    if not patterns:
        return None
    return HookmanExclusions(exclude_file, _display_path(exclude_file, project_dir), patterns)


def remove_exclusions(exclusions: HookmanExclusions, patterns: list[str]) -> None:
    """Take `patterns` and the hookman comment above each out of the exclude file, every
    other byte kept (atomically)."""
    from hookman.atomic_file import atomic_write_text

    lines = exclusions.exclude_file.read_text(encoding="utf-8").splitlines(keepends=True)
    kept: list[str] = []
    index = 0
    while index < len(lines):
        pair = [line.rstrip("\r\n") for line in lines[index : index + 2]]
        if len(pair) == 2 and pair[0].startswith(HOOKMAN_COMMENT_PREFIX) and pair[1] in patterns:
            index += 2
            continue
        kept.append(lines[index])
        index += 1
    atomic_write_text(exclusions.exclude_file, "".join(kept))


def _unescaped(pattern: str) -> str:
    return re.sub(r"\\(.)", r"\1", pattern)
