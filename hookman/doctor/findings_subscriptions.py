"""Findings about hooks whose code subscribes to other events or tools than hookman.toml
records or the installed entries serve (`subscriptions-changed`), and hooks whose module
compiles but whose factory does not load (`hookman-hook-does-not-load`).

Cheap while nothing changed: the code's answer comes from the subscription cache install
keeps (hooks/subscription_cache.py); only hooks whose module or helpers changed since are
loaded, in one child for all of them (install/subscription_gaps.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookman.doctor.context import Context
from hookman.doctor.findings_guard_wiring import check_guard_wiring
from hookman.doctor.model import Finding
from hookman.errors import HookmanError
from hookman.project.location import config_path, local_settings_path

if TYPE_CHECKING:
    from hookman.install.learning import SubscriptionChange
    from hookman.install.subscription_gaps import SubscriptionGap

CODE = "subscriptions-changed"
FIX = "run `hookman install` in the project: it records what the code says and wires it."


def check_subscriptions(ctx: Context) -> None:
    from hookman.project.config import read_project_config

    if not config_path(ctx.project_dir).exists():
        return
    try:
        config = read_project_config(ctx.project_dir)
    except HookmanError:
        return  # findings_hookman reports `hookman-config-invalid`
    from hookman.install.subscription_gaps import subscription_gaps

    view = subscription_gaps(config, ctx.project_dir)
    check_guard_wiring(ctx, config, view.code)
    for gap in view.gaps:
        if gap.failure is not None:
            problem, fix = gap.failure
            where = str(gap.module or config.path)  # where --probe reports it too: once
            ctx.add(Finding("hookman-hook-does-not-load", "error", where, problem, fix))
            continue
        ctx.add(_finding(ctx, gap, str(config.path)))


def _finding(ctx: Context, gap: SubscriptionGap, toml: str) -> Finding:
    recorded = None if gap.recorded is None else _said(gap.recorded)
    installed = None if gap.installed is None else _said(gap.installed)
    if recorded is not None and recorded == installed:
        parts = [f"hookman.toml and the installed entries have {recorded}"]
    else:
        parts = [] if recorded is None else [f"hookman.toml has {recorded}"]
        if installed is not None:
            parts.append(f"the installed entries have {installed}")
    silent = [] if gap.installed is None else _unserved(ctx, gap.installed)
    effect = (
        f": it does not run on {', '.join(silent)}, where its code expects to" if silent else ""
    )
    return Finding(
        CODE,
        "error" if silent else "warning",
        str(local_settings_path(ctx.project_dir)) if silent else toml,
        f"the code of the hook {gap.hook!r} subscribes to "
        f"{_subscribed(gap.recorded or gap.installed)}, but " + " and ".join(parts) + effect + ".",
        FIX,
    )


def _said(change: SubscriptionChange) -> str:
    """What the record holds, said against the code."""
    parts = []
    if change.gained:
        parts.append(f"nothing for {', '.join(change.gained)}")
    if change.lost:
        parts.append(f"{', '.join(change.lost)} too, which the code dropped")
    for event in change.retooled:
        before = change.before_tools.get(event)
        parts.append(f"{event} for {', '.join(before) if before else 'every tool'}")
    return "; ".join(parts)


def _subscribed(change: SubscriptionChange | None) -> str:
    if change is None or not change.after_events:
        return "no event"
    return ", ".join(
        f"{event} ({', '.join(change.after_tools[event])})"
        if event in change.after_tools
        else event
        for event in change.after_events
    )


def _unserved(ctx: Context, change: SubscriptionChange) -> list[str]:
    """The Claude Code events the code's subscriptions need entries on that the installed
    record does not get (within the events the target client runs): the hook is silent
    there. A widened tool list counts too."""
    from hookman.project.config import HookSource, HookSpec
    from hookman.project.install_plan import plan_install

    source = HookSource("path", change.hook)
    code = HookSpec(change.hook, source, events=change.after_events, tools=change.after_tools)
    installed = HookSpec(
        change.hook, source, events=change.before_events, tools=change.before_tools
    )
    wanted = plan_install([code], ctx.version).entries
    served = plan_install([installed], ctx.version).entries
    silent = [event for event in wanted if event not in served]
    for event, entry in wanted.items():
        before = served.get(event)
        if before is not None and before.matcher is not None and entry.matcher != before.matcher:
            silent.append(f"{event} ({entry.matcher or 'every tool'})")
    return silent
