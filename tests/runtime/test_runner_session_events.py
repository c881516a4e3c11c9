"""Session events: the four cancellable ones and session.compacting (docs/dispatch.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hookman.runtime import HookRunner, LoadedHook

from .conftest import make_hook

Build = Callable[..., HookRunner]
CANCELLABLE = [
    "session_before_switch",
    "session_before_branch",
    "session_before_compact",
    "session_before_tree",
]


def returning(result: object, calls: list[str], name: str) -> Callable[..., object]:
    def handler(event: object, ctx: object) -> object:
        calls.append(name)
        return result

    return handler


@pytest.mark.parametrize("event_type", CANCELLABLE)
def test_a_truthy_cancel_returns_at_once(runner_for: Build, event_type: str) -> None:
    calls: list[str] = []
    verdict = {"cancel": True}
    runner = runner_for(
        make_hook(
            "a.py",
            **{event_type: [returning({"x": 1}, calls, "a1"), returning(verdict, calls, "a2")]},
        ),
        make_hook("b.py", **{event_type: returning({"cancel": True}, calls, "b1")}),
    )
    assert runner.emit({"type": event_type}) is verdict
    assert calls == ["a1", "a2"]


@pytest.mark.parametrize("event_type", CANCELLABLE)
def test_without_cancel_the_latest_present_result_wins_whole(
    runner_for: Build, event_type: str
) -> None:
    calls: list[str] = []
    runner = runner_for(
        make_hook("a.py", **{event_type: returning({"compaction": "C"}, calls, "a")}),
        make_hook("b.py", **{event_type: returning({"cancel": False}, calls, "b")}),
        make_hook("c.py", **{event_type: returning(None, calls, "c")}),
    )
    assert runner.emit({"type": event_type}) == {"cancel": False}
    assert calls == ["a", "b", "c"]


def test_other_session_before_names_are_not_cancellable(runner_for: Build) -> None:
    calls: list[str] = []
    runner = runner_for(
        make_hook("a.py", session_before_quit=returning({"cancel": True}, calls, "a")),
        make_hook("b.py", session_before_quit=returning(None, calls, "b")),
    )
    assert runner.emit({"type": "session_before_quit"}) is None
    assert calls == ["a", "b"]


def test_session_compacting_is_last_wins_and_cancel_means_nothing(runner_for: Build) -> None:
    calls: list[str] = []
    runner = runner_for(
        LoadedHook("a.py", {"session.compacting": [returning({"cancel": True}, calls, "a")]}),
        LoadedHook("b.py", {"session.compacting": [returning({"context": ["keep"]}, calls, "b")]}),
        LoadedHook("c.py", {"session.compacting": [returning(None, calls, "c")]}),
    )
    result = runner.emit({"type": "session.compacting", "session_id": "s", "messages": []})
    assert result == {"context": ["keep"]}
    assert calls == ["a", "b", "c"]


@pytest.mark.parametrize("event_type", ["session_start", "session_shutdown", "session_compact"])
def test_plain_session_events_return_nothing(runner_for: Build, event_type: str) -> None:
    runner = runner_for(make_hook("a.py", **{event_type: returning({"cancel": True}, [], "a")}))
    assert runner.emit({"type": event_type}) is None
