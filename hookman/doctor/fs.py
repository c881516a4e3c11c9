"""File-system questions that never raise: doctor reads directories the user may not be
allowed into (a managed settings dir, a plugin cache), and a refusal is a finding, not a
crash."""

from __future__ import annotations

import os
from pathlib import Path


def exists(path: Path) -> bool | None:
    """Whether `path` (or a dangling symlink there) exists; None when the system refuses to say."""
    try:
        return path.exists() or path.is_symlink()
    except OSError:
        return None


def is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def executable(path: Path) -> bool:
    return os.access(path, os.X_OK)
