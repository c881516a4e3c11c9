"""Test a hook module without Claude Code: load it through `hookman.runtime` and send it events.

The tests `hookman new` writes next to a hook use this::

    from hookman.testing import load_hook

    def test_blocks_rm_rf():
        hook = load_hook(HOOK_FILE)
        result = hook.tool_call("Bash", {"command": "rm -rf /"})
        assert result["block"] is True

Each event goes through `HookRunner` with the same conflict rules as under Claude Code; what
the hook sends (`pi.send_message`, `pi.append_entry`, `ctx.ui.set_status`, `ctx.ui.notify`)
is recorded on the `HookUnderTest`. Standard library and hookman.runtime only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hookman.runtime import HookRunner, LoadedHook, StatusRecordingUI, load_hooks
from hookman.runtime.awaiting import settle
from hookman.runtime.js_values import is_js_truthy


class HookLoadError(AssertionError):
    """The module did not load (syntax error, missing `hook`, a factory that raised)."""


class HookUnderTest:
    """One loaded hook and everything it sent while handling events."""

    def __init__(
        self, loaded: LoadedHook, cwd: str, *, session_id: str, agent_id: str | None
    ) -> None:
        self.loaded = loaded
        self.cwd = cwd
        self.messages: list[Any] = []
        self.entries: list[tuple[str, Any]] = []
        self.errors: list[str] = []
        self.ui = StatusRecordingUI()
        self.runner = HookRunner([loaded], cwd)
        self.runner.on_error(lambda error: self.errors.append(f"{error.event}: {error.error}"))
        self.runner.initialize(
            send_message_handler=lambda message, **_options: self.messages.append(message),
            append_entry_handler=lambda custom_type, data=None: self.entries.append(
                (custom_type, data)
            ),
            ui=self.ui,
            session_id=session_id,
            agent_id=agent_id,
        )

    @property
    def statuses(self) -> dict[str, str]:
        """The `ctx.ui.set_status` texts, by key."""
        return self.ui.statuses

    @property
    def notifications(self) -> list[str]:
        """The `ctx.ui.notify` messages."""
        return [message for message, _type in self.ui.notifications]

    def events(self) -> list[str]:
        """The event names the hook subscribed to, in registration order."""
        return list(self.loaded.handlers)

    def tool_call(self, tool_name: str, tool_input: dict[str, Any], **fields: Any) -> Any:
        """PreToolUse: the first result with a truthy `block` wins; a raising handler raises."""
        event = {"type": "tool_call", "tool_name": tool_name, "tool_call_id": "toolu_test"}
        return self.runner.emit_tool_call({**event, "input": tool_input, **fields})

    def tool_result(
        self,
        tool_name: str,
        tool_input: dict[str, Any],
        text: str,
        *,
        is_error: bool = False,
        details: Any = None,
    ) -> Any:
        """PostToolUse (or PostToolUseFailure with `is_error`): the last present result."""
        return self._emit(
            {
                "type": "tool_result",
                "tool_name": tool_name,
                "tool_call_id": "toolu_test",
                "input": tool_input,
                "content": [{"type": "text", "text": text}],
                "details": details,
                "is_error": is_error,
            }
        )

    def before_agent_start(self, prompt: str) -> Any:
        """UserPromptSubmit: the first result carrying a `message`."""
        result = self.runner.emit_before_agent_start(prompt)
        self._raise_errors()
        return result

    def emit(self, event_type: str, **fields: Any) -> Any:
        """Any other runtime event (`agent_end`, `session_start`, ...)."""
        return self._emit({"type": event_type, **fields})

    def claude_event(self, event_name: str, payload: dict[str, Any]) -> Any:
        """A handler registered under a Claude Code event name (`pi.on("Stop", ...)`): gets
        the raw payload; returns the last present result (Claude Code output fields)."""
        event = {**payload, "type": event_name, "hook_event_name": event_name}
        ctx = self.runner.create_context()
        result: Any = None
        for handler in self.loaded.handlers.get(event_name, ()):
            value = settle(handler(event, ctx))
            if is_js_truthy(value):
                result = value
        return result

    def command(self, name: str, args: str = "") -> Any:
        """Run a command the hook registered with `pi.register_command`."""
        command = self.runner.get_command(name)
        if command is None:
            raise AssertionError(f"the hook registers no command {name!r}")
        return settle(command.handler(args, self.runner.create_command_context()))

    def _emit(self, event: dict[str, Any]) -> Any:
        result = self.runner.emit(event)
        self._raise_errors()
        return result

    def _raise_errors(self) -> None:
        # A handler that raised is reported, not raised, by the runner; a test must see it.
        if self.errors:
            errors, self.errors = self.errors, []
            raise AssertionError("the hook raised: " + "; ".join(errors))


def load_hook(
    path: str | os.PathLike[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    session_id: str = "test-session",
    agent_id: str | None = None,
) -> HookUnderTest:
    """Load the hook module at `path` (its factory runs now); `cwd` is the project dir
    handlers see as `ctx.cwd` (default: the current directory). `agent_id` makes the hook
    run as inside a subagent. A module inside a hook repository (a directory above it holds
    hookman-hooks.toml) imports its siblings relatively, as it does when installed."""
    where = str(Path(cwd) if cwd is not None else Path.cwd())
    root = _repository_root(Path(path))
    result = load_hooks([str(path)], where, None if root is None else str(root))
    if result.errors:
        raise HookLoadError("; ".join(error.error for error in result.errors))
    return HookUnderTest(result.hooks[0], where, session_id=session_id, agent_id=agent_id)


def _repository_root(path: Path) -> Path | None:
    for directory in Path(os.path.abspath(path)).parents:
        if (directory / "hookman-hooks.toml").is_file():
            return directory
    return None
