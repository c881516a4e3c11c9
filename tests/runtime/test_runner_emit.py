"""Generic `emit`: order, one ctx per dispatch, errors and listeners, initialize
(docs/dispatch.md)."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

import pytest

from hookman.runtime import HookError, HookRunner, LoadedHook, NoUIContext, StatusRecordingUI

from .conftest import ErrorLog, make_hook

Build = Callable[..., HookRunner]


def recorder(calls: list[str], name: str, result: object = None) -> Callable[..., object]:
    def handler(event: object, ctx: object) -> object:
        calls.append(name)
        return result

    return handler


def failing(message: str) -> Callable[..., object]:
    def handler(event: object, ctx: object) -> object:
        raise RuntimeError(message)

    return handler


def test_handlers_run_hook_by_hook_in_registration_order(runner_for: Build) -> None:
    calls: list[str] = []
    first = make_hook("a.py", agent_start=[recorder(calls, "a1"), recorder(calls, "a2")])
    second = make_hook("b.py", agent_start=recorder(calls, "b1"))

    runner_for(first, second).emit({"type": "agent_start"})

    assert calls == ["a1", "a2", "b1"]


def test_only_handlers_subscribed_to_the_event_run(runner_for: Build) -> None:
    calls: list[str] = []
    hook = make_hook("a.py", agent_start=recorder(calls, "start"), agent_end=recorder(calls, "end"))

    runner_for(hook).emit({"type": "agent_end", "messages": []})

    assert calls == ["end"]


def test_a_custom_event_name_is_dispatched_like_any_other(runner_for: Build) -> None:
    calls: list[str] = []
    runner_for(make_hook("a.py", my_event=recorder(calls, "custom"))).emit({"type": "my_event"})
    assert calls == ["custom"]


def test_the_same_handler_registered_twice_runs_twice(runner_for: Build) -> None:
    calls: list[str] = []
    handler = recorder(calls, "twice")
    runner_for(make_hook("a.py", turn_start=[handler, handler])).emit({"type": "turn_start"})
    assert calls == ["twice", "twice"]


def test_results_of_ordinary_events_are_ignored(runner_for: Build) -> None:
    hook = make_hook("a.py", agent_start=recorder([], "x", {"cancel": True}))
    assert runner_for(hook).emit({"type": "agent_start"}) is None


@pytest.mark.parametrize("event_type", ["tool_call", "context", "before_agent_start"])
def test_special_events_sent_through_generic_emit_return_nothing(
    runner_for: Build, event_type: str
) -> None:
    hook = make_hook("a.py", **{event_type: recorder([], "x", {"block": True, "messages": [1]})})
    assert runner_for(hook).emit({"type": event_type}) is None


def test_every_handler_gets_the_same_event_and_the_same_ctx(runner_for: Build) -> None:
    seen: list[tuple[object, object]] = []

    def remember(event: object, ctx: object) -> None:
        seen.append((event, ctx))

    runner = runner_for(
        make_hook("a.py", agent_start=remember), make_hook("b.py", agent_start=remember)
    )
    event = {"type": "agent_start"}
    runner.emit(event)
    runner.emit(event)

    assert all(seen_event is event for seen_event, _ in seen)
    assert seen[0][1] is seen[1][1]
    assert seen[2][1] is not seen[0][1]


def test_handlers_see_each_others_in_place_mutations(runner_for: Build) -> None:
    def mark(event: dict[str, object], ctx: object) -> None:
        event["marked"] = True

    seen: list[object] = []
    runner = runner_for(
        make_hook("a.py", turn_end=mark),
        make_hook("b.py", turn_end=lambda event, ctx: seen.append(event.get("marked"))),
    )
    runner.emit({"type": "turn_end"})
    assert seen == [True]


def test_a_failing_handler_is_reported_and_the_next_handler_still_runs(runner_for: Build) -> None:
    calls: list[str] = []
    runner = runner_for(
        make_hook("a.py", agent_start=[failing("boom"), recorder(calls, "a2")]),
        make_hook("b.py", agent_start=recorder(calls, "b1")),
    )
    log = ErrorLog(runner)

    runner.emit({"type": "agent_start"})

    assert calls == ["a2", "b1"]
    assert log.triples() == [("a.py", "agent_start", "boom")]


def test_error_names_the_hooks_original_path_not_its_resolved_path(runner_for: Build) -> None:
    hook = LoadedHook(
        "hooks/a.py", {"agent_start": [failing("x")]}, resolved_path="/abs/hooks/a.py"
    )
    runner = runner_for(hook)
    log = ErrorLog(runner)
    runner.emit({"type": "agent_start"})
    assert log.errors == [HookError("hooks/a.py", "agent_start", "x")]


def test_a_hook_calling_sys_exit_in_a_handler_is_reported_not_exiting(runner_for: Build) -> None:
    calls: list[str] = []

    def exits(event: object, ctx: object) -> None:
        sys.exit(2)

    runner = runner_for(make_hook("a.py", agent_start=[exits, recorder(calls, "next")]))
    log = ErrorLog(runner)
    runner.emit({"type": "agent_start"})
    assert calls == ["next"]
    assert log.triples() == [("a.py", "agent_start", "hook called sys.exit(2)")]


def test_listeners_form_an_ordered_set_and_unsubscribe_stops_delivery(runner_for: Build) -> None:
    runner = runner_for(make_hook("a.py", agent_start=failing("x")))
    received: list[str] = []

    def first(error: HookError) -> None:
        received.append("first")

    def second(error: HookError) -> None:
        received.append("second")

    runner.on_error(first)
    unsubscribe_second = runner.on_error(second)
    runner.on_error(first)  # already registered: stays once, in its first position
    runner.emit({"type": "agent_start"})
    unsubscribe_second()
    unsubscribe_second()  # a second call is harmless
    runner.emit({"type": "agent_start"})

    assert received == ["first", "second", "first"]


def test_a_raising_listener_is_logged_and_dispatch_goes_on(
    runner_for: Build, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[str] = []
    runner = runner_for(make_hook("a.py", agent_start=[failing("x"), recorder(calls, "after")]))

    def broken_listener(error: HookError) -> None:
        raise ValueError("listener broke")

    later: list[HookError] = []
    runner.on_error(broken_listener)
    runner.on_error(later.append)
    with caplog.at_level(logging.ERROR, logger="hookman.runtime"):
        runner.emit({"type": "agent_start"})

    assert calls == ["after"]
    assert len(later) == 1
    assert "listener broke" in caplog.text


def test_async_handlers_are_awaited_one_at_a_time_in_order(runner_for: Build) -> None:
    timeline: list[str] = []

    def make(name: str, delay: float) -> Callable[..., object]:
        async def handler(event: object, ctx: object) -> None:
            timeline.append(f"{name} start")
            await asyncio.sleep(delay)
            timeline.append(f"{name} end")

        return handler

    runner = runner_for(
        make_hook("a.py", agent_start=[make("slow", 0.02), recorder(timeline, "sync")]),
        make_hook("b.py", agent_start=make("fast", 0)),
    )
    runner.emit({"type": "agent_start"})
    assert timeline == ["slow start", "slow end", "sync", "fast start", "fast end"]


def test_an_async_handler_that_raises_is_reported(runner_for: Build) -> None:
    async def handler(event: object, ctx: object) -> None:
        raise LookupError("async boom")

    runner = runner_for(make_hook("a.py", agent_start=handler))
    log = ErrorLog(runner)
    runner.emit({"type": "agent_start"})
    assert log.triples() == [("a.py", "agent_start", "async boom")]


def test_has_handlers_and_hook_paths(runner_for: Build) -> None:
    runner = runner_for(
        make_hook("a.py", tool_call=lambda e, c: None),
        LoadedHook("b.py", {"tool_result": []}),
    )
    assert runner.has_handlers("tool_call")
    assert not runner.has_handlers("tool_result")  # an empty list is no handler
    assert not runner.has_handlers("context")
    assert runner.get_hook_paths() == ["a.py", "b.py"]


# -- ctx and initialize --------------------------------------------------------------------


def probed(cwd: str) -> tuple[HookRunner, list[object]]:
    """A runner whose only hook records the ctx of every "probe" dispatch."""
    seen: list[object] = []
    probe = LoadedHook("probe.py", {"probe": [lambda event, ctx: seen.append(ctx)]})
    return HookRunner([probe], cwd), seen


def capture_ctx(runner: HookRunner, seen: list[object]) -> object:
    runner.emit({"type": "probe"})
    return seen[-1]


def test_ctx_defaults_before_initialize(cwd: str) -> None:
    ctx = capture_ctx(*probed(cwd))
    assert ctx.cwd == cwd
    assert ctx.has_ui is False
    assert isinstance(ctx.ui, NoUIContext)
    assert ctx.model is None
    assert ctx.session_id is None
    assert ctx.agent_id is None
    assert ctx.is_idle() is True
    assert ctx.has_queued_messages() is False
    assert ctx.abort() is None


def test_initialize_installs_host_callbacks_into_ctx(cwd: str) -> None:
    runner, seen = probed(cwd)
    aborted: list[bool] = []
    models = iter(["model-1", "model-2"])
    ui = StatusRecordingUI()
    runner.initialize(
        get_model=lambda: next(models),
        ui=ui,
        session_id="session-1",
        agent_id="agent-7",
        is_idle=lambda: False,
        abort=lambda: aborted.append(True),
        has_queued_messages=lambda: True,
    )

    ctx = capture_ctx(runner, seen)

    assert ctx.ui is ui
    assert ctx.has_ui is False  # a recording UI still cannot ask the user anything
    assert ctx.model == "model-1"  # read once when the dispatch began
    assert (ctx.session_id, ctx.agent_id) == ("session-1", "agent-7")
    assert ctx.is_idle() is False
    assert ctx.has_queued_messages() is True
    ctx.abort()
    assert aborted == [True]
    assert capture_ctx(runner, seen).model == "model-2"


def test_initialize_without_ui_gives_a_fresh_no_ui_context(cwd: str) -> None:
    runner, seen = probed(cwd)
    runner.initialize(ui=StatusRecordingUI(), has_ui=True)
    assert capture_ctx(runner, seen).has_ui is True
    runner.initialize()
    ctx = capture_ctx(runner, seen)
    assert type(ctx.ui) is NoUIContext
    assert ctx.has_ui is False


def test_initialize_gives_every_hook_the_same_message_and_entry_sinks(runner_for: Build) -> None:
    hooks = [LoadedHook("a.py"), LoadedHook("b.py")]
    runner = runner_for(*hooks)

    def send(message: object, **options: object) -> None:
        return None

    def append(custom_type: str, data: object) -> None:
        return None

    runner.initialize(send_message_handler=send, append_entry_handler=append)
    assert [hook.send_message_handler for hook in hooks] == [send, send]
    assert [hook.append_entry_handler for hook in hooks] == [append, append]


def test_command_context_has_session_controls_with_defaults(runner_for: Build) -> None:
    runner = runner_for()
    ctx = runner.create_command_context()
    assert ctx.new_session() == {"cancelled": False}
    assert ctx.branch("entry-1") == {"cancelled": False}
    assert ctx.navigate_tree("target", {"summarize": True}) == {"cancelled": False}
    assert ctx.wait_for_idle() is None

    branched: list[str] = []
    runner.initialize(branch=lambda entry_id: branched.append(entry_id) or {"cancelled": True})
    runner.initialize()  # a later call without them keeps the installed session handlers
    assert runner.create_command_context().branch("e2") == {"cancelled": True}
    assert branched == ["e2"]
