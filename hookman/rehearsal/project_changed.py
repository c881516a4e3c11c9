"""What `hookman fire` (and doctor's probe) adds when the project moved on since `hookman
install` (bridge/project_moved.py): the hooks shown are the ones installed, and the real
runner answers a guarded event with its deny, so the answer shown is that deny; on an
observe-only event the hooks run as installed and the user is told once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookman.bridge.project_moved import changed_deny_reason, project_change
from hookman.bridge.protocol import deny_answer

if TYPE_CHECKING:
    from hookman.bridge.dispatch import DispatchResult
    from hookman.bridge.manifest_reader import Manifest


def answer_as_changed(manifest: Manifest, event: str, result: DispatchResult) -> str | None:
    """Make `result` what the runner answers when the project changed since install (the
    deny, on a guarded event); the effect to show, or None when nothing changed."""
    change = project_change(manifest.installed_from, manifest.config_path)
    if change is None:
        return None
    where = manifest.project_dir
    if not manifest.client.is_guarded(event):
        return (
            f"{change.shown()} changed since `hookman install` ran in {where}: the hooks above "
            f"are the ones installed then, and they still run on this event; the user is told "
            f"once. Run `hookman install` to run what the project says now."
        )
    reason = changed_deny_reason(event, change, where)
    result.answer = deny_answer(event, reason)
    result.outcome = "failed-closed"
    result.exit_code = 0
    result.errors.append(
        {"hook": "hookman", "event": event, "error": f"{change.shown()} changed since install"}
    )
    return (
        f"{change.shown()} changed since `hookman install` ran in {where}: the hooks above are "
        f"the ones installed then, and the runner does not let them decide: it answers this "
        f"deny on every {event} until `hookman install`."
    )
