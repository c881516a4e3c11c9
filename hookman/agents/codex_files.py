"""The one module that writes Codex CLI's hooks file of a project, `<project>/.codex/hooks.json`.

Codex reads hooks from a `hooks.json` beside each config layer it loads; the project's layer,
`<project>/.codex/`, only when the project is trusted in Codex. Its shape is Claude Code's
hooks section (`{"hooks": {"PreToolUse": [{"matcher": ..., "hooks": [{"type": "command",
"command": ..., "timeout": N}]}]}}`), so it is written with the guarantees of
settings.local.json (project/settings_file.py: atomic, layout kept, a file hookman cannot
parse left byte for byte, symlinks only to a file of the same name) and hookman's entries are
recognised by their command (project/settings_entries.py; foreign entries are kept).

Codex has no per-project file that git ignores by itself, so hookman keeps this one out of git
through .git/info/exclude, and refuses to write it when git tracks it: the team committed it,
and hookman's entries (absolute, machine-specific paths) must not end up in their commits.
Callers hold `project_lock`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookman.errors import HookmanError
from hookman.project.git_exclude import Excluded, GitExclusion, ensure_git_ignored, is_tracked
from hookman.project.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    find_hookman_entries,
)
from hookman.project.settings_file import SettingsChange, read_settings, update_settings

CODEX_DIR = ".codex"
HOOKS_NAME = "hooks.json"
HOOKS_RELATIVE = f"{CODEX_DIR}/{HOOKS_NAME}"
EXCLUDE_COMMENT = "# added by hookman: machine-local Codex CLI hooks"


def codex_hooks_path(project_dir: Path) -> Path:
    return project_dir / CODEX_DIR / HOOKS_NAME


def update_codex_hooks(
    project_dir: Path, entries: Sequence[HookmanEntry], *, dry_run: bool
) -> SettingsChange:
    """Make hookman's entries in the project's .codex/hooks.json exactly `entries` (none:
    hookman's entries go, the file stays when anything else is in it). A file git tracks is
    refused before any write, as is one hookman cannot parse (HookmanError)."""
    path = codex_hooks_path(project_dir)

    def edit(hooks_file: dict[str, Any]) -> None:
        apply_hookman_entries(hooks_file, entries)

    change = update_settings(path, edit, dry_run=True)
    if change.changed and is_tracked(project_dir, HOOKS_RELATIVE):
        raise HookmanError(
            f"{path} is committed to git, so hookman will not write its machine-specific "
            "Codex CLI entries into it (they would end up in the team's commits); nothing "
            "was changed.",
            f"untrack it (`git rm --cached {HOOKS_RELATIVE}`; Codex reads it all the same) and "
            "run the command again, or leave codex out of `agents` in .claude/hookman.toml.",
        )
    if dry_run or not change.changed:
        return change
    return update_settings(path, edit, dry_run=False)


def keep_out_of_git(project_dir: Path) -> GitExclusion | None:
    """Make git ignore .codex/hooks.json; what was done (None outside a git work tree)."""
    done = ensure_git_ignored(project_dir, HOOKS_RELATIVE, EXCLUDE_COMMENT)
    return None if done.outcome is Excluded.NOT_A_WORK_TREE else done


def has_hookman_entries(project_dir: Path) -> bool:
    """Whether the project's .codex/hooks.json holds an entry of hookman's (an unreadable
    file counts as none: it is reported when it is written)."""
    path = codex_hooks_path(project_dir)
    if not path.exists():
        return False
    try:
        return bool(find_hookman_entries(read_settings(path)))
    except HookmanError:
        return False


def written_events(project_dir: Path) -> list[str]:
    """The events hookman's entries in .codex/hooks.json are for, in file order."""
    try:
        found = find_hookman_entries(read_settings(codex_hooks_path(project_dir)))
    except HookmanError:
        return []
    return list(dict.fromkeys(event for event, _ in found))
