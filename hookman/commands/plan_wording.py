"""The warnings install, list and plugin build print about hooks that will not run as their
author expects, worded from the install plan's data (project/install_plan.py) and the target
client: held-back guards, a target newer than hookman's facts, never-sent events, capped
timeouts, async guards kept blocking, partial guards, inert events, miscased tool names."""

from __future__ import annotations

from collections.abc import Sequence

from hookman.catalog import event_catalog
from hookman.catalog.client_version import TargetVersion
from hookman.project.config import HookSpec
from hookman.project.install_plan import InstallPlan

# Why install writes a UserPromptSubmit entry no hook asked for (ARCHITECTURE.md, "The
# prompt gate").
PROMPT_GATE_NOTE = "prompt gate: stops a prompt when the project changed since install"
# Why install writes a second entry for a guarded event (project/sentinel.py).
SENTINEL_NOTE = "sentinel: denies if the project changed"


def held_back_sentences(plan: InstallPlan, target: TargetVersion) -> list[str]:
    """One line per event the target client is too old for (install, plugin build)."""
    version = "unknown" if target.version is None else str(target.version)
    return [
        f"held back {event}: needs Claude Code >= {since}, target is {version}"
        for event, since in plan.held_back.items()
    ]


def target_warnings(plan: InstallPlan, target: TargetVersion) -> list[str]:
    """Plain sentences about what the target client means for the hooks: a held-back event
    whose absence weakens a guard, and a target newer than any version hookman checked."""
    warnings: list[str] = [] if target.note is None else [target.note]
    for event, since in plan.held_back.items():
        effect = event_catalog.held_back_effect(event)
        if effect is not None:
            warnings.append(
                f"{event} is held back (it needs Claude Code >= {since}), so {effect}; "
                f"upgrade Claude Code and run `hookman install` again to guard them."
            )
    newest = event_catalog.newest_checked_client()
    if target.version is not None and target.version > newest:
        warnings.append(
            f"Claude Code {target.version} is newer than {newest}, the newest version hookman "
            f"has facts for, so hookman assumes it behaves like {newest}: the same events, "
            "answers and texts the model reads."
        )
    return warnings


def tool_name_warnings(hooks: Sequence[HookSpec]) -> list[str]:
    """A sentence for each tool name an enabled hook asks for that differs from a known
    tool's name only in case: Claude Code's matchers are exact, so it matches no tool."""
    warnings: list[str] = []
    for hook in hooks:
        if not hook.enabled:
            continue
        asked = dict.fromkeys(name for names in hook.tools.values() for name in names)
        for name in asked:
            known = event_catalog.miscased_tool(name)
            if known is not None:
                warnings.append(
                    f"the hook {hook.name!r} asks for the tool {name!r}, but tool names are "
                    f"case-sensitive and no tool is named so, so it never runs for it: did "
                    f"you mean {known!r}? Fix the name in the hook (or in hookman.toml) and "
                    f"run `hookman install`."
                )
    return warnings


def plan_warnings(plan: InstallPlan) -> list[str]:
    """Plain sentences about hooks that will not run under Claude Code as they are."""
    warnings: list[str] = []
    for name in plan.never_sent:
        warnings.append(
            f"the hook {name!r} listens only to runtime events Claude Code never sends; it runs "
            "in `hookman fire` and the Python API, never under Claude Code."
        )
    for name, asked in plan.session_end_capped.items():
        cap = (plan.entries.get("SessionEnd") or plan.async_entries["SessionEnd"]).timeout
        warnings.append(
            f"the hook {name!r} asks for {asked:g} s, but Claude Code gives SessionEnd hooks "
            f"at most {cap:g} s, so its SessionEnd entry gets {cap:g} s."
        )
    for name, kept in plan.kept_blocking.items():
        events = " and ".join(kept)
        warnings.append(
            f"the hook {name!r} is async, but Claude Code never waits for an async hook, so a "
            f"guard there could not deny: its {events} part stays in the blocking entry "
            f"(its other events run async)."
        )
    for name, missed in plan.partial_guards.items():
        for event in missed:
            warnings.append(
                f"the hook {name!r} guards through raw handlers, which Claude Code does not call "
                f"for {event_catalog.guards(event)} (it sends those to {event}): listen to "
                f"`tool_call` to guard them too, or to {event!r} as well."
            )
    for name, events in plan.inert_events.items():
        listed = ", ".join(repr(event) for event in events)
        warnings.append(
            f"the hook {name!r} keeps {listed}, which no known Claude Code version sends "
            "(inert: kept with --allow-unknown-event)."
        )
    return warnings
