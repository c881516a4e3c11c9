"""Every sync learns what each enabled hook of hookman.toml subscribes to from its code.

hookman.toml's `events` and `tools` are a record install keeps true, not an input: a sync
(install, enable, disable, remove, autoupdate, try-repo) loads every enabled hook whose
module is here, in ONE child process for all of them (none for a hook whose cached answer
is still good, hooks/subscription_cache.py), rewrites the record of each hook whose code
now says otherwise, and the settings entries follow. A hook whose module exists but does
not load (a syntax error, an exception in its factory, a timeout) stops the sync before
anything is written: its subscriptions cannot be known, and keeping the old record would
wire the old events in silence. A hook whose module this machine lacks keeps its record
(ARCHITECTURE.md: it blocks no other hook).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hookman.errors import HookmanError
from hookman.hooks.module_check import module_problem
from hookman.install.resolution import Resolution
from hookman.project.config import (
    HookSpec,
    ProjectConfigDocument,
    ProjectConfigView,
    load_project_config,
)

if TYPE_CHECKING:
    from hookman.hooks.subscriptions import LearnRequest, Subscriptions


class SubscriptionChange(NamedTuple):
    """A hook whose code subscribes to other events (or narrows them to other tools) than
    hookman.toml records: the record before, and what the code says."""

    hook: str
    before_events: tuple[str, ...]
    after_events: tuple[str, ...]
    before_tools: Mapping[str, tuple[str, ...]]
    after_tools: Mapping[str, tuple[str, ...]]

    @property
    def gained(self) -> tuple[str, ...]:
        return tuple(event for event in self.after_events if event not in self.before_events)

    @property
    def lost(self) -> tuple[str, ...]:
        return tuple(event for event in self.before_events if event not in self.after_events)

    @property
    def retooled(self) -> tuple[str, ...]:
        """The events subscribed before and now whose tools changed."""
        return tuple(
            event
            for event in self.after_events
            if event in self.before_events
            and set(self.before_tools.get(event, ())) != set(self.after_tools.get(event, ()))
        )


def change_of(hook: HookSpec, learned: Subscriptions) -> SubscriptionChange | None:
    """How the code's subscriptions differ from the hook's record (None: they agree; the
    order of the events is not a difference, so an agreeing record keeps its bytes)."""
    change = SubscriptionChange(
        hook.name, tuple(hook.events), learned.events, dict(hook.tools), dict(learned.tools)
    )
    if change.gained or change.lost or change.retooled:
        return change
    return None


def changes_of(
    hooks: list[HookSpec], learned: Mapping[str, Subscriptions]
) -> list[SubscriptionChange]:
    """The hooks whose record differs from what their code says, in hookman.toml's order."""
    found = (change_of(hook, learned[hook.name]) for hook in hooks if hook.name in learned)
    return [change for change in found if change is not None]


def learn_enabled(
    project_dir: Path,
    hooks: list[HookSpec],
    resolution: Resolution,
    *,
    keep: bool,
    known: Mapping[str, Subscriptions] | None = None,
    allow_unknown: bool = False,
    broken: Collection[str] | None = None,
) -> dict[str, Subscriptions]:
    """What each enabled hook of `hooks` whose module is here subscribes to (`known`: hooks
    just learned by the command, not learned again). Raises, naming the hook, for the first
    one that does not load, and for a new event name no client knows (unless
    `allow_unknown`): nothing is written then. `broken`: the hooks whose module does not
    compile, when the caller knows them already (else each module is compiled here)."""
    from hookman.hooks.subscriptions import check_event_names, learn_many

    given = dict(known or {})
    wanted = [
        hook
        for hook in hooks
        if hook.enabled and hook.name not in resolution.missing and hook.name not in given
    ]
    for hook in wanted:
        if broken is not None and hook.name not in broken:
            continue
        problem = module_problem(resolution.paths[hook.name])
        if problem is not None:
            raise _refusal(hook.name, f"the hook {hook.name!r} {problem}")
    requests = [_request(hook, resolution) for hook in wanted]
    outcomes = learn_many(requests, project_dir, keep=keep) if requests else {}
    learned: dict[str, Subscriptions] = {}
    for hook in wanted:
        outcome = outcomes.get(hook.name)
        if outcome is None or isinstance(outcome, HookmanError):
            raise _refusal(hook.name, _reason(hook.name, outcome), outcome)
        new_names = [event for event in outcome.events if event not in hook.events]
        check_event_names(hook.name, new_names, allow_unknown=allow_unknown)
        learned[hook.name] = outcome
    return {**given, **learned}


def record_learned(
    project_dir: Path, config: ProjectConfigView, changes: list[SubscriptionChange]
) -> ProjectConfigView:
    """hookman.toml with each changed hook's `events` and `tools` rewritten to what its code
    says (tomlkit: comments and layout kept). A view is loaded for editing (it holds no
    edits, so the file on disk is the same)."""
    if not changes:
        return config
    document = config if isinstance(config, ProjectConfigDocument) else None
    if document is None:
        document = load_project_config(project_dir)
    document.set_subscriptions(
        {change.hook: (change.after_events, change.after_tools) for change in changes}
    )
    return document


def _request(hook: HookSpec, resolution: Resolution) -> LearnRequest:
    from hookman.hooks.subscriptions import LearnRequest

    origin = resolution.origins.get(hook.name) or {}
    root = origin.get("package_root")
    return LearnRequest(hook.name, resolution.paths[hook.name], Path(root) if root else None)


def _reason(name: str, outcome: HookmanError | None) -> str:
    if outcome is None:  # an earlier hook hung or crashed the child: this one was not reached
        return f"the hook {name!r} was not loaded (an earlier hook stopped the loading)"
    return outcome.message.rstrip(".")


def _refusal(name: str, reason: str, cause: HookmanError | None = None) -> HookmanError:
    fix = "fix the module (`hookman fire EVENT` shows the error) and run the command again"
    if cause is not None and cause.hint:
        fix = cause.hint.rstrip(".")
    return HookmanError(
        f"{reason}; hookman cannot learn what it subscribes to, so nothing was written.",
        f"{fix}; or switch the hook off with `hookman disable {name}`.",
    )
