"""What `hookman fire` (and doctor's probe) adds when the project moved on since `hookman
install` (bridge/project_moved.py): the hooks shown are the ones installed, and the real
runner answers a guarded event with its deny, so the answer shown is that deny; on an
observe-only event the hooks run as installed and the user is told once.

The runner denies only what reaches it: Claude Code calls hookman for an installed entry
whose matcher matches the tool, and for nothing else (install/guard_wiring.py). A guarded
call no installed entry reaches runs without hookman, so the answer shown is none at all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookman.bridge.dispatch import OUTCOME_OK
from hookman.bridge.project_moved import changed_deny_reason, project_change
from hookman.bridge.protocol import PROMPT_GATE_EVENT, deny_answer, stop_answer
from hookman.install.guard_wiring import entry_reaches, manifest_reaches

if TYPE_CHECKING:
    from hookman.bridge.dispatch import DispatchResult
    from hookman.bridge.manifest_reader import Manifest


def answer_as_changed(
    manifest: Manifest, event: str, result: DispatchResult, payload: dict[str, Any]
) -> str | None:
    """Make `result` what the runner answers when the project changed since install (the
    deny, on a guarded event an installed entry reaches; nothing, on one no entry reaches);
    the effect to show, or None when nothing changed."""
    change = project_change(manifest.installed_from, manifest.config_path)
    if change is None:
        return _answer_as_drifted(manifest, event, result, payload)
    where = manifest.project_dir
    if _gates(manifest, event):
        reason = changed_deny_reason(event, change, where)
        _refused(result, event, stop_answer(reason), f"{change.shown()} changed since install")
        return (
            f"{change.shown()} changed since `hookman install` ran in {where}: the prompt gate "
            f"stops every prompt (the model is not asked) until `hookman install`."
        )
    if not manifest.client.is_guarded(event):
        return _observed_as_changed(manifest, event, result, payload, change.shown())
    tool = _tool(payload)
    if not manifest_reaches(manifest, event, tool):
        return _not_reached(manifest, event, tool, result, change.shown())
    reason = changed_deny_reason(event, change, where)
    _refused(result, event, deny_answer(event, reason), f"{change.shown()} changed since install")
    return (
        f"{change.shown()} changed since `hookman install` ran in {where}: the hooks above are "
        f"the ones installed then, and the runner does not let them decide: it answers this "
        f"deny on every {event} its installed entry reaches until `hookman install`."
    )


def _observed_as_changed(
    manifest: Manifest, event: str, result: DispatchResult, payload: dict[str, Any], shown: str
) -> str:
    """An observe-only event: the hooks installed then run on it, where an installed entry
    makes Claude Code call hookman for it (for nothing else) and a hook listens."""
    where = manifest.project_dir
    tool = _tool(payload)
    if not (
        manifest_reaches(manifest, event, tool)
        or entry_reaches(manifest.async_entries, event, tool)
    ):
        on = f" on {tool}" if tool else ""
        return (
            f"{shown} changed since `hookman install` ran in {where}, and "
            f"{_no_entry(manifest, event)}: Claude Code does not call hookman for this "
            f"{event}{on}, so no hook runs on it until `hookman install` writes the entries "
            f"hookman.toml asks for now (if any)."
        )
    if not result.hooks:
        return (
            f"{shown} changed since `hookman install` ran in {where}: no hook installed then "
            f"listens to this event, and none will until `hookman install` runs what the "
            f"project says now; the user is told once."
        )
    return (
        f"{shown} changed since `hookman install` ran in {where}: the hooks above are the ones "
        f"installed then, and they still run on this event; the user is told once. Run "
        f"`hookman install` to run what the project says now."
    )


def _tool(payload: dict[str, Any]) -> str | None:
    tool = payload.get("tool_name")
    return tool if isinstance(tool, str) else None


def _no_entry(manifest: Manifest, event: str) -> str:
    """Why Claude Code does not call hookman for `event`: no entry, or its matcher."""
    entry = manifest.entries.get(event) or manifest.async_entries.get(event)
    if not isinstance(entry, dict):
        return f"no {event} entry is installed here"
    return f"the installed {event} entry matches {entry.get('matcher')} only"


def _not_reached(
    manifest: Manifest, event: str, tool: str | None, result: DispatchResult, shown: str
) -> str:
    """No installed entry reaches this call: Claude Code does not call hookman, the call
    runs; the answer shown is the client's own (none)."""
    result.answer = {}
    result.outcome = OUTCOME_OK
    result.exit_code = 0
    on = f" on {tool}" if tool else ""
    return (
        f"{shown} changed since `hookman install` ran in {manifest.project_dir}, but "
        f"{_no_entry(manifest, event)}: "
        f"Claude Code does not call hookman for this {event}{on}, and runs it without hookman "
        f"(nothing denies it, whatever the project's guards say now) until `hookman install` "
        f"writes the entries hookman.toml asks for; the prompt gate stops the session's next "
        f"prompt."
    )


def _gates(manifest: Manifest, event: str) -> bool:
    """Whether the runner answers `event` as the project's prompt gate (run_command)."""
    return event == PROMPT_GATE_EVENT and bool(manifest.config_path)


def _refused(result: DispatchResult, event: str, answer: dict[str, Any], problem: str) -> None:
    result.answer = answer
    result.outcome = "failed-closed"
    result.exit_code = 0
    result.errors.append({"hook": "hookman", "event": event, "error": problem})


def _answer_as_drifted(
    manifest: Manifest, event: str, result: DispatchResult, payload: dict[str, Any]
) -> str | None:
    """The runner's answer when a path hook's code guards what install did not wire
    (bridge/guard_drift.py): on the gate, or a guarded event an installed entry reaches
    (Claude Code calls hookman for no other), whose hooks let it through."""
    gates = _gates(manifest, event)
    if not (gates or manifest.client.is_guarded(event)) or not manifest.config_path:
        return None
    tool = payload.get("tool_name") if isinstance(payload.get("tool_name"), str) else None
    if not gates and not manifest_reaches(manifest, event, tool):
        return None
    if result.outcome not in (OUTCOME_OK, "errors"):
        return None
    from hookman.bridge.guard_drift import drift_reason, guard_drift

    drift = guard_drift(manifest, None)
    if not drift:
        return None
    reason = drift_reason(event, drift, manifest.project_dir)
    answer = stop_answer(reason) if gates else deny_answer(event, reason)
    _refused(result, event, answer, "; ".join(item.shown() for item in drift) + ", not installed")
    return (
        f"a hook's code guards what `hookman install` did not wire, so the runner "
        f"{'stops this prompt' if gates else 'denies this call'} until `hookman install`."
    )
