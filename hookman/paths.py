"""Where hookman keeps its per-user files, and the per-project state key, as Paths.

The directories come from hookman.user_dirs (standard library only, shared with the lean
status line). Not on the runner path: the runner learns every path it needs from the
manifest. Set HOOKMAN_HOME to put config, state and logs under one directory (tests, sandboxes).
"""

from __future__ import annotations

import os
from pathlib import Path

from hookman import user_dirs

APP_NAME = user_dirs.APP_NAME


def config_dir() -> Path:
    return Path(user_dirs.user_dir("config"))


def state_dir() -> Path:
    return Path(user_dirs.user_dir("state"))


def log_dir() -> Path:
    return Path(user_dirs.user_dir("log"))


def cache_dir() -> Path:
    return Path(user_dirs.user_dir("cache"))


def codex_home() -> Path:
    """Codex CLI's home: CODEX_HOME (a leading ~ expanded, a relative path taken from the
    current directory, made absolute here so a Codex started in another directory is given the
    same one), else ~/.codex. The one place hookman reads CODEX_HOME."""
    configured = os.environ.get("CODEX_HOME")
    if not configured:
        return Path.home() / ".codex"
    return Path(os.path.abspath(os.path.expanduser(configured)))


def registry_path() -> Path:
    return config_dir() / "registry.toml"


def firing_log_path() -> Path:
    return log_dir() / "firing.jsonl"


def project_state_dir(project_dir: Path) -> Path:
    """State for one project: its manifest, message queue, entries and statuses."""
    return Path(user_dirs.project_state_dir(str(project_dir.resolve())))


def manifest_path(project_dir: Path) -> Path:
    return project_state_dir(project_dir) / "manifest.json"
