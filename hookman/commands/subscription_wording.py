"""What install and list say about a hook whose code subscribes to other events or tools
than hookman.toml records (install/learning.py's SubscriptionChange)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hookman.install.learning import SubscriptionChange
from hookman.install.subscription_gaps import SubscriptionGap

if TYPE_CHECKING:
    from hookman.hooks.subscriptions import Subscriptions
    from hookman.json_shapes import LearnedJson, SubscriptionChangeJson, SubscriptionGapJson


def change_sentences(change: SubscriptionChange) -> list[str]:
    """One sentence per kind of change: "guard now subscribes to agent_start", "guard no
    longer subscribes to tool_result", "guard's tool_call now covers Bash (before: every
    tool)"."""
    name = change.hook
    sentences = []
    if change.gained:
        sentences.append(f"{name} now subscribes to {_events(change.gained, change.after_tools)}")
    if change.lost:
        sentences.append(f"{name} no longer subscribes to {', '.join(change.lost)}")
    for event in change.retooled:
        after = _tools(change.after_tools.get(event))
        before = _tools(change.before_tools.get(event))
        sentences.append(f"{name}'s {event} now covers {after} (before: {before})")
    return sentences


def gap_sentence(gap: SubscriptionGap) -> str | None:
    """What `list` says about a hook whose code hookman.toml or the installed entries lag
    behind (None: no such gap)."""
    if gap.recorded is not None:
        said = "; ".join(change_sentences(gap.recorded))
        return (
            f"hookman.toml is behind the code of {gap.hook} ({said}): `hookman install` "
            "records what the code says and rewrites the entries."
        )
    if gap.installed is not None:
        said = "; ".join(change_sentences(gap.installed))
        return (
            f"the installed entries are behind the code of {gap.hook} ({said}): run "
            "`hookman install`."
        )
    return None


def gap_json(gap: SubscriptionGap | None) -> SubscriptionGapJson | None:
    if gap is None or (gap.recorded is None and gap.installed is None):
        return None
    recorded = None if gap.recorded is None else changes_json([gap.recorded])[0]
    installed = None if gap.installed is None else changes_json([gap.installed])[0]
    return {"hookman_toml": recorded, "installed": installed}


def learned_json(learned: Subscriptions | None) -> LearnedJson | None:
    if learned is None:
        return None
    tools = {event: list(names) for event, names in learned.tools.items()}
    return {"events": list(learned.events), "tools": tools}


def changes_json(changes: list[SubscriptionChange]) -> list[SubscriptionChangeJson]:
    """The changes as `--json` shows them (`subscriptions_changed`)."""
    return [
        {
            "hook": change.hook,
            "gained": list(change.gained),
            "lost": list(change.lost),
            "tools": {
                event: {
                    "before": _names(change.before_tools.get(event)),
                    "after": _names(change.after_tools.get(event)),
                }
                for event in change.retooled
            },
        }
        for change in changes
    ]


def _events(events: tuple[str, ...], tools: Mapping[str, tuple[str, ...]]) -> str:
    return ", ".join(
        f"{event} ({', '.join(tools[event])} only)" if event in tools else event for event in events
    )


def _tools(names: tuple[str, ...] | None) -> str:
    return ", ".join(names) if names else "every tool"


def _names(names: tuple[str, ...] | None) -> list[str] | None:
    return None if not names else list(names)
