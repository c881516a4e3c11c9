"""Which project a command acts on, and the files hookman keeps inside it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hookman.errors import HookmanError

CLAUDE_DIR = ".claude"
CONFIG_NAME = "hookman.toml"
LOCAL_SETTINGS_NAME = "settings.local.json"


def find_project_dir(explicit: Path | None = None, start: Path | None = None) -> Path:
    """--project if given; else the nearest ancestor holding .claude/, else the git root,
    else the current directory."""
    if explicit is not None:
        project = explicit.expanduser()
        if not project.is_dir():
            problem = "is not a directory" if project.exists() else "does not exist"
            raise HookmanError(
                f"the project directory {str(project)!r} {problem}.",
                "pass an existing directory to --project (the one that holds .claude/).",
                exit_code=2,
            )
        return project.resolve()
    here = (start or Path.cwd()).resolve()
    # ~/.claude holds the user's own Claude Code settings, not a project's.
    home = _resolved_home()
    for candidate in (here, *here.parents):
        if (candidate / CLAUDE_DIR).is_dir() and candidate != home:
            return candidate
    git_root = _git_root(here)
    return git_root if git_root is not None else here


def _resolved_home() -> Path | None:
    try:
        return Path.home().resolve()
    except (OSError, RuntimeError):
        return None


def _git_root(directory: Path) -> Path | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    top = done.stdout.strip()
    return Path(top).resolve() if done.returncode == 0 and top else None


def config_path(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / CONFIG_NAME


def local_settings_path(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / LOCAL_SETTINGS_NAME
