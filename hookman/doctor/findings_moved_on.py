"""A project that moved on since `hookman install` (bridge/project_moved.py): hookman.toml or
`.claude/hookman-pins.json` is not what install recorded in the manifest (`installed_from`),
e.g. after a `git pull`. The runner then denies every guarded tool call until install, and
observe-only events run the hooks installed before: an error, so doctor exits non-zero. A
manifest without the record (an older hookman) cannot tell: nothing is said here, and
`hookman-stale` names what it can see."""

from __future__ import annotations

import json

from hookman import paths
from hookman.bridge.project_moved import (
    CONFIG_SHOWN,
    INSTALLED_FROM,
    ProjectChange,
    project_change,
)
from hookman.doctor.context import Context
from hookman.doctor.model import Finding
from hookman.project.location import config_path

CODE = "hookman-project-changed"


def check_moved_on(ctx: Context) -> None:
    recorded = _installed_from(ctx)
    config = config_path(ctx.project_dir)
    change = project_change(recorded, str(config))
    if change is not None:
        ctx.add(Finding(CODE, "error", str(config), _message(change), _fix(change)))


def _installed_from(ctx: Context) -> object:
    try:
        manifest = json.loads(paths.manifest_path(ctx.project_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest.get(INSTALLED_FROM) if isinstance(manifest, dict) else None


def _message(change: ProjectChange) -> str:
    if change.config_gone:
        return (
            f"{CONFIG_SHOWN} is gone since `hookman install` last ran here (a branch without "
            "hookman?): hookman's entries still run the hooks installed then, and deny every "
            "guarded tool call."
        )
    return (
        f"{change.shown()} changed since `hookman install` last ran here (after a pull?): "
        "until it runs again, hookman denies every guarded tool call (the guards installed "
        "here may not be the ones the project asks for), and observe-only events run the "
        "hooks installed before."
    )


def _fix(change: ProjectChange) -> str:
    if change.config_gone:
        return (
            "run `hookman install` in the project once hookman.toml is back, or "
            "`hookman uninstall` if the project no longer uses hookman."
        )
    return "run `hookman install` in the project."
