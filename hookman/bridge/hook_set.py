"""Loads the manifest's hooks for one event and wraps their handlers so the bridge knows, for
every call, which hook ran and what it returned or raised.

The runtime reports emit errors by hook path but lets a tool_call exception propagate
without naming the hook; the wrappers give the fail-closed deny its hook name, the deadline
its "which hook is running", and `hookman fire` each hook's own result.
"""

from __future__ import annotations

from hookman.bridge import lean_json
from hookman.bridge.manifest_reader import TOOL_CALL
from hookman.bridge.protocol import MISSING_HOOKS_DIR
from hookman.runtime import load_hooks
from hookman.runtime.awaiting import is_awaitable
from hookman.runtime.js_values import error_class_name, error_message

# The words of hookman.runtime.verified_import.StoreCopyChanged (that module loads only when a
# repository hook is imported).
STORE_CHANGED_TEXT = "changed in the hookman store since it was fetched"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from hookman.bridge.manifest_reader import ManifestHook
    from hookman.runtime import LoadedHook


class HandlerCall:
    """One handler call: the hook, the event it handled, its result or its error text."""

    __slots__ = ("error", "event", "hook", "result")

    def __init__(
        self, hook: str, event: str, result: object = None, error: str | None = None
    ) -> None:
        self.hook = hook
        self.event = event
        self.result = result
        self.error = error


class CallTracker:
    """What the runner is doing now and what every handler did so far."""

    def __init__(self) -> None:
        self.current_hook: str | None = None
        self.calls: list[HandlerCall] = []
        # event type -> its fields as JSON, restored before each of its handlers runs
        self.pristine: dict[str, str] = {}

    def record(self, call: HandlerCall) -> None:
        self.calls.append(call)

    def fresh_copies(self, event_type: str, event: dict[str, object], wanted: bool) -> _Pristine:
        """While dispatching `event` (if `wanted`): before each handler of `event_type`, the
        event's fields get back their values of now, as fresh copies, so no handler sees
        what another changed in them. Keys a handler adds stay (pi's handlers share one
        event object, and may pass notes along that way)."""
        return _Pristine(self, event_type, lean_json.dumps(event) if wanted else None)

    def event_for(self, event_type: str, event: object) -> object:
        snapshot = self.pristine.get(event_type)
        if snapshot is not None and isinstance(event, dict):
            event.update(lean_json.loads(snapshot))
        return event


class _Pristine:
    """The `with` block of CallTracker.fresh_copies (no contextlib on the runner's path)."""

    __slots__ = ("event_type", "snapshot", "tracker")

    def __init__(self, tracker: CallTracker, event_type: str, snapshot: str | None) -> None:
        self.tracker = tracker
        self.event_type = event_type
        self.snapshot = snapshot

    def __enter__(self) -> None:
        if self.snapshot is not None:
            self.tracker.pristine[self.event_type] = self.snapshot

    def __exit__(self, *exc_info: object) -> None:
        self.tracker.pristine.pop(self.event_type, None)


class LoadFailure:
    __slots__ = ("error", "hook")

    def __init__(self, hook: ManifestHook, error: str) -> None:
        self.hook = hook
        self.error = error


class HookSet:
    """The loaded hooks of one event, with the names the manifest gives them."""

    def __init__(self) -> None:
        self.loaded: list[LoadedHook] = []
        self.names: list[str] = []
        self.failures: list[LoadFailure] = []
        # hook name -> the guarding subscriptions install recorded that it no longer registers
        self.lost_guards: dict[str, list[str]] = {}

    def name_for_path(self, path: str) -> str:
        for loaded, name in zip(self.loaded, self.names, strict=True):
            if loaded.path == path:
                return name
        return path


def load_hook_set(
    hooks: list[ManifestHook],
    cwd: str,
    tool_name: str | None,
    tracker: CallTracker,
    guarded_event: str | None = None,
    *,
    plugin: str | None = None,
) -> HookSet:
    """Load each hook on its own (so every failure has a name), in manifest order.

    `guarded_event`: the guarded Claude Code event being dispatched; a hook the manifest
    records as guarding it (a `tool_call` or raw handler) that registers no such handler
    now is listed in `lost_guards` (it changed since install, or registers conditionally).
    `plugin`: the name of the built plugin whose runner this is (its load errors then name
    the plugin's copy, not the hookman store)."""
    hook_set = HookSet()
    for hook in hooks:
        tracker.current_hook = hook.name
        result = load_hooks([hook.path], cwd, hook.package_root, digests=hook.digests)
        if result.errors:
            text = _load_error_text(hook, result.errors[0], plugin)
            hook_set.failures.append(LoadFailure(hook, text))
            continue
        for loaded in result.hooks:
            if guarded_event is not None and hook.guards(guarded_event, tool_name):
                lost = [
                    subscription
                    for subscription in (TOOL_CALL, guarded_event)
                    if subscription in hook.events and not loaded.handlers.get(subscription)
                ]
                if lost:
                    hook_set.lost_guards[hook.name] = lost
            _wrap_handlers(loaded, hook, tool_name, tracker)
            hook_set.loaded.append(loaded)
            hook_set.names.append(hook.name)
    tracker.current_hook = None
    return hook_set


def _load_error_text(hook: ManifestHook, error: object, plugin: str | None = None) -> str:
    """The load error; for a repository hook whose store copy is gone (a teammate's
    machine, a cleaned cache), what it is and the command that fetches it."""
    text = str(getattr(error, "error", error))
    if plugin is not None:
        return _plugin_load_error_text(hook, text)
    if _placeholder(hook.path):
        return (
            "its module was not on this machine when `hookman install` last ran (deleted, "
            "moved, or a registry hook of another machine); put it back, then run `hookman "
            "install`"
        )
    if hook.repo is not None and hook.package_root is not None:
        from os.path import isdir

        if not isdir(hook.package_root):
            return (
                f"its repository {hook.repo} is not in this machine's hookman store; "
                "run `hookman install` to fetch it"
            )
        if hook.digests == {}:
            return (
                f"its repository {hook.repo} was installed without the digests its store "
                "copy is checked against; run `hookman install` to record them"
            )
        if STORE_CHANGED_TEXT in text:
            changed = text.split(": ", 1)[-1]
            return (
                f"its repository {hook.repo}: {changed}; run `hookman "
                "install` to fetch the pinned commit again"
            )
    return text


def _placeholder(path: str) -> bool:
    """Whether `path` is the placeholder install records for a hook it could not find."""
    from os.path import basename, dirname, exists

    return basename(dirname(path)) == MISSING_HOOKS_DIR and not exists(path)


def _plugin_load_error_text(hook: ManifestHook, text: str) -> str:
    """A load error in a built plugin: about the plugin's own copy of the hook's repository
    (its user has no hookman store and no hookman command)."""
    if hook.repo is not None and hook.package_root is not None:
        from os.path import isdir

        if not isdir(hook.package_root):
            return f"the plugin's copy of its repository {hook.repo} is missing"
        if STORE_CHANGED_TEXT in text:
            changed = text.split(": ", 1)[-1].replace(
                STORE_CHANGED_TEXT, "changed in the plugin since it was built"
            )
            return f"its repository {hook.repo} in the plugin: {changed}"
    return text


def _wrap_handlers(
    loaded: LoadedHook, hook: ManifestHook, tool_name: str | None, tracker: CallTracker
) -> None:
    for event, handlers in loaded.handlers.items():
        if hook.handles_tool(event, tool_name):
            loaded.handlers[event] = [
                _recording(handler, hook.name, event, tracker) for handler in handlers
            ]
        else:  # this hook asked for other tools (`tools = {...}` in hookman.toml)
            loaded.handlers[event] = []


def _recording(
    handler: Callable[..., object], hook: str, event: str, tracker: CallTracker
) -> Callable[..., object]:
    def recorded(event_data: object, ctx: object) -> object:
        tracker.current_hook = hook
        try:
            result = handler(tracker.event_for(event, event_data), ctx)
        except BaseException as error:
            tracker.record(HandlerCall(hook, event, error=describe_error(error)))
            raise
        if is_awaitable(result):
            return _settle_and_record(result, hook, event, tracker)
        tracker.record(HandlerCall(hook, event, result=result))
        return result

    return recorded


async def _settle_and_record(
    awaitable: object, hook: str, event: str, tracker: CallTracker
) -> object:
    try:
        result = await awaitable  # type: ignore[misc]
    except BaseException as error:
        tracker.record(HandlerCall(hook, event, error=describe_error(error)))
        raise
    tracker.record(HandlerCall(hook, event, result=result))
    return result


def describe_error(error: BaseException) -> str:
    """`Class: message`, even for an error whose message cannot be rendered."""
    return f"{error_class_name(error)}: {error_message(error)}"
