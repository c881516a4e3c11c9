"""What an install means for the project, without writing anything: each hook's JSON record,
the client version the settings are for, the Claude Code events each hook is served by.
(The warnings install, list and plugin build print are the commands': commands/plan_wording.py.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hookman import paths
from hookman.catalog import event_catalog
from hookman.catalog.client_version import TargetVersion, resolve_target
from hookman.project.config import HookSpec, ProjectConfigView
from hookman.project.install_plan import InstallPlan
from hookman.project.manifest import remembered_versions

if TYPE_CHECKING:
    from hookman.json_shapes import HookJson, PathSourceJson, RepoSourceJson


def hook_json(hook: HookSpec, plan: InstallPlan) -> HookJson:
    """A hook as `install --json` shows it (hookman/json_shapes.py)."""
    kind, value = hook.source.kind, hook.source.value
    source: PathSourceJson | RepoSourceJson
    if kind == "repo":  # with the name the repository gives it
        offered = hook.source.offered_name(hook.name)
        source = {"kind": kind, "value": value, "rev": hook.source.rev, "hook": offered}
    else:
        source = {"kind": kind, "value": value}
    return {
        "name": hook.name,
        "source": source,
        "enabled": hook.enabled,
        "events": list(hook.events),
        "tools": {event: list(names) for event, names in hook.tools.items()},
        "timeout": hook.timeout,
        "async": hook.is_async,
        "claude_events": list(plan.claude_events.get(hook.name, ())),
    }


def installed_trial_hooks(project_dir: Path) -> list[HookSpec]:
    """The hooks of a `hookman try-repo` trial, as the installed manifest runs them."""
    import json

    from hookman.project.config import HookSource

    try:
        data = json.loads(paths.manifest_path(project_dir).read_text(encoding="utf-8"))
        records = [r for r in data.get("hooks") or [] if isinstance(r, dict) and r.get("trial")]
        return [
            HookSpec(
                name=str(r["name"]),
                source=HookSource("repo", str(r["repo"]), str(r["rev"])),
                events=tuple(r.get("events") or ()),
                tools={str(k): tuple(v) for k, v in (r.get("tools") or {}).items()},
                is_async=r.get("async") is True,
            )
            for r in records
        ]
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return []


def project_target(project_dir: Path, flag: str | None, config: ProjectConfigView) -> TargetVersion:
    """The client version a command writes (or, for `list`, reports) the project's settings
    for: --claude-version, hookman.toml, the --claude-version of the last write,
    `claude --version`, or the version the last write was for (client_version.resolve_target)."""
    return version_target(project_dir, flag, config.claude_version)


def version_target(project_dir: Path, flag: str | None, configured: str | None) -> TargetVersion:
    """project_target from hookman.toml's `claude_version` as read (doctor reads it itself:
    a bad value is a finding there)."""
    remembered, last_written = remembered_versions(project_dir)
    return resolve_target(
        flag,
        configured,
        remembered=None if flag is not None else remembered,
        last_written=last_written,
    )


def claude_events_of(hook: HookSpec) -> list[str]:
    """Every Claude Code event serving the hook's subscriptions, enabled or not."""
    served = (
        event
        for name in hook.events
        for event in event_catalog.claude_events_for(name, hook.tools.get(name))
    )
    return list(dict.fromkeys(served))


def tools_at(
    events: Sequence[str], tools: Mapping[str, Sequence[str]], claude_event: str
) -> tuple[str, ...] | None:
    """The tools `claude_event`'s entry runs a hook for, from the hook's subscriptions
    (`events`, `tools`): the entry's matcher may name more, for other hooks. None: every tool
    the matcher names."""
    found: list[str] = []
    for name in events:
        if claude_event not in event_catalog.claude_events_serving(name):
            continue
        asked = event_catalog.event_tools(claude_event, tools.get(name))
        if asked is None:
            return None
        found.extend(asked)
    return tuple(dict.fromkeys(found))
