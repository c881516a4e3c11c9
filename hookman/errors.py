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


def out_of_descriptors(error: BaseException) -> HookmanError | None:
    """The sentence for an OSError of running out of open files (the process's limit or the
    system's), or None for any other error: a limit set too low is the user's to raise, not
    a crash to report."""
    import errno

    number = getattr(error, "errno", None)
    if number == errno.ENFILE:
        return HookmanError(
            "the system ran out of open files.", "close some programs and run the command again."
        )
    if number != errno.EMFILE:
        return None
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        allowed = f"this process may open {soft} at most (`ulimit -n`)"
    except (ImportError, OSError, ValueError):  # the limit left no room to load the module
        allowed = "the limit `ulimit -n` shows is too low"
    return HookmanError(
        f"too few open files for hookman: {allowed}.",
        "raise the limit (`ulimit -n 1024`) and run the command again.",
    )
