"""The sentences about which entries reach the warm hook server and which stay command entries
(install, remove, enable, doctor, fire): project/serve_paths.py's data in words."""

from __future__ import annotations

from hookman.catalog.client_version import ClientVersion
from hookman.project import serve_paths
from hookman.project.serve_paths import ServePlan

START_HINT = "hookman serve start"


def _reason(reason: str, plan: ServePlan, version: ClientVersion | None) -> str:
    client = f"Claude Code {version}" if version is not None else "the target Claude Code"
    texts = {
        serve_paths.PROMPT_GATE: "the prompt gate, which checks the server and starts it",
        serve_paths.NO_ON_FAILURE: f"{client} has no onFailure (it came in "
        f"{plan.on_failure_since}), so a failing server could not block the tool",
        serve_paths.NO_HTTP: f"{client} has no http hooks (they came in {plan.http_since})",
        serve_paths.NO_HTTP_EVENT: "Claude Code skips http entries on this event",
        serve_paths.VERSION_UNKNOWN: "the target Claude Code version is unknown "
        "(pass --claude-version V)",
        serve_paths.COPILOT: "GitHub Copilot CLI runs this file too, and its http hooks were "
        "never measured",
        serve_paths.DOLLAR_PATH: "hookman's state directory has a `$` in its path, which "
        "Claude Code would expand in the entry's header",
    }
    return texts.get(reason, reason)


def _names(events: list[str]) -> str:
    return ", ".join(events)


def paths_sentence(plan: ServePlan, version: ClientVersion | None) -> str:
    """One line: the events whose entries reach the server, and those that stay command
    entries with why (the version, the prompt gate)."""
    parts: list[str] = []
    served = plan.server_events()
    served += [f"{e} (async)" for e, path in plan.async_paths.items() if path.server]
    if served:
        verb = "goes" if len(served) == 1 else "go"
        parts.append(f"{_names(served)} {verb} to it")
    for reason, events in serve_paths.reasons_by_path(plan).items():
        if reason in serve_paths.SERVER_REASONS:
            continue
        verb = "stays a command entry" if len(events) == 1 else "stay command entries"
        parts.append(f"{_names(events)} {verb} ({_reason(reason, plan, version)})")
    said = "; ".join(parts) if parts else "no entry to write"
    return f"warm hook server (127.0.0.1:{plan.port}): {said}."


def not_running_sentence(plan: ServePlan, state: str, detail: str = "") -> str:
    """The server the entries reach does not answer as hookman's: what that means now."""
    from hookman.bridge.serve_proof import UNRESPONSIVE_FIX
    from hookman.doctor.serve_probe import OTHER, UNRESPONSIVE

    guarded = [e for e, p in plan.paths.items() if p.server and p.on_failure is not None]
    observed = [e for e, p in plan.paths.items() if p.server and p.on_failure is None]
    observed += [e for e, p in plan.async_paths.items() if p.server and e not in observed]
    effects = []
    if guarded:
        effects.append(f"{_names(guarded)} calls are denied")
    if observed:
        effects.append(f"{_names(observed)} hooks do not run")
    effect = " and ".join(effects) or "nothing reaches the hooks"
    if state == OTHER:
        why = f"another process holds port {plan.port}" + (f" ({detail})" if detail else "")
        return f"{why}: until it is gone {effect}."
    if state == UNRESPONSIVE:
        return f"{detail}; until it answers, {effect} ({UNRESPONSIVE_FIX})."
    return (
        f"the warm hook server is not running: start it with `{START_HINT}`; until it runs, "
        f"{effect}."
    )
