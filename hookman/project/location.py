"""Which project a command acts on, and the files hookman keeps inside it.

Importable on the lean path (the status line): pathlib and subprocess load only when used.
"""

from __future__ import annotations

import os

from hookman.errors import HookmanError

TYPE_CHECKING = False  # not `typing`: statusline's lean path imports this module
if TYPE_CHECKING:
    from pathlib import Path

CLAUDE_DIR = ".claude"
CONFIG_NAME = "hookman.toml"
LOCAL_SETTINGS_NAME = "settings.local.json"


def find_project_dir(explicit: Path | None = None, start: Path | None = None) -> Path:
    """--project if given; else the nearest ancestor holding .claude/, else the git root,
    else the current directory."""
    from pathlib import Path

    if explicit is not None:
        return Path(checked_project_dir(str(explicit)))
    return Path(project_root(str(start) if start is not None else os.getcwd()))


def checked_project_dir(explicit: str) -> str:
    """The resolved --project directory, or a usage error when it is not a directory."""
    project = os.path.expanduser(explicit)
    if not os.path.isdir(project):
        problem = "is not a directory" if os.path.exists(project) else "does not exist"
        raise HookmanError(
            f"the project directory {project!r} {problem}.",
            "pass an existing directory to --project (the one that holds .claude/).",
            exit_code=2,
        )
    return os.path.realpath(project)


def project_root(start: str) -> str:
    """The nearest ancestor of `start` holding .claude/ (not the home directory, whose
    ~/.claude holds the user's own Claude Code settings), else the git root, else `start`."""
    here = os.path.realpath(start)
    home = os.path.realpath(os.path.expanduser("~"))
    candidate = here
    while True:
        if candidate != home and os.path.isdir(os.path.join(candidate, CLAUDE_DIR)):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            break
        candidate = parent
    return _git_root(here) or here


def _git_root(directory: str) -> str | None:
    import subprocess

    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=directory,
            capture_output=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    # Bytes, decoded as the file system does: a directory name that is not UTF-8 survives
    # (as surrogate escapes) to the check that refuses it with a sentence and a hint.
    top = os.fsdecode(done.stdout).strip()
    return os.path.realpath(top) if done.returncode == 0 and top else None


def config_path(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / CONFIG_NAME


def local_settings_path(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / LOCAL_SETTINGS_NAME
