"""The `ctx` object handlers and commands receive (docs/hook-api.md, `ctx`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class HookContext:
    """What a handler gets as `ctx`: one instance per dispatch, shared by every handler.

    `model` is read once, when the dispatch starts. `agent_id` is None for the main agent.
    """

    __slots__ = (
        "_abort",
        "_has_queued_messages",
        "_is_idle",
        "agent_id",
        "cwd",
        "has_ui",
        "model",
        "model_registry",
        "session_id",
        "session_manager",
        "ui",
    )

    def __init__(
        self,
        *,
        cwd: str,
        ui: object,
        has_ui: bool = False,
        model: object = None,
        session_id: str | None = None,
        agent_id: str | None = None,
        session_manager: object = None,
        model_registry: object = None,
        is_idle: Callable[[], bool] | None = None,
        abort: Callable[[], object] | None = None,
        has_queued_messages: Callable[[], bool] | None = None,
    ) -> None:
        self.cwd = cwd
        self.ui = ui
        self.has_ui = has_ui
        self.model = model
        self.session_id = session_id
        self.agent_id = agent_id
        self.session_manager = session_manager
        self.model_registry = model_registry
        self._is_idle = is_idle
        self._abort = abort
        self._has_queued_messages = has_queued_messages

    def is_idle(self) -> bool:
        return True if self._is_idle is None else self._is_idle()

    def abort(self) -> None:
        if self._abort is not None:
            self._abort()

    def has_queued_messages(self) -> bool:
        return False if self._has_queued_messages is None else self._has_queued_messages()

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(cwd={self.cwd!r}, session_id={self.session_id!r}, "
            f"agent_id={self.agent_id!r}, has_ui={self.has_ui!r})"
        )


def _not_cancelled(*args: object, **kwargs: object) -> dict[str, bool]:
    return {"cancelled": False}


class HookCommandContext(HookContext):
    """`ctx` for slash-command handlers: adds the session controls only commands may use.

    Without a host behind them, `new_session`, `branch` and `navigate_tree` answer
    `{"cancelled": False}` and `wait_for_idle` returns at once.
    """

    __slots__ = ("_branch", "_navigate_tree", "_new_session", "_wait_for_idle")

    def __init__(
        self,
        *,
        wait_for_idle: Callable[[], object] | None = None,
        new_session: Callable[..., object] | None = None,
        branch: Callable[..., object] | None = None,
        navigate_tree: Callable[..., object] | None = None,
        **context_fields: object,
    ) -> None:
        super().__init__(**context_fields)  # type: ignore[arg-type]
        self._wait_for_idle = wait_for_idle
        self._new_session = new_session or _not_cancelled
        self._branch = branch or _not_cancelled
        self._navigate_tree = navigate_tree or _not_cancelled

    def wait_for_idle(self) -> None:
        if self._wait_for_idle is not None:
            self._wait_for_idle()

    def new_session(self, options: object = None) -> object:
        return self._new_session(options)

    def branch(self, entry_id: str) -> object:
        return self._branch(entry_id)

    def navigate_tree(self, target_id: str, options: object = None) -> object:
        return self._navigate_tree(target_id, options)
