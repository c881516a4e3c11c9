"""The client's own off-switches (catalog/doctor_facts.json, "off_switches"): managed
`strictPluginOnlyCustomization` that keeps the hooks of settings files from running, `--bare`
mode (CLAUDE_CODE_SIMPLE) in this environment, a workspace Claude Code has no trust record
for, and the cap on Stop blocks in a row. Each is a finding with its fix; only the first can
be read from files alone, so the others are information about where doctor runs."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from hookman.doctor.context import Context
from hookman.doctor.facts import doctor_facts
from hookman.doctor.model import Finding, Handler, Source


@cache
def switch_facts() -> dict[str, Any]:
    return dict(doctor_facts()["off_switches"])


def check_switches(ctx: Context) -> None:
    _check_plugin_only(ctx)
    _check_bare(ctx)
    _check_trust(ctx)
    _check_stop_cap(ctx)


# --- managed strictPluginOnlyCustomization ---------------------------------------------------


def plugin_only_owner(ctx: Context) -> tuple[Source, Any] | None:
    """The managed source whose strictPluginOnlyCustomization locks the hooks surface, and
    its value (true, a list naming "hooks", or a value the client treats as true)."""
    key = switch_facts()["plugin_only_key"]
    for source in ctx.sources.sources:
        if source.kind != "managed" or not isinstance(source.data, dict):
            continue
        if key in source.data and _locks_hooks(source.data[key]):
            return source, source.data[key]
    return None


def _locks_hooks(value: Any) -> bool:
    if isinstance(value, list):
        return switch_facts()["plugin_only_surface"] in value
    return value is not False  # true, or invalid: the client treats it as true


def _check_plugin_only(ctx: Context) -> None:
    found = plugin_only_owner(ctx)
    if found is None:
        return
    owner, value = found
    kinds = switch_facts()["plugin_only_silences"]
    silenced = [h for h in ctx.handlers if h.source.kind in kinds and h.loaded]
    for handler in silenced:
        handler.silence("hooks-plugin-only")
    ours = [h for h in silenced if h.hookman]
    counted = f"{len(silenced)} hook(s) of the user, project and local settings"
    if ours:
        counted += f", hookman's {len(ours)} included"
    key = switch_facts()["plugin_only_key"]
    shown = json.dumps(value)
    ctx.add(
        Finding(
            "hooks-plugin-only",
            "error" if silenced else "info",
            owner.path,
            f"managed settings set {key} to {shown}, so Claude Code takes hooks only from "
            f"managed settings and plugins: {counted} never run.",
            "ship the hooks as a plugin, whose hooks still run (`hookman plugin build OUT_DIR`, "
            f'docs/plugins.md), or ask whoever manages this machine to take "hooks" out of '
            f"{key} (hookman never edits managed settings).",
            path=key,
            silences=[f"{h.source.path}:{h.path}" for h in silenced],
        )
    )


# --- --bare (CLAUDE_CODE_SIMPLE) ---------------------------------------------------------------


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in switch_facts()["truthy"]


def _check_bare(ctx: Context) -> None:
    name = switch_facts()["bare_env"]
    if not _truthy(os.environ.get(name)):
        return
    ctx.add(
        Finding(
            "hooks-off-bare-mode",
            "info",
            None,
            f"{name} is set in this environment (what `claude --bare` sets): a Claude Code "
            "started from it runs no hook of the settings files or of installed plugins, "
            "hookman's included.",
            f"unset {name}, and start Claude Code without --bare, where hooks should run.",
        )
    )


# --- workspace trust ---------------------------------------------------------------------------


def trust_file() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    base = Path(configured).expanduser() if configured else Path.home()
    return base / switch_facts()["trust_file"]


def is_trusted(project_dir: Path, config: Path) -> bool | None:
    """Whether .claude.json records trust for the project or a folder above it (None: there
    is no such file, Claude Code never ran with this config dir, or it cannot be read as
    JSON: nothing to compare with)."""
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    projects = data.get("projects") if isinstance(data, dict) else None
    if not isinstance(projects, dict):
        return False if isinstance(data, dict) else None
    key = switch_facts()["trust_key"]
    resolved = Path(os.path.realpath(project_dir))
    for directory in dict.fromkeys(
        [project_dir, *project_dir.parents, resolved, *resolved.parents]
    ):
        entry = projects.get(str(directory))
        if isinstance(entry, dict) and entry.get(key) is True:
            return True
    return False


def _check_trust(ctx: Context) -> None:
    if not [h for h in ctx.handlers if h.loaded]:
        return  # no hook to keep off
    config = trust_file()
    if is_trusted(ctx.project_dir, config) is not False:
        return
    key = switch_facts()["trust_key"]
    ctx.add(
        Finding(
            "workspace-not-trusted",
            "info",
            str(config),
            f"Claude Code has no trust record for {ctx.project_dir} (or a folder above it) in "
            f"{config}: an interactive session asks first and runs no hook until the trust "
            "dialog is accepted; `claude -p` runs them without asking.",
            f"start `claude` in {ctx.project_dir} once and accept the trust dialog (it records "
            f'projects["{ctx.project_dir}"].{key}: true in {config}).',
        )
    )


# --- the Stop-hook cap -------------------------------------------------------------------------


def stop_block_cap() -> tuple[int, bool]:
    """The cap on Stop blocks in a row Claude Code started from this environment applies
    (0: none), and whether the environment sets it."""
    facts = switch_facts()
    raw = os.environ.get(facts["stop_cap_env"])
    try:
        return (int(raw.strip()), True) if raw is not None else (facts["stop_cap_default"], False)
    except ValueError:
        return facts["stop_cap_default"], False  # the client reads a non-number as unset


def _check_stop_cap(ctx: Context) -> None:
    """Said for hookman's own Stop guards (a foreign Stop hook that never lets the agent stop
    has its own warning, stop-ignores-stop-hook-active), and for any Stop hook when this
    environment sets the cap."""
    events = switch_facts()["stop_cap_events"]
    cap, from_env = stop_block_cap()
    guards = [
        h
        for h in ctx.handlers
        if h.event in events and h.loaded and not h.is_async and (h.hookman or from_env)
    ]
    if not guards:
        return
    name = switch_facts()["stop_cap_env"]
    first: Handler = guards[0]
    if cap <= 0:
        message = (
            f"{name} is {cap} in this environment, so Claude Code never overrides a "
            f"{first.event} hook's block: one that always blocks keeps the agent going forever."
        )
        fix = f"let the hook stop blocking when stop_hook_active is true, or unset {name}."
    else:
        said = f"{name}={cap} in this environment" if from_env else f"{name}, default {cap}"
        message = (
            f"Claude Code ends the turn anyway once a Stop or SubagentStop hook has blocked "
            f"more than {cap} times in a row ({said}): a Stop guard here cannot hold the agent "
            "longer than that, whatever it answers."
        )
        fix = (
            f"to allow more blocks, set {name} where Claude Code starts (0 removes the cap); "
            "a Stop hook should let the agent stop when stop_hook_active is true."
        )
    ctx.add(Finding.about(first, "stop-block-cap", "info", message, fix))
