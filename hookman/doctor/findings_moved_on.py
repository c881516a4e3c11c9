"""A project that moved on since `hookman install` (bridge/project_moved.py): hookman.toml or
`.claude/hookman-pins.json` is not what install recorded in the manifest (`installed_from`),
e.g. after a `git pull`. The runner then denies the guarded calls an installed entry reaches
(with the sentinels of project/sentinel.py, every tool of a guarded event; without them,
Claude Code calls hookman for nothing else: a guard the project added elsewhere is
`hookman-guard-not-wired`) until install, and observe-only events run the hooks installed
before: an error, so doctor exits non-zero. A
manifest without the record (an older hookman) cannot tell: nothing is said here, and
`hookman-stale` names what it can see."""

from __future__ import annotations

import json

from hookman import paths
from hookman.bridge.project_moved import (
    CONFIG_SHOWN,
    INSTALLED_FROM,
    ProjectChange,
    guarded_reach,
    project_change,
)
from hookman.bridge.protocol import MANIFEST_SENTINELS_KEY
from hookman.catalog import event_catalog
from hookman.doctor.context import Context
from hookman.doctor.model import Finding
from hookman.project.location import config_path

CODE = "hookman-project-changed"


def check_moved_on(ctx: Context) -> None:
    recorded = _installed_from(ctx)
    config = config_path(ctx.project_dir)
    change = project_change(recorded, str(config))
    if change is not None:
        message = _message(change, _reach(ctx), sentinels=bool(_sentinels(ctx)))
        ctx.add(Finding(CODE, "error", str(config), message, _fix(change)))


def _manifest(ctx: Context) -> dict:
    try:
        manifest = json.loads(paths.manifest_path(ctx.project_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _installed_from(ctx: Context) -> object:
    return _manifest(ctx).get(INSTALLED_FROM)


def _sentinels(ctx: Context) -> dict:
    """The manifest's sentinels (project/sentinel.py): event -> {"matcher": ...}."""
    sentinels = _manifest(ctx).get(MANIFEST_SENTINELS_KEY)
    return sentinels if isinstance(sentinels, dict) else {}


def _reach(ctx: Context) -> str:
    """The guarded calls the installed entries reach (bridge/project_moved.guarded_reach)."""
    entries = _manifest(ctx).get("entries")
    guarded = set(event_catalog.guarded_events())
    return guarded_reach(
        entries if isinstance(entries, dict) else {}, guarded.__contains__, _sentinels(ctx)
    )


def _message(change: ProjectChange, reach: str, *, sentinels: bool) -> str:
    denied = (
        "no guarded call reaches hookman here (no guarded entry is installed)"
        if reach == "none"
        else f"hookman denies the guarded calls its installed entries reach ({reach})"
    )
    if change.config_gone:
        return (
            f"{CONFIG_SHOWN} is gone since `hookman install` last ran here (a branch without "
            f"hookman?): hookman's entries still run the hooks installed then, and {denied}."
        )
    if sentinels:  # every other tool's sentinel calls the runner too (project/sentinel.py)
        return (
            f"{change.shown()} changed since `hookman install` last ran here (after a pull?): "
            f"until it runs again, {denied} (the guards installed here may not be the ones "
            "the project asks for), and observe-only events run the hooks installed before."
        )
    return (
        f"{change.shown()} changed since `hookman install` last ran here (after a pull?): "
        f"until it runs again, {denied} (the guards installed here may not be the ones the "
        "project asks for), observe-only events run the hooks installed before, and every "
        "other call runs without hookman (a guard the project added there is not wired: "
        "hookman-guard-not-wired names it)."
    )


def _fix(change: ProjectChange) -> str:
    if change.config_gone:
        return (
            "run `hookman install` in the project once hookman.toml is back, or "
            "`hookman uninstall` if the project no longer uses hookman."
        )
    return "run `hookman install` in the project."
