"""Learns what a hook subscribes to by running its factory with the runtime loader.

The factory runs in a child process (`sys.executable -c ...`, cwd = the project) with a
timeout, so a hook that hangs, crashes or calls `sys.exit()` on import cannot hang or kill
the CLI. The child's stdout carries one JSON document; the hook's own prints are redirected
to stderr inside the child so they cannot corrupt it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hookman
from hookman import event_catalog
from hookman.errors import HookmanError
from hookman.runtime.exec_command import exec_command

LEARN_TIMEOUT_S = 10.0
ERROR_TEXT_LIMIT = 400
ALL_TOOLS = "*"

# Runs in the child. Keeps the real stdout for the JSON answer, then points fd 1 and
# sys.stdout at stderr so nothing the hook prints (or its subprocesses write) reaches it.
_CHILD_CODE = r"""
import json, os, sys
answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]
hook_path, cwd, package_root = sys.argv[1:4]
try:
    from hookman.runtime.loader import load_hooks
except ImportError:
    sys.path.insert(0, package_root)
    from hookman.runtime.loader import load_hooks
result = load_hooks([hook_path], cwd)
loaded = []
for hook in result.hooks:
    filters = getattr(hook, "tool_filters", None) or {}
    loaded.append({
        "events": list(hook.handlers),
        "tools": {event: (None if names is None else list(names))
                  for event, names in filters.items()},
        "commands": list(getattr(hook, "commands", None) or {}),
    })
errors = [{"path": error.path, "error": error.error} for error in result.errors]
json.dump({"loaded": loaded, "errors": errors}, answer)
answer.flush()
"""


@dataclass(frozen=True)
class Subscriptions:
    """What a hook's factory registered: events in registration order, the tool names each
    tool event was narrowed to (absent = all tools), and its command names."""

    events: tuple[str, ...]
    tools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    commands: tuple[str, ...] = ()


def learn_subscriptions(
    hook_name: str, module_path: Path, project_dir: Path, *, timeout: float | None = None
) -> Subscriptions:
    """Load the hook in a child process and report what it subscribes to (the factory
    gets `timeout` seconds, default LEARN_TIMEOUT_S)."""
    limit = LEARN_TIMEOUT_S if timeout is None else timeout
    answer = _run_child(hook_name, module_path, project_dir, limit)
    errors = answer.get("errors") or []
    if errors:
        raise HookmanError(
            f"the hook {hook_name!r} ({module_path}) failed to load: "
            f"{_shorten(str(errors[0].get('error')))}",
            f"fix the module and run `hookman install {hook_name}` again "
            "(`hookman fire` shows the hook's own output).",
        )
    loaded = answer.get("loaded") or []
    if len(loaded) != 1:
        raise HookmanError(
            f"the hook {hook_name!r} ({module_path}) did not load.",
            "check that the module defines `def hook(pi): ...`.",
        )
    return _subscriptions_from(loaded[0])


def unknown_events(events: Sequence[str]) -> list[str]:
    """The names that are neither Claude Code nor runtime events."""
    return [event for event in events if not event_catalog.is_known_event(event)]


def check_event_names(hook_name: str, events: Sequence[str], *, allow_unknown: bool) -> list[str]:
    """Refuse unknown event names (with a did-you-mean) unless allowed; returns them."""
    unknown = unknown_events(events)
    if unknown and not allow_unknown:
        name = unknown[0]
        suggestion = event_catalog.did_you_mean(name)
        guess = f"did you mean {suggestion!r}? " if suggestion else ""
        raise HookmanError(
            f"the hook {hook_name!r} subscribes to {name!r}, which is neither a Claude Code "
            "event nor a hookman runtime event.",
            f"{guess}Fix the name in the hook, or pass --allow-unknown-event to keep it (inert).",
        )
    return unknown


def _run_child(
    hook_name: str, module_path: Path, project_dir: Path, timeout: float
) -> dict[str, Any]:
    package_root = str(Path(hookman.__file__).resolve().parent.parent)
    child = exec_command(
        sys.executable,
        ["-c", _CHILD_CODE, str(module_path), str(project_dir), package_root],
        str(project_dir),
        timeout=timeout,
        kill_grace=0.5,
    )
    if child.killed:
        raise HookmanError(
            f"loading the hook {hook_name!r} ({module_path}) did not finish within "
            f"{timeout:g} seconds.",
            "a factory should only register handlers: move slow or blocking work "
            "(network, input(), sleeps) into the handlers.",
        )
    answer = _parse_answer(child.stdout)
    if child.code != 0 or answer is None:
        detail = _last_lines(child.stderr) or f"exit code {child.code}"
        raise HookmanError(
            f"loading the hook {hook_name!r} ({module_path}) crashed: {detail}",
            f"run `{Path(sys.executable).name} {module_path}` to see the full error, fix it, "
            "and install again.",
        )
    return answer


def _parse_answer(stdout: str) -> dict[str, Any] | None:
    try:
        answer = json.loads(stdout)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def _subscriptions_from(loaded: dict[str, Any]) -> Subscriptions:
    events = tuple(str(event) for event in loaded.get("events") or [])
    filters = loaded.get("tools") or {}
    tools: dict[str, tuple[str, ...]] = {}
    for event in events:
        names = filters.get(event)
        # No list, an empty list or "*" all mean every tool: never narrow by accident.
        if not names or ALL_TOOLS in names or not event_catalog.is_tool_subscription(event):
            continue
        tools[event] = tuple(dict.fromkeys(str(name) for name in names))
    commands = tuple(str(name) for name in loaded.get("commands") or [])
    return Subscriptions(events=events, tools=tools, commands=commands)


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return _shorten(" | ".join(lines[-count:]))


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= ERROR_TEXT_LIMIT else text[: ERROR_TEXT_LIMIT - 3] + "..."
