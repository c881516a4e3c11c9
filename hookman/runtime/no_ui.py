"""The UI a hook sees when there is no interactive terminal (docs/hook-api.md, `ctx.ui`).

Under Claude Code there is never a UI a hook can drive: dialogs answer "nothing" at once
(`None`, or `False` for confirm) and display calls do nothing. The methods are synchronous
so that plain (non-async) handlers can call them.
"""

from __future__ import annotations


class NoUIContext:
    """`ctx.ui` when no UI is available: every prompt is declined, every display ignored."""

    theme: object = None  # hookman has no global theme

    def select(self, title: str, options: list[str], *args: object, **kwargs: object) -> None:
        return None

    def confirm(self, title: str, message: str, *args: object, **kwargs: object) -> bool:
        return False

    def input(
        self, title: str, placeholder: str | None = None, *args: object, **kwargs: object
    ) -> None:
        return None

    def editor(
        self, title: str, prefill: str | None = None, *args: object, **kwargs: object
    ) -> None:
        return None

    def notify(self, message: str, type: str | None = None) -> None:
        return None

    def set_status(self, key: str, text: str | None) -> None:
        return None

    def custom(self, factory: object, *args: object, **kwargs: object) -> None:
        return None

    def set_editor_text(self, text: str) -> None:
        return None

    def get_editor_text(self) -> str:
        return ""


class StatusRecordingUI(NoUIContext):
    """A no-UI context that remembers `set_status` texts and `notify` messages.

    The Claude Code bridge passes one to `HookRunner.initialize(ui=...)` and afterwards
    persists `statuses` for `hookman statusline`. Dialogs still answer as in no-UI mode,
    and `ctx.has_ui` stays False: nothing here can ask the user anything.
    """

    def __init__(self, statuses: dict[str, str] | None = None) -> None:
        self.statuses: dict[str, str] = dict(statuses) if statuses else {}
        self.notifications: list[tuple[str, str | None]] = []

    def set_status(self, key: str, text: str | None) -> None:
        """Store `text` under `key` (in place, "" included); `None` deletes the key."""
        if text is None:
            self.statuses.pop(key, None)
        else:
            self.statuses[key] = text if isinstance(text, str) else str(text)

    def notify(self, message: str, type: str | None = None) -> None:
        self.notifications.append((message if isinstance(message, str) else str(message), type))
