"""Writes the manifest the runner reads (format: ARCHITECTURE.md, "The manifest").

The runner must not parse TOML or resolve registry names, so everything it needs is here
with absolute paths: the enabled hooks in dispatch order, the entries written to settings
with their timeouts and deadlines, and what was held back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookman import __version__, paths
from hookman.atomic_file import write_text_if_changed
from hookman.client_version import ClientVersion
from hookman.install_plan import InstallPlan
from hookman.project import config_path
from hookman.project_config import HookSpec

MANIFEST_FORMAT = 1


def build_manifest(
    project_dir: Path,
    hooks: Sequence[HookSpec],
    module_paths: Mapping[str, Path],
    plan: InstallPlan,
    version: ClientVersion | None,
) -> dict[str, Any]:
    """The manifest for `hooks` (dispatch order); `module_paths` maps names to modules."""
    return {
        "format": MANIFEST_FORMAT,
        "hookman_version": __version__,
        "project_dir": str(project_dir),
        "config_path": str(config_path(project_dir)),
        "state_dir": str(paths.project_state_dir(project_dir)),
        "log_path": str(paths.firing_log_path()),
        "claude_version": None if version is None else str(version),
        "hooks": [
            _hook_record(hook, module_paths[hook.name], plan) for hook in hooks if hook.enabled
        ],
        "entries": {
            event: {"matcher": entry.matcher, "timeout": entry.timeout, "deadline": entry.deadline}
            for event, entry in plan.entries.items()
        },
        "held_back": dict(plan.held_back),
    }


def manifest_text(manifest: Mapping[str, Any]) -> str:
    return json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"


def write_manifest(project_dir: Path, manifest: Mapping[str, Any]) -> bool:
    """Write the project's manifest unless it already holds these bytes."""
    path = paths.manifest_path(project_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_text_if_changed(path, manifest_text(manifest))


def _hook_record(hook: HookSpec, module_path: Path, plan: InstallPlan) -> dict[str, Any]:
    return {
        "name": hook.name,
        "path": str(module_path),
        "events": list(hook.events),
        "claude_events": list(plan.claude_events.get(hook.name, ())),
        "tools": {event: list(names) for event, names in hook.tools.items()},
        "timeout": hook.timeout,
    }
