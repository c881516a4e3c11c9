"""HookRunner: dispatches events to loaded hooks under pi's conflict rules.

docs/dispatch.md (order, which result wins, errors, commands), with its Python decisions:
JavaScript truthiness for every presence test, whole-object "last wins", and error
listeners that cannot abort a dispatch.
All public methods are synchronous; an awaitable handler result is awaited before the
next handler runs.
"""

from __future__ import annotations

from hookman.runtime.awaiting import settle
from hookman.runtime.context import HookCommandContext, HookContext
from hookman.runtime.js_values import error_message, is_js_truthy, read_field
from hookman.runtime.no_ui import NoUIContext
from hookman.runtime.records import HookError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from hookman.runtime.hook_api import AppendEntryHandler, LoadedHook, SendMessageHandler
    from hookman.runtime.records import RegisteredCommand

    ErrorListener = Callable[[HookError], object]

# The only session events a result can cancel; no other "session_before_*" name is special.
CANCELLABLE_EVENTS = frozenset(
    {
        "session_before_switch",
        "session_before_branch",
        "session_before_compact",
        "session_before_tree",
    }
)
# Events whose latest present result `emit` returns, with no early stop.
LAST_RESULT_EVENTS = frozenset({"tool_result", "session.compacting"})


class HookRunner:
    """Runs the handlers of `hooks` (in order) for each event; `cwd` is the project dir."""

    def __init__(self, hooks: Iterable[LoadedHook], cwd: str) -> None:
        self._hooks = list(hooks)
        self._cwd = cwd
        self._error_listeners: dict[ErrorListener, None] = {}  # an insertion-ordered set
        self._ui: object = NoUIContext()
        self._has_ui = False
        self._get_model: Callable[[], object] | None = None
        self._session_id: str | None = None
        self._agent_id: str | None = None
        self._session_manager: object = None
        self._model_registry: object = None
        self._is_idle: Callable[[], bool] | None = None
        self._abort: Callable[[], object] | None = None
        self._has_queued_messages: Callable[[], bool] | None = None
        self._wait_for_idle: Callable[[], object] | None = None
        self._new_session: Callable[..., object] | None = None
        self._branch: Callable[..., object] | None = None
        self._navigate_tree: Callable[..., object] | None = None

    @property
    def cwd(self) -> str:
        return self._cwd

    @property
    def hooks(self) -> list[LoadedHook]:
        return list(self._hooks)

    @property
    def ui(self) -> object:
        return self._ui

    @property
    def has_ui(self) -> bool:
        return self._has_ui

    def initialize(
        self,
        *,
        send_message_handler: SendMessageHandler | None = None,
        append_entry_handler: AppendEntryHandler | None = None,
        get_model: Callable[[], object] | None = None,
        ui: object = None,
        has_ui: bool = False,
        session_id: str | None = None,
        agent_id: str | None = None,
        session_manager: object = None,
        model_registry: object = None,
        is_idle: Callable[[], bool] | None = None,
        abort: Callable[[], object] | None = None,
        has_queued_messages: Callable[[], bool] | None = None,
        wait_for_idle: Callable[[], object] | None = None,
        new_session: Callable[..., object] | None = None,
        branch: Callable[..., object] | None = None,
        navigate_tree: Callable[..., object] | None = None,
    ) -> None:
        """Connect the runner to its host (docs/hook-api.md, `ctx`).

        Every hook gets the same send_message and append_entry handlers, called as
        `send_message_handler(message, trigger_turn=..., deliver_as=...)` and
        `append_entry_handler(custom_type, data)`. Without `ui` the hooks get a fresh
        no-UI context. `is_idle`, `abort`, `has_queued_messages` and `wait_for_idle` fall
        back to their defaults when omitted; `new_session`, `branch` and `navigate_tree`
        keep whatever an earlier call installed.
        """
        self._get_model = get_model
        self._session_id = session_id
        self._agent_id = agent_id
        self._session_manager = session_manager
        self._model_registry = model_registry
        self._is_idle = is_idle
        self._abort = abort
        self._has_queued_messages = has_queued_messages
        self._wait_for_idle = wait_for_idle
        self._new_session = new_session or self._new_session
        self._branch = branch or self._branch
        self._navigate_tree = navigate_tree or self._navigate_tree
        for hook in self._hooks:
            hook.set_send_message_handler(send_message_handler)
            hook.set_append_entry_handler(append_entry_handler)
        self._ui = NoUIContext() if ui is None else ui
        self._has_ui = bool(has_ui)

    # -- errors ---------------------------------------------------------------------------

    def on_error(self, listener: ErrorListener) -> Callable[[], None]:
        """Call `listener(HookError)` for each failed handler; returns an unsubscribe function.

        Adding the same listener twice registers it once.
        """
        self._error_listeners[listener] = None

        def unsubscribe() -> None:
            self._error_listeners.pop(listener, None)

        return unsubscribe

    def emit_error(self, error: HookError) -> None:
        """Deliver `error` to every listener; a listener that raises is logged and skipped."""
        for listener in list(self._error_listeners):
            try:
                listener(error)
            except Exception:
                import logging

                logging.getLogger("hookman.runtime").exception(
                    "an error listener raised while reporting %r", error
                )

    # -- queries --------------------------------------------------------------------------

    def has_handlers(self, event_type: str) -> bool:
        return any(hook.handlers.get(event_type) for hook in self._hooks)

    def get_hook_paths(self) -> list[str]:
        return [hook.path for hook in self._hooks]

    def get_command(self, name: str) -> RegisteredCommand | None:
        """The first hook's command registered under `name` (first wins, docs/dispatch.md)."""
        for hook in self._hooks:
            command = hook.commands.get(name)
            if command is not None:
                return command
        return None

    def get_registered_commands(self) -> list[RegisteredCommand]:
        """Every hook's commands, hook by hook; duplicates across hooks are kept."""
        return [command for hook in self._hooks for command in hook.commands.values()]

    def get_message_renderer(self, custom_type: str) -> Callable[..., object] | None:
        """The first hook's renderer for `custom_type`."""
        for hook in self._hooks:
            renderer = hook.message_renderers.get(custom_type)
            if renderer is not None:
                return renderer
        return None

    # -- contexts -------------------------------------------------------------------------

    def create_context(self) -> HookContext:
        """A fresh `ctx`; `model` is read now, once."""
        return HookContext(**self._context_fields())

    def create_command_context(self) -> HookCommandContext:
        """A fresh `ctx` for a slash-command handler, with the session controls."""
        return HookCommandContext(
            wait_for_idle=self._wait_for_idle,
            new_session=self._new_session,
            branch=self._branch,
            navigate_tree=self._navigate_tree,
            **self._context_fields(),
        )

    def _context_fields(self) -> dict[str, object]:
        return {
            "cwd": self._cwd,
            "ui": self._ui,
            "has_ui": self._has_ui,
            "model": None if self._get_model is None else self._get_model(),
            "session_id": self._session_id,
            "agent_id": self._agent_id,
            "session_manager": self._session_manager,
            "model_registry": self._model_registry,
            "is_idle": self._is_idle,
            "abort": self._abort,
            "has_queued_messages": self._has_queued_messages,
        }

    # -- dispatch -------------------------------------------------------------------------

    def emit(self, event: dict[str, object]) -> object:
        """Send `event` to every handler of `event["type"]`; a failing handler is reported.

        Returns a result only for the four cancellable session events (the latest present
        result, returned at once when its `cancel` is truthy) and for tool_result and
        session.compacting (the latest present result); None for every other event.
        """
        event_type = event["type"]
        ctx = self.create_context()
        result: object = None
        for hook, handler in self._handlers_for(event_type):  # type: ignore[arg-type]
            succeeded, handler_result = self._call_reporting(hook, event_type, handler, event, ctx)
            if not succeeded or not is_js_truthy(handler_result):
                continue
            if event_type in CANCELLABLE_EVENTS:
                result = handler_result
                if is_js_truthy(read_field(result, "cancel")):
                    return result
            elif event_type in LAST_RESULT_EVENTS:
                result = handler_result
        return result

    def emit_tool_call(self, event: dict[str, object]) -> object:
        """Ask the tool_call handlers; the first present result with a truthy `block` wins.

        Otherwise returns the latest present result, or None. A handler that raises stops
        the dispatch and the exception propagates unchanged (no HookError): the caller
        must fail closed.
        """
        ctx = self.create_context()
        result: object = None
        for _hook, handler in self._handlers_for("tool_call"):
            handler_result = settle(handler(event, ctx))
            if is_js_truthy(handler_result):
                result = handler_result
                if is_js_truthy(read_field(result, "block")):
                    return result
        return result

    def emit_context(self, messages: list[object]) -> list[object]:
        """Chain the context handlers: each sees the messages the previous one returned.

        The list is not copied; with no replacement the caller's own list comes back.
        """
        ctx = self.create_context()
        current = messages
        for hook, handler in self._handlers_for("context"):
            event = {"type": "context", "messages": current}
            succeeded, handler_result = self._call_reporting(hook, "context", handler, event, ctx)
            replacement = read_field(handler_result, "messages") if succeeded else None
            if is_js_truthy(handler_result) and is_js_truthy(replacement):
                current = replacement  # type: ignore[assignment]
        return current

    def emit_before_agent_start(self, prompt: str, images: object = None) -> object:
        """The first present result carrying a truthy `message`, whole; later ones ignored.

        Every handler still runs, each with its own event whose `images` key is always set.
        """
        ctx = self.create_context()
        result: object = None
        for hook, handler in self._handlers_for("before_agent_start"):
            event = {"type": "before_agent_start", "prompt": prompt, "images": images}
            succeeded, handler_result = self._call_reporting(
                hook, "before_agent_start", handler, event, ctx
            )
            if (
                succeeded
                and result is None
                and is_js_truthy(handler_result)
                and is_js_truthy(read_field(handler_result, "message"))
            ):
                result = handler_result
        return result

    def _handlers_for(self, event_type: str) -> Iterable[tuple[LoadedHook, Callable[..., object]]]:
        for hook in self._hooks:
            # Iterated live, as in pi: a handler registered during dispatch also runs.
            yield from ((hook, handler) for handler in hook.handlers.get(event_type, ()))

    def _call_reporting(
        self,
        hook: LoadedHook,
        event_type: str,
        handler: Callable[..., object],
        event: object,
        ctx: HookContext,
    ) -> tuple[bool, object]:
        """Call one handler; on failure report a HookError and return (False, None)."""
        try:
            return True, settle(handler(event, ctx))
        except (Exception, SystemExit) as error:
            # SystemExit too: one hook calling sys.exit() must not end every other hook's turn.
            self.emit_error(HookError(hook.path, event_type, _describe(error)))
            return False, None


def _describe(error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"hook called sys.exit({error.code!r})"
    return error_message(error)
