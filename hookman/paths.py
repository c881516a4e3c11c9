"""Where hookman keeps its per-user files (platformdirs), and the per-project state key.

Not on the runner path: the runner learns every path it needs from the manifest.
Set HOOKMAN_HOME to put config, state and logs under one directory (tests, sandboxes).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

APP_NAME = "hookman"


def _home_override() -> Path | None:
    value = os.environ.get("HOOKMAN_HOME")
    return Path(value).expanduser().resolve() if value else None


def config_dir() -> Path:
    override = _home_override()
    if override:
        return override / "config"
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME))


def state_dir() -> Path:
    override = _home_override()
    if override:
        return override / "state"
    import platformdirs

    return Path(platformdirs.user_state_dir(APP_NAME))


def log_dir() -> Path:
    override = _home_override()
    if override:
        return override / "log"
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME))


def registry_path() -> Path:
    return config_dir() / "registry.toml"


def firing_log_path() -> Path:
    return log_dir() / "firing.jsonl"


def project_state_dir(project_dir: Path) -> Path:
    """State for one project: its manifest, message queue, entries and statuses."""
    resolved = str(project_dir.resolve())
    digest = hashlib.sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(resolved).name).strip("-")[:40] or "root"
    return state_dir() / "projects" / f"{slug}-{digest}"


def manifest_path(project_dir: Path) -> Path:
    return project_state_dir(project_dir) / "manifest.json"
