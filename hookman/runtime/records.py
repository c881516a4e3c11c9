"""The runtime's plain records: load results, errors, commands, exec results.

Written as small slotted classes instead of dataclasses or NamedTuples: importing
`dataclasses` or `typing` would cost the runner several milliseconds on every Claude Code
event, and these records need nothing more than construction, equality and a repr.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


class Record:
    """A record whose `_fields` (in constructor order) define equality, hash and repr."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)

    def __hash__(self) -> int:
        return hash((type(self), *(_hashable(getattr(self, name)) for name in self._fields)))

    def __iter__(self) -> Iterator[object]:
        """Unpack like a tuple: `hooks, errors = load_hooks(paths, cwd)`."""
        return (getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


def _hashable(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


class HookError(Record):
    """A handler failed during dispatch: `hook_path` is the hook's original `path` string."""

    __slots__ = ("error", "event", "hook_path")
    _fields = ("hook_path", "event", "error")

    def __init__(self, hook_path: str, event: str, error: str) -> None:
        self.hook_path = hook_path
        self.event = event
        self.error = error


class LoadError(Record):
    """A hook that could not be loaded: `path` is the string as given, `error` the reason."""

    __slots__ = ("error", "path")
    _fields = ("path", "error")

    def __init__(self, path: str, error: str) -> None:
        self.path = path
        self.error = error


class RegisteredCommand(Record):
    """A slash command a hook registered; `handler(args: str, ctx)`."""

    __slots__ = ("description", "handler", "name")
    _fields = ("name", "description", "handler")

    def __init__(self, name: str, description: str | None, handler: Callable[..., object]) -> None:
        self.name = name
        self.description = description
        self.handler = handler


class ExecResult(Record):
    """What `pi.exec` resolves to. `code` is the exit status (negative: killed by that signal)."""

    __slots__ = ("code", "killed", "stderr", "stdout")
    _fields = ("stdout", "stderr", "code", "killed")

    def __init__(self, stdout: str, stderr: str, code: int, killed: bool) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.code = code
        self.killed = killed


class ToolBlockedError(Exception):
    """Raised by `HookToolWrapper.execute` when a tool_call handler blocked the call."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
