"""The timeout that counts: the one in the settings entry Claude Code runs, not the one the
manifest recorded at install. A user who lowers an entry's `timeout` by hand in
settings.local.json makes the client kill the runner sooner; the runner must decide (a deny
on a guarded event) before that, so it reads its own entries' timeouts at start. Cheap: the
file is small, and skipped unless it names the launcher (an http entry of the warm
server counts too: the server's child runs under its timeout). Codex CLI's entries live in
.codex/hooks.json (CODEX_HOOKS_FILE), in the same shape; Codex kills a hook at their timeout
and then runs the command, so a Codex run reads that file instead."""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.protocol import CODEX_AGENT, LAUNCHER_NAME
from hookman.bridge.state_file import read_regular

TYPE_CHECKING = False  # (typing itself is not imported on the runner's path)
if TYPE_CHECKING:
    from collections.abc import Iterator

SETTINGS_FILE = os.path.join(".claude", "settings.local.json")
CODEX_HOOKS_FILE = os.path.join(".codex", "hooks.json")
DEADLINE_MIN_MARGIN_S = 1.0
DEADLINE_MARGIN_FRACTION = 0.1


def agent_entries_file(agent: str | None) -> tuple[str, bool]:
    """The file holding the entries `agent` runs (relative to the project) and whether its
    events are top-level keys (Factory droid's .factory/hooks.json) rather than under
    "hooks". Claude Code, Copilot (which runs Claude Code's entries) and agents without
    facts: settings.local.json."""
    if agent == CODEX_AGENT:
        return CODEX_HOOKS_FILE, False
    if agent is None:
        return SETTINGS_FILE, False
    from hookman.bridge import agent_facts as agent_catalog

    if agent not in agent_catalog.OTHER_AGENTS:
        return SETTINGS_FILE, False
    shape = agent_catalog.config_shape(agent)
    return agent_catalog.config_file(agent), shape == agent_catalog.SHAPE_TOP_LEVEL


def settings_timeout(
    project_dir: str, event: str, settings_file: str = SETTINGS_FILE, *, top_level: bool = False
) -> float | None:
    """The smallest `timeout` of hookman's blocking handlers for `event` in the project's
    settings.local.json (or `settings_file`, relative to the project: CODEX_HOOKS_FILE; its
    events `top_level` keys: droid's); None when there is none or the file cannot be read."""
    try:
        data = read_regular(os.path.join(project_dir, settings_file), follow=True)
    except OSError:
        return None
    if LAUNCHER_NAME.encode() not in data:
        return None
    try:
        loaded = lean_json.loads(data)
        groups = (loaded if top_level else loaded["hooks"])[event]
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    found: list[float] = []
    for handler in handlers_in(groups):
        if handler.get("async") is True:
            continue
        command, timeout = handler.get("command"), handler.get("timeout")
        if not _hookmans_entry(handler, command, event):
            continue
        if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
            found.append(float(timeout))
    return min(found) if found else None


def handlers_in(groups: object) -> Iterator[dict[str, object]]:
    """The handler objects of one event's matcher groups, in file order; malformed parts
    (not a list, not an object, no `hooks` list) skipped."""
    for _matcher, handler in matched_handlers_in(groups):
        yield handler


def matched_handlers_in(groups: object) -> Iterator[tuple[str | None, dict[str, object]]]:
    """(its group's matcher, the handler) for each handler of one event's matcher groups, as
    handlers_in walks them; the matcher None where the group has none (or not as text)."""
    for group in groups if isinstance(groups, list) else ():
        handlers = group.get("hooks") if isinstance(group, dict) else None
        matcher = group.get("matcher") if isinstance(group, dict) else None
        shown = matcher if isinstance(matcher, str) and matcher else None
        for handler in handlers if isinstance(handlers, list) else ():
            if isinstance(handler, dict):
                yield shown, handler


def deadlines_within(timeout: float) -> tuple[float, float]:
    """The runner's deadline and hard stop for a Claude Code timeout: the deadline below it
    by max(1 s, 10 %) (at least half the timeout), the hard stop halfway to the timeout."""
    margin = max(DEADLINE_MIN_MARGIN_S, DEADLINE_MARGIN_FRACTION * timeout)
    deadline = max(timeout - margin, timeout / 2)
    deadline = deadline * 1000 // 1 / 1000
    return deadline, deadline + (timeout - deadline) / 2


def _hookmans_entry(handler: dict[str, object], command: object, event: str) -> bool:
    """Whether the handler is hookman's blocking entry for `event`: its launcher's
    command, or the warm server's http entry."""
    if handler.get("type") == "http":
        return serves_event(handler.get("url"), event)
    if not isinstance(command, str) or " --async" in command:
        return False
    return runs_launcher_for(command, event)


def serves_event(url: object, event: str) -> bool:
    """Whether an http entry's `url` is hookman's server's for `event` (not an async one):
    the warm server's child runs under that entry's timeout (hookman/serve/wire.py)."""
    from hookman.bridge.serve_proof import HOOK_PATH_PREFIX, HOST

    if not isinstance(url, str) or f"//{HOST}:" not in url:
        return False
    return url.endswith(HOOK_PATH_PREFIX + event)


def runs_launcher_for(command: str, event: str) -> bool:
    """Whether `command` runs hookman's launcher for `event`: the launcher's name, maybe a
    closing quote, white space, then the event as a whole word (no `re`: compiling a
    pattern on every run costs more than this scan)."""
    start = command.find(LAUNCHER_NAME)
    while start >= 0:
        rest = command[start + len(LAUNCHER_NAME) :]
        if rest[:1] == "'":
            rest = rest[1:]
        words = rest.lstrip()
        if len(words) < len(rest) and words.startswith(event):
            after = words[len(event) : len(event) + 1]
            if not (after.isalnum() or after in ("_", "-")):
                return True
        start = command.find(LAUNCHER_NAME, start + 1)
    return False
