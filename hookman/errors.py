"""The one error type that business logic raises for the user to read."""

from __future__ import annotations


class HookmanError(Exception):
    """A problem the user can fix: one clear sentence, plus a hint saying how.

    The CLI prints `message` and `hint` on one screen line each and exits with `exit_code`
    (1: refused input or a problem found; 2: usage). Never shown with a traceback.
    """

    def __init__(self, message: str, hint: str | None = None, *, exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code
