"""Writes the manifest the runner reads (format: ARCHITECTURE.md, "The manifest").

The runner must not parse TOML or resolve registry names, so everything it needs is here
with absolute paths: the enabled hooks in dispatch order, the entries written to settings
with their timeouts and deadlines (blocking ones in `entries`, the `async: true` ones of
observe-only hooks in `async_entries`), what was held back, and the few catalog facts about the
target client that the runner and `fire` use (`client`), resolved here so that neither
parses the catalog nor compares versions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookman import __version__, paths
from hookman.atomic_file import write_text_if_changed
from hookman.bridge import project_moved
from hookman.bridge.protocol import (
    ANY_EVENT,
    BLOCK_TEXTS,
    CLIENT_SECTION,
    CONTEXT_TEXT,
    DENY_EVENTS_TEXT,
    DENY_TEXT,
    EXIT2_BLOCKING_EVENTS,
    GUARDED_EVENTS,
    KNOWN_EVENTS,
    MANIFEST_SENTINELS_KEY,
    MESSAGE_CHANNELS,
    MODEL_TEXT,
    PLAIN_STDOUT_EVENTS,
    PRE_TOOL_USE,
    TOOL_EVENTS,
    TURN_CHANNELS,
    UPDATED_INPUT_BLOCKS_EVENTS,
    UPDATED_TOOL_OUTPUT,
)
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion
from hookman.errors import HookmanError
from hookman.project.config import HookSpec
from hookman.project.install_plan import InstallPlan
from hookman.project.location import config_path
from hookman.project.serve_paths import serve_section

MANIFEST_FORMAT = 1
SERVE_KEY = "serve"  # hookman/serve/wire.py MANIFEST_SERVE_KEY
FLAG_SOURCE = "flag"
INSTALLED_FROM = project_moved.INSTALLED_FROM


def installed_from(config: bytes | None, pins: bytes | Path | None) -> dict[str, str | None]:
    """The manifest's `installed_from`: the sha256 of hookman.toml's and of the pins file's
    bytes as this install leaves them (None for a file it leaves absent); `pins` a path
    when the install leaves the file as it is (its bytes now, whatever wrote them). The
    runner compares them with the files on every run (bridge/project_moved.py)."""
    pins_digest = (
        project_moved.file_digest(str(pins))
        if isinstance(pins, Path)
        else (None if pins is None else project_moved.sha256_hex(pins))
    )
    return {
        project_moved.CONFIG_KEY: None if config is None else project_moved.sha256_hex(config),
        project_moved.PINS_KEY: pins_digest,
    }


def build_manifest(
    project_dir: Path,
    hooks: Sequence[HookSpec],
    module_paths: Mapping[str, Path],
    plan: InstallPlan,
    version: ClientVersion | None,
    *,
    version_source: str | None = None,
    origins: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The manifest for `hooks` (dispatch order); `module_paths` maps names to modules.
    `version_source` "flag" makes later commands keep `version` as their target
    (`remembered_flag`). `origins` adds, per hook from a repository, `repo`, `rev`,
    `commit` and `package_root` (the store tree its sibling imports resolve against), and
    `trial` for a `hookman try-repo` hook."""
    origins = origins or {}
    return {
        "format": MANIFEST_FORMAT,
        "hookman_version": __version__,
        "project_dir": str(project_dir),
        "config_path": str(config_path(project_dir)),
        "state_dir": str(paths.project_state_dir(project_dir)),
        "log_path": str(paths.firing_log_path()),
        "claude_version": None if version is None else str(version),
        "claude_version_source": version_source,
        "hooks": [
            {**_hook_record(hook, module_paths[hook.name], plan), **origins.get(hook.name, {})}
            for hook in hooks
            if hook.enabled
        ],
        "entries": {
            event: {"matcher": entry.matcher, "timeout": entry.timeout, "deadline": entry.deadline}
            for event, entry in plan.entries.items()
        },
        "async_entries": {
            event: {"matcher": entry.matcher, "timeout": entry.timeout, "deadline": entry.deadline}
            for event, entry in plan.async_entries.items()
        },
        "held_back": dict(plan.held_back),
        CLIENT_SECTION: client_facts(version),
        **_serve_key(plan),
        **_sentinels_key(plan),
    }


def _sentinels_key(plan: InstallPlan) -> dict[str, Any]:
    """`"sentinels": {EVENT: {"matcher": M}}` when the plan has any, else nothing."""
    if not plan.sentinels:
        return {}
    return {
        MANIFEST_SENTINELS_KEY: {
            event: {"matcher": entry.matcher} for event, entry in plan.sentinels.items()
        }
    }


def _serve_key(plan: InstallPlan) -> dict[str, Any]:
    """`"serve": {"port": PORT}` when an entry reaches the warm hook server (the runner's
    prompt gate checks that server), else nothing: a manifest as it was."""
    section = serve_section(plan.serve)
    return {} if section is None else {SERVE_KEY: section}


def client_facts(version: ClientVersion | None) -> dict[str, Any]:
    """What the runner and `fire` need to know about client `version` (None: unknown).

    `updated_tool_output` is null when the answer depends on an unknown version; the model
    texts are then the newest measured ones.
    """
    return {
        KNOWN_EVENTS: event_catalog.claude_events(),
        TOOL_EVENTS: event_catalog.tool_events(),
        MESSAGE_CHANNELS: event_catalog.message_channel_events(),
        TURN_CHANNELS: event_catalog.turn_channel_events(),
        PLAIN_STDOUT_EVENTS: event_catalog.plain_stdout_events(),
        EXIT2_BLOCKING_EVENTS: event_catalog.exit2_blocking_events(),
        GUARDED_EVENTS: event_catalog.guarded_events(),
        UPDATED_INPUT_BLOCKS_EVENTS: event_catalog.updated_input_blocks_events(),
        UPDATED_TOOL_OUTPUT: event_catalog.can_update_tool_output(version),
        MODEL_TEXT: _model_texts(version),
    }


def _model_texts(version: ClientVersion | None) -> dict[str, Any]:
    """Templates of what the model reads; per-event context forms only where they differ."""
    default_context = event_catalog.default_model_text(CONTEXT_TEXT, version)
    contexts = {ANY_EVENT: default_context}
    for event in event_catalog.claude_events():
        if event_catalog.has_context_channel(event):
            text = event_catalog.model_text(event, CONTEXT_TEXT, version)
            if text != default_context:
                contexts[event] = text
    deny = event_catalog.model_text(PRE_TOOL_USE, DENY_TEXT, version)
    deny_events = {
        event: text
        for event in event_catalog.guarded_events()
        if (text := event_catalog.model_text(event, DENY_TEXT, version)) != deny
    }
    blocks = {
        event: texts
        for event in event_catalog.claude_events()
        if isinstance(texts := event_catalog.model_text(event, BLOCK_TEXTS, version), list)
    }
    return {
        DENY_TEXT: deny,
        DENY_EVENTS_TEXT: deny_events,
        CONTEXT_TEXT: contexts,
        BLOCK_TEXTS: blocks,
    }


def remembered_flag(project_dir: Path) -> str | None:
    """The `--claude-version` the project's settings were last written for, if they were
    written for one (None otherwise, or when the manifest cannot be read)."""
    flag, _written = remembered_versions(project_dir)
    return flag


def remembered_versions(project_dir: Path) -> tuple[str | None, str | None]:
    """(the remembered `--claude-version` or None, the version the settings were last
    written for, whatever its source, or None), from the project's manifest."""
    try:
        with paths.manifest_path(project_dir).open(encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None, None
    version = manifest.get("claude_version") if isinstance(manifest, dict) else None
    if not isinstance(version, str):
        return None, None
    return (version if manifest.get("claude_version_source") == FLAG_SOURCE else None), version


def manifest_text(manifest: Mapping[str, Any]) -> str:
    return json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"


def write_manifest(project_dir: Path, manifest: Mapping[str, Any]) -> bool:
    """Write the project's manifest unless it already holds these bytes."""
    path = paths.manifest_path(project_dir)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_text_if_changed(path, manifest_text(manifest))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write its manifest {path}: {error.strerror or error}; "
            "nothing was changed.",
            "check the permissions of hookman's state directory, or set HOOKMAN_HOME.",
        ) from error


def _hook_record(hook: HookSpec, module_path: Path, plan: InstallPlan) -> dict[str, Any]:
    return {
        "name": hook.name,
        "path": str(module_path),
        "events": list(hook.events),
        "claude_events": list(plan.claude_events.get(hook.name, ())),
        "tools": {event: list(names) for event, names in hook.tools.items()},
        "timeout": hook.timeout,
        "async": hook.is_async,
    }
