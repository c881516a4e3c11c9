"""Keep Python's bytecode out of the team's commits: `.claude/hooks/.gitignore` holding
`__pycache__/`, written once by `hookman new` and `hookman install`.

The hooks in .claude/hooks/ are committed; running them (the runner imports them) or their
tests writes `__pycache__/` beside them, which `git add .claude/hooks` would commit. A
`.gitignore` in that directory is what a team expects: committed with the hooks, it works in
every clone and in CI, before anyone runs hookman. Written only when the directory has no
.gitignore and git does not already ignore the bytecode there (a global or project rule);
never edited afterwards (the team's file from then on).
"""

from __future__ import annotations

import subprocess
from enum import Enum
from pathlib import Path

from hookman.project.location import CLAUDE_DIR

HOOKS_DIR = f"{CLAUDE_DIR}/hooks"
GITIGNORE_TEXT = "# bytecode Python writes when these hooks or their tests run\n__pycache__/\n"
_PROBE = "__pycache__/hook.cpython.pyc"  # a file git would see there


class PycacheIgnore(Enum):
    """What `keep_pycache_out` found or did."""

    WRITTEN = "written"  # .claude/hooks/.gitignore written now
    ALREADY = "already"  # a .gitignore there, or git ignores the bytecode already
    NO_HOOKS_DIR = "no-hooks-dir"
    FAILED = "failed"  # the file could not be written


def gitignore_relative() -> str:
    return f"{HOOKS_DIR}/.gitignore"


def keep_pycache_out(project_dir: Path) -> PycacheIgnore:
    """Write .claude/hooks/.gitignore when needed (see the module docstring)."""
    hooks_dir = project_dir / HOOKS_DIR
    if not hooks_dir.is_dir():
        return PycacheIgnore.NO_HOOKS_DIR
    gitignore = hooks_dir / ".gitignore"
    if gitignore.exists() or gitignore.is_symlink() or _git_ignores(hooks_dir):
        return PycacheIgnore.ALREADY
    try:
        with gitignore.open("x", encoding="utf-8") as handle:
            handle.write(GITIGNORE_TEXT)
    except FileExistsError:
        return PycacheIgnore.ALREADY
    except OSError:
        return PycacheIgnore.FAILED
    return PycacheIgnore.WRITTEN


def _git_ignores(hooks_dir: Path) -> bool:
    try:
        done = subprocess.run(
            ["git", "check-ignore", "-q", "--no-index", "--", _PROBE],
            cwd=hooks_dir,
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
