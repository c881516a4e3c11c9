"""Whether a path hook's code now guards more than `hookman install` wired (ARCHITECTURE.md,
"The prompt gate"): a pull (or an edit) gave `.claude/hooks/guard.py` a `tool_call` handler
for Write, and the installed entries and manifest still say it guards Bash only. The runner
dispatches to a hook only the events its manifest record names, so that new guard runs
nowhere until install: the runner denies a guarded event, and stops a prompt at the gate,
naming the hook, instead of letting it be silent.

Only path hooks: a repository hook's code is pinned and verified by digest (a new version
comes with new pins, which bridge/project_moved.py notices). Each path hook is loaded here
the way the runner loads it (its factory is called again by the dispatch that follows; its
module is imported once per process), and what it registers is compared with its record:
only a guarding subscription (`tool_call`; `tool_result`, whose handler may redact what the
model reads; or a raw guarded event) the record lacks, or a tool it now asks for that the
record does not, counts. A hook that does not load is left
to the dispatch, which reports it where it is wired.

A comparison that found no drift is remembered in the state directory (`code-checked`)
with the stat of the manifest, of each path hook's module and of the helper files the
subscriptions cache (hooks/subscription_cache.py) lists for it: while those stay the same,
the next run compares stats and loads nothing. Standard library and the lean runtime only.
"""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.manifest_reader import TOOL_CALL
from hookman.bridge.project_moved import stat_text
from hookman.bridge.protocol import guarded_subject
from hookman.bridge.state_file import read_regular, read_text, replace_file

# The subscriptions whose handlers decide what runs or what the model reads: a guard, and a
# handler of a tool's result (it may redact what the model reads: unwired, the secret goes
# through).
TOOL_RESULT = "tool_result"
GUARDING = (TOOL_CALL, TOOL_RESULT)
CHECKED_NAME = "code-checked"
CACHE_FILE_NAME = "subscriptions.json"  # the subscriptions cache (hooks/subscription_cache.py)
ALL_TOOLS = "*"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.bridge.hook_set import CallTracker
    from hookman.bridge.manifest_reader import Manifest, ManifestHook


class Drift:
    """One hook's guarded subscription the installed record lacks: the subscription and the
    tools it now asks for that are not wired (None: every tool)."""

    __slots__ = ("hook", "subscription", "tools")

    def __init__(self, hook: str, subscription: str, tools: tuple[str, ...] | None) -> None:
        self.hook = hook
        self.subscription = subscription
        self.tools = tools

    def shown(self) -> str:
        what = "every tool" if self.tools is None else ", ".join(self.tools)
        if self.subscription == TOOL_RESULT:
            return f"{self.hook!r} now handles what {what} returns ({self.subscription})"
        return f"{self.hook!r} now guards {what} ({self.subscription})"


def guard_drift(
    manifest: Manifest, state_dir: str | None, tracker: CallTracker | None = None
) -> list[Drift]:
    """The path hooks' guarded subscriptions their installed records lack (empty: none).
    `tracker`: told which hook is loading, so a deadline names the one that hangs."""
    hooks = [hook for hook in manifest.hooks if hook.repo is None and hook.package_root is None]
    if not hooks:
        return []
    key = _checked_key(manifest, hooks, state_dir) if state_dir else None
    if key is not None and read_text(os.path.join(state_dir, CHECKED_NAME)) == key:
        return []
    found = _drift(manifest, hooks, tracker)
    if not found and key is not None:
        replace_file(os.path.join(state_dir, CHECKED_NAME), key)
    return found


def _drift(
    manifest: Manifest, hooks: list[ManifestHook], tracker: CallTracker | None
) -> list[Drift]:
    from hookman.runtime import load_hooks

    is_guarded = manifest.client.is_guarded
    found: list[Drift] = []
    for hook in hooks:
        if tracker is not None:
            tracker.current_hook = hook.name
        loaded = load_hooks([hook.path], manifest.project_dir).hooks
        for now in loaded:
            for subscription in now.handlers:
                if subscription not in GUARDING and not is_guarded(subscription):
                    continue
                missing = _unwired_tools(hook, subscription, now.tool_filters.get(subscription))
                if missing != ():
                    found.append(Drift(hook.name, subscription, missing))
    return found


def _unwired_tools(
    hook: ManifestHook, subscription: str, asked: list[str] | None
) -> tuple[str, ...] | None:
    """The tools `subscription` now asks for that the record does not wire: () none, None
    every tool."""
    if subscription not in hook.events:
        return None if not asked or ALL_TOOLS in asked else tuple(asked)
    recorded = hook.tools.get(subscription)
    if not recorded or ALL_TOOLS in recorded:
        return ()
    if not asked or ALL_TOOLS in asked:
        return None
    return tuple(name for name in asked if name not in recorded)


def _checked_key(manifest: Manifest, hooks: list[ManifestHook], state_dir: str) -> str:
    """The manifest's stat, and each path hook's module's and helpers', as one line."""
    sources = cached_sources(state_dir)
    files = [manifest.path]
    for hook in hooks:
        path = os.path.join(manifest.project_dir, hook.path)
        files.append(path)
        files.extend(sources.get(path, ()))
    return "\n".join(f"{path} {stat_text(path)}" for path in dict.fromkeys(files))


def cached_sources(state_dir: str) -> dict[str, list[str]]:
    """module path -> the files the subscriptions cache says its loading read; {} when the
    cache is missing or not the expected shape."""
    try:
        data = lean_json.loads(read_regular(os.path.join(state_dir, CACHE_FILE_NAME)))
    except (OSError, ValueError, RecursionError):  # a planted nesting: read as no cache
        return {}
    modules = data.get("modules") if isinstance(data, dict) else None
    if not isinstance(modules, dict):
        return {}
    found: dict[str, list[str]] = {}
    for path, entry in modules.items():
        sources = entry.get("sources") if isinstance(entry, dict) else None
        if isinstance(sources, dict):
            found[path] = [name for name in sources if isinstance(name, str)]
    return found


def drift_reason(event: str, drift: list[Drift], project_dir: str) -> str:
    """What the model and the user read when a guarded event is denied, or a prompt
    stopped, because a hook's code guards what install did not wire."""
    shown = "; ".join(item.shown() for item in drift)
    return (
        f"hookman blocked this {guarded_subject(event)} because the code of a hook changed "
        f"since `hookman install` last ran in {project_dir}: {shown}, which no installed "
        f"entry runs yet. Run `hookman install` in {project_dir}, then try again."
    )
