"""What hookman says about keeping a file out of git (project/git_exclude.py's outcome):
install and remove for settings.local.json and .codex/hooks.json, `new` for what a hook
writes."""

from __future__ import annotations

from hookman.project.git_exclude import Excluded, GitExclusion
from hookman.project.hooks_gitignore import gitignore_relative


def exclusion_sentence(done: GitExclusion) -> str:
    """A short sentence saying what happened, e.g. "added to .git/info/exclude"."""
    sentences = {
        Excluded.ADDED: f"added to {done.exclude_file}",
        Excluded.ALREADY_IGNORED: "already ignored by git",
        Excluded.NOT_A_WORK_TREE: "not a git work tree",
        Excluded.NO_GIT: "git is not installed, so hookman could not check whether git ignores it",
        Excluded.TRACKED: (
            "committed to git, so ignoring it has no effect "
            f"(untrack it with: git rm --cached {done.path})"
        ),
        Excluded.ASK_FAILED: f"could not ask git whether it is ignored ({done.error})",
        Excluded.NEWLINE: (
            "not added to .git/info/exclude: git exclude patterns cannot hold a newline"
        ),
        Excluded.WRITE_FAILED: f"could not add it to {done.exclude_file}: {done.error}",
        Excluded.STILL_NOT_IGNORED: (
            f"added to {done.exclude_file}, but git still does not ignore it (a '!' rule?)"
        ),
    }
    return sentences[done.outcome]


def pycache_sentence() -> str:
    """Said when hookman wrote .claude/hooks/.gitignore (project/hooks_gitignore.py)."""
    return (
        f"wrote {gitignore_relative()} (`__pycache__/`): Python's bytecode beside the hooks "
        "stays out of git; commit it with the hooks"
    )
