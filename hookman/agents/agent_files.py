"""The one module that writes the hooks file of Qwen Code (`<project>/.qwen/settings.json`,
its `hooks` key) and of Factory droid (`<project>/.factory/hooks.json`, events at the top
level: a `{"hooks": ...}` wrapper is silently ignored by droid), as catalog/<agent>_events.json
says (agent_facts.HooksFile).

Both take Claude Code's matcher groups (`{"PreToolUse": [{"matcher": ..., "hooks":
[{"type": "command", "command": ..., "timeout": N}]}]}`), so they are written with the
guarantees of settings.local.json (project/settings_file.py: atomic, layout kept, every
other key byte for byte, a file hookman cannot parse left untouched, symlinks only to a file
of the same name) and hookman's entries are recognised by their command
(project/settings_entries.py; foreign entries are kept). As with Codex's .codex/hooks.json
(codex_files.py), hookman keeps the file out of git through .git/info/exclude and refuses to
write it when git tracks it: hookman's entries hold this machine's paths. Callers hold
`project_lock`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hookman.agents import agent_facts
from hookman.catalog.agent_catalog import disable_key, hookman_first_events
from hookman.errors import HookmanError
from hookman.project.git_exclude import Excluded, GitExclusion, ensure_git_ignored, is_tracked
from hookman.project.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    find_hookman_entries,
    is_hookman_handler,
)
from hookman.project.settings_file import SettingsChange, json_kind, read_settings, update_settings

CONFIG_HINT = "leave {agent} out of `agents` in .claude/hookman.toml"


def _file(agent: str) -> agent_facts.HooksFile:
    found = agent_facts.hooks_file(agent)
    if found is None:
        raise ValueError(f"hookman writes no hooks file for {agent}")
    return found


def relative_path(agent: str) -> str:
    return _file(agent).relative


def hooks_path(project_dir: Path, agent: str) -> Path:
    return project_dir / relative_path(agent)


def exclude_comment(agent: str) -> str:
    return f"# added by hookman: machine-local {agent_facts.display_name(agent)} hooks"


def update_agent_hooks(
    project_dir: Path, agent: str, entries: Sequence[HookmanEntry], *, dry_run: bool
) -> SettingsChange:
    """Make hookman's entries in the agent's hooks file exactly `entries` (none: hookman's
    entries go, the file stays when anything else is in it). A file git tracks is refused
    before any write, as is one hookman cannot parse or walk (HookmanError)."""
    path = hooks_path(project_dir, agent)
    edit = _edit(agent, path, entries)
    change = update_settings(path, edit, dry_run=True)
    if change.changed and is_tracked(project_dir, relative_path(agent)):
        name = agent_facts.display_name(agent)
        raise HookmanError(
            f"{path} is committed to git, so hookman will not write its machine-specific "
            f"{name} entries into it (they would end up in the team's commits); nothing was "
            "changed.",
            f"untrack it (`git rm --cached {relative_path(agent)}`; {name} reads it all the "
            f"same) and run the command again, or {CONFIG_HINT.format(agent=agent)}.",
        )
    if dry_run or not change.changed:
        return change
    return update_settings(path, edit, dry_run=False)


def _edit(
    agent: str, path: Path, entries: Sequence[HookmanEntry]
) -> Callable[[dict[str, Any]], None]:
    key = _file(agent).events_key
    first = hookman_first_events(agent)

    def edit(document: dict[str, Any]) -> None:
        if key is None:  # the events are the file's own keys: edit the file as `hooks`
            switch = _set_switch_aside(agent, document)  # the off switch among the events
            _check_events(agent, path, document)
            apply_hookman_entries({"hooks": document}, entries)
            _put_hookman_first(document, first)
            _put_switch_back(document, switch)
            return
        if key in document:
            _check_events(agent, path, document[key], f"{key}.")
        if key != "hooks":
            wrapped = {"hooks": document[key]} if key in document else {}
            apply_hookman_entries(wrapped, entries)
            if "hooks" in wrapped:
                document[key] = wrapped["hooks"]
                _put_hookman_first(document[key], first)
            else:
                document.pop(key, None)
            return
        apply_hookman_entries(document, entries)
        if isinstance(document.get("hooks"), dict):
            _put_hookman_first(document["hooks"], first)

    return edit


def _put_hookman_first(events: dict[str, Any], names: Sequence[str]) -> None:
    """Move the matcher groups that hold only hookman's handlers before the others of each
    event in `names`, in their order: an agent that takes the first hook's answer
    (droid's permissionDecision, catalog/agent_hook_merge.json) then reads hookman's
    first. A group mixing hookman's handlers with others stays where it is."""
    for name in names:
        groups = events.get(name)
        if not isinstance(groups, list):
            continue
        ours = [group for group in groups if _only_hookman(group)]
        events[name] = ours + [group for group in groups if not _only_hookman(group)]


def _only_hookman(group: Any) -> bool:
    handlers = group.get("hooks") if isinstance(group, dict) else None
    return bool(handlers) and all(is_hookman_handler(handler) for handler in handlers)


def _check_events(agent: str, path: Path, events: Any, prefix: str = "") -> None:
    """Refuse (HookmanError, nothing written) a shape hookman cannot walk, naming the agent's
    own file: events an object, each an array of matcher-group objects whose `hooks` is an
    array."""
    if not isinstance(events, dict):
        _malformed(agent, path, prefix.rstrip(".") or "the top level", "an object", events)
    for event, groups in events.items():
        if not isinstance(groups, list):
            _malformed(agent, path, f"{prefix}{event}", "an array", groups)
        for index, group in enumerate(groups):
            where = f"{prefix}{event}[{index}]"
            if not isinstance(group, dict):
                _malformed(agent, path, where, "an object", group)
            if "hooks" in group and not isinstance(group["hooks"], list):
                _malformed(agent, path, f"{where}.hooks", "an array", group["hooks"])


def _set_switch_aside(agent: str, events: dict[str, Any]) -> tuple[int, str, bool] | None:
    """Take the agent's off switch out of its top-level events (where it stands, its key, its
    value), so that only events are edited."""
    switch = disable_key(agent)
    if switch is None or not isinstance(events.get(switch), bool):
        return None
    return list(events).index(switch), switch, events.pop(switch)


def _put_switch_back(events: dict[str, Any], switch: tuple[int, str, bool] | None) -> None:
    if switch is None:
        return
    index, key, value = switch
    items = list(events.items())
    items.insert(index, (key, value))
    events.clear()
    events.update(items)


def _malformed(agent: str, path: Path, where: str, expected: str, found: Any) -> None:
    name = agent_facts.display_name(agent)
    raise HookmanError(
        f"{path} has {json_kind(found)} at {where} where {name} expects {expected}, so "
        "hookman will not edit it; nothing was changed.",
        f"fix that part of {relative_path(agent)} by hand (or remove it), then run the "
        "command again.",
    )


def keep_out_of_git(project_dir: Path, agent: str) -> GitExclusion | None:
    """Make git ignore the agent's hooks file; what was done (None outside a work tree)."""
    done = ensure_git_ignored(project_dir, relative_path(agent), exclude_comment(agent))
    return None if done.outcome is Excluded.NOT_A_WORK_TREE else done


def events_object(agent: str, document: dict[str, Any]) -> dict[str, Any]:
    """The file's events as Claude Code's settings hold them (`{"hooks": {...}}`), for
    find_hookman_entries; anything unreadable reads as none."""
    key = _file(agent).events_key
    if key is None:
        return {"hooks": document}
    return {"hooks": document.get(key)}


def hookman_entries(project_dir: Path, agent: str) -> list[tuple[str, dict[str, Any]]]:
    """hookman's entries in the agent's hooks file, as (event, handler) in file order (an
    unreadable file: none; it is reported when it is written)."""
    path = hooks_path(project_dir, agent)
    if not path.exists():
        return []
    try:
        return find_hookman_entries(events_object(agent, read_settings(path)))
    except HookmanError:
        return []


def has_hookman_entries(project_dir: Path, agent: str) -> bool:
    return bool(hookman_entries(project_dir, agent))


def written_events(project_dir: Path, agent: str) -> list[str]:
    """The events hookman's entries in the agent's hooks file are for, in file order."""
    return list(dict.fromkeys(event for event, _ in hookman_entries(project_dir, agent)))
