"""Which guards the project asks for now that no installed entry reaches: the truth about a
project that moved on after a pull, as the client sees it.

Claude Code calls hookman only for the entries written in settings.local.json (the
manifest's `entries` are what install wrote there), and only when an entry's matcher
matches the tool. A guard hookman.toml gained (a teammate's `hookman install`, pulled), or a
tool_call guard a hook's code gained, on an event or a tool no installed entry reaches is
not wired: the client runs those calls without hookman, so nothing denies them, until
`hookman install` writes the entries. The runner cannot notice it (it is never called), so
`fire`, `list` and `doctor` say it.

Cheap: the plan of hookman.toml now (install's own planner, per hook) against the
manifest's entries; each hook's code subscriptions come from the caller (the subscription
cache: install/subscription_gaps.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hookman import paths
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, parse_version
from hookman.project.install_plan import matcher_matches, plan_install

if TYPE_CHECKING:
    from hookman.bridge.manifest_reader import Manifest
    from hookman.hooks.subscriptions import Subscriptions
    from hookman.project.config import HookSpec, ProjectConfigView


class UnwiredGuard(NamedTuple):
    """A guard the project asks for that no installed entry reaches."""

    hook: str
    event: str  # the Claude Code event (PreToolUse, PreSkillShellCommand)
    tools: tuple[str, ...] | None  # the tools no installed entry reaches; None: every tool
    installed_matcher: str | None  # the installed entry's matcher; None with no entry
    has_entry: bool  # whether an entry for the event is installed at all

    def subject(self) -> str:
        """`PreToolUse on Write`, `PreToolUse on every tool`."""
        tools = "every tool" if self.tools is None else ", ".join(self.tools)
        return f"{self.event} on {tools}"

    def sentence(self) -> str:
        """What list, doctor and fire say about it."""
        if not self.has_entry:
            why = f"no {self.event} entry is installed"
        else:
            why = f"the installed {self.event} entry matches {self.installed_matcher} only"
        return (
            f"the guard {self.hook} ({self.subject()}) is not wired here ({why}): Claude Code "
            f"runs those calls without hookman, and nothing denies them, until `hookman "
            f"install`."
        )


def entry_reaches(entries: Mapping[str, Any], event: str, tool: str | None) -> bool:
    """Whether one of `entries` (the manifest's: event -> {"matcher": ...}) makes the client
    call hookman for `event` on `tool`."""
    entry = entries.get(event)
    if not isinstance(entry, dict):
        return False
    return matcher_matches(entry.get("matcher"), tool)


def manifest_reaches(manifest: Manifest, event: str, tool: str | None) -> bool:
    """Whether the installed entries make the client call hookman for `event` on `tool`: a
    blocking entry, or the event's sentinel (project/sentinel.py), which calls the runner
    once a file install read changed (so the runner's project-changed and drift checks deny
    what install did not wire)."""
    return entry_reaches(manifest.entries, event, tool) or entry_reaches(
        manifest.sentinels, event, tool
    )


def installed_entries(project_dir: Path) -> tuple[dict[str, Any], ClientVersion | None] | None:
    """The manifest's entries that reach hookman (blocking ones; where a sentinel reaches
    what an event's blocking entry does not, with no matcher: every tool) and its target
    version; None when nothing is installed or the manifest cannot be read
    (bridge/manifest_reader.py, the one reader)."""
    from hookman.bridge.manifest_reader import ManifestError, read_manifest

    try:
        manifest = read_manifest(str(paths.manifest_path(project_dir)))
    except ManifestError:
        return None
    version = None
    if manifest.claude_version:
        try:
            version = parse_version(manifest.claude_version)
        except ValueError:
            version = None
    entries = dict(manifest.entries)
    for event in manifest.sentinels:
        entries[event] = {"matcher": None}  # the two together reach every tool
    return entries, version


def unwired_guards(
    config: ProjectConfigView,
    project_dir: Path,
    code: Mapping[str, Subscriptions],
) -> list[UnwiredGuard]:
    """The guards hookman.toml's enabled hooks (with what their code subscribes to, where
    `code` knows it) ask for that no installed entry reaches; empty when nothing is
    installed (then nothing is wired at all, and list and doctor say that)."""
    installed = installed_entries(project_dir)
    if installed is None:
        return []
    entries, version = installed
    found: list[UnwiredGuard] = []
    for hook in config.hooks:
        if hook.enabled:
            found += _unwired_of(_as_coded(hook, code.get(hook.name)), entries, version)
    return found


def _as_coded(hook: HookSpec, learned: Subscriptions | None) -> HookSpec:
    if learned is None:
        return hook
    return replace(hook, events=tuple(learned.events), tools=dict(learned.tools))


def _unwired_of(
    hook: HookSpec, entries: Mapping[str, Any], version: ClientVersion | None
) -> list[UnwiredGuard]:
    guarded = event_catalog.guarded_events()
    found: list[UnwiredGuard] = []
    for event, planned in plan_install([hook], version).entries.items():
        if event not in guarded:
            continue
        entry = entries.get(event)
        if not isinstance(entry, dict):
            found.append(UnwiredGuard(hook.name, event, planned.tools, None, False))
            continue
        matcher = entry.get("matcher")
        if matcher_matches(matcher, None):
            continue  # every tool
        if planned.tools is None:
            found.append(UnwiredGuard(hook.name, event, None, str(matcher), True))
            continue
        missing = tuple(tool for tool in planned.tools if not matcher_matches(matcher, tool))
        if missing:
            found.append(UnwiredGuard(hook.name, event, missing, str(matcher), True))
    return found
