"""What one loaded hook holds (`LoadedHook`) and the `pi` object its factory receives.

Each loaded module gets its own `HookAPI` writing into its own `LoadedHook`
(docs/hook-api.md, "The pi object"). Registration checks what Python can check early (a handler
that cannot take `(event, ctx)`, `tools` given as a bare string) so that mistakes become
load errors that `hookman install` can show, not failures on every event.
"""

from __future__ import annotations

from hookman.runtime.records import RegisteredCommand

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from hookman.runtime.records import ExecResult

    Handler = Callable[..., object]
    SendMessageHandler = Callable[..., object]
    AppendEntryHandler = Callable[[str, object], object]

_CO_VARARGS = 0x04


class LoadedHook:
    """One successfully loaded hook module: its handlers, commands and renderers.

    `handlers` maps an event name to its handlers in registration order. `tool_filters`
    maps a tool event to the union of the tool names its handlers declared with `tools=`,
    or to None when any handler for that event declared none (it wants every tool).
    """

    def __init__(
        self,
        path: str,
        handlers: Mapping[str, Sequence[Handler]] | None = None,
        *,
        resolved_path: str | None = None,
        commands: Mapping[str, RegisteredCommand] | None = None,
        message_renderers: Mapping[str, Handler] | None = None,
        tool_filters: Mapping[str, Sequence[str] | None] | None = None,
    ) -> None:
        self.path = path
        self.resolved_path = path if resolved_path is None else resolved_path
        self.handlers: dict[str, list[Handler]] = {
            event: list(event_handlers) for event, event_handlers in (handlers or {}).items()
        }
        self.tool_filters: dict[str, list[str] | None] = {event: None for event in self.handlers}
        for event, tools in (tool_filters or {}).items():
            self.tool_filters[event] = None if tools is None else list(tools)
        self.commands: dict[str, RegisteredCommand] = dict(commands or {})
        self.message_renderers: dict[str, Handler] = dict(message_renderers or {})
        self.send_message_handler: SendMessageHandler | None = None
        self.append_entry_handler: AppendEntryHandler | None = None
        self.loading = False

    def set_send_message_handler(self, handler: SendMessageHandler | None) -> None:
        self.send_message_handler = handler

    def set_append_entry_handler(self, handler: AppendEntryHandler | None) -> None:
        self.append_entry_handler = handler

    def add_handler(self, event: str, handler: Handler, tools: list[str] | None) -> None:
        """Append `handler` to `event` and widen that event's tool filter by `tools`."""
        first_for_event = not self.handlers.get(event)
        self.handlers.setdefault(event, []).append(handler)
        current = self.tool_filters.get(event)
        if tools is None or (current is None and not first_for_event):
            self.tool_filters[event] = None
        else:
            known = [] if current is None else current
            self.tool_filters[event] = list(dict.fromkeys([*known, *tools]))

    def __repr__(self) -> str:
        return f"LoadedHook(path={self.path!r}, events={list(self.handlers)!r})"


class HookAPI:
    """The `pi` object a hook factory receives: `def hook(pi): pi.on("tool_call", handler)`."""

    def __init__(self, loaded: LoadedHook, cwd: str) -> None:
        self._loaded = loaded
        self._cwd = cwd

    def on(
        self, event: str, handler: Handler | None = None, *, tools: Iterable[str] | None = None
    ) -> Handler | Callable[[Handler], Handler]:
        """Subscribe `handler(event, ctx)` to `event`; without a handler, act as a decorator.

        `tools` names the tools a tool event handler cares about; it only narrows the
        Claude Code matcher written at install time, never what the handler is sent.
        """
        if not isinstance(event, str):
            raise TypeError(f"pi.on() needs an event name (a string), not {event!r}")
        tool_names = _tool_names(tools)
        if handler is None:

            def register(function: Handler) -> Handler:
                self._register(event, function, tool_names)
                return function

            return register
        self._register(event, handler, tool_names)
        return handler

    def _register(self, event: str, handler: Handler, tools: list[str] | None) -> None:
        if not callable(handler):
            raise TypeError(f"the handler for {event!r} must be callable, not {handler!r}")
        if not _accepts_two_arguments(handler):
            name = getattr(handler, "__name__", repr(handler))
            raise TypeError(f"the handler {name} for {event!r} must accept (event, ctx)")
        self._loaded.add_handler(event, handler, tools)

    def send_message(
        self, message: object, *, trigger_turn: bool = False, deliver_as: str | None = None
    ) -> None:
        """Hand `message` to the host's send_message handler (installed by `initialize`)."""
        sink = self._loaded.send_message_handler
        if self._loaded.loading:
            raise RuntimeError("send_message is not available while the hook is loading")
        if sink is None:
            raise RuntimeError("send_message handler not initialized")
        sink(message, trigger_turn=trigger_turn, deliver_as=deliver_as)

    def append_entry(self, custom_type: str, data: object = None) -> None:
        """Hand a custom entry to the host's append_entry handler (installed by `initialize`)."""
        sink = self._loaded.append_entry_handler
        if self._loaded.loading:
            raise RuntimeError("append_entry is not available while the hook is loading")
        if sink is None:
            raise RuntimeError("append_entry handler not initialized")
        sink(custom_type, data)

    def register_command(
        self, name: str, *, description: str | None = None, handler: Handler
    ) -> None:
        """Register the slash command `name`; a second registration replaces it in place."""
        if not callable(handler):
            raise TypeError(f"the handler of command {name!r} must be callable")
        self._loaded.commands[name] = RegisteredCommand(name, description, handler)

    def register_message_renderer(self, custom_type: str, renderer: Handler) -> None:
        """Render messages of `custom_type`; a second registration replaces the first."""
        if not callable(renderer):
            raise TypeError(f"the renderer for {custom_type!r} must be callable")
        self._loaded.message_renderers[custom_type] = renderer

    def exec(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        cwd: str | None = None,
        timeout: float | None = None,
    ) -> ExecResult:
        """Run `command` with `args` (no shell) in `cwd` (default: the hook's cwd)."""
        from hookman.runtime.exec_command import exec_command

        return exec_command(command, args, self._cwd if cwd is None else cwd, timeout=timeout)


def _tool_names(tools: Iterable[str] | None) -> list[str] | None:
    if tools is None:
        return None
    if isinstance(tools, (str, bytes)):
        raise TypeError(f"tools must be a list of tool names, not the string {tools!r}")
    names = list(tools)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"tools must be a list of tool names, not {name!r}")
    if not names:  # the same rule as an empty list in hookman.toml's `tools`
        raise ValueError(
            'tools=[] names no tool; name the tools (tools=["Bash"]) or leave tools out for '
            "every tool"
        )
    return names


def _accepts_two_arguments(function: Handler) -> bool:
    """False only when the code object proves `function(event, ctx)` would fail on arity.

    Reads `__code__` instead of using `inspect.signature`: importing inspect would slow
    down every runner start. Callables without a code object are given the benefit of
    the doubt.
    """
    bound_arguments = 0
    target = function
    if hasattr(target, "__func__") and hasattr(target, "__self__"):
        target = target.__func__  # type: ignore[union-attr]
        bound_arguments = 1
    code = getattr(target, "__code__", None)
    if code is None or not hasattr(code, "co_argcount"):
        return True
    positional = code.co_argcount - bound_arguments
    if code.co_flags & _CO_VARARGS:
        return True
    required = positional - len(getattr(target, "__defaults__", None) or ())
    return required <= 2 <= positional
