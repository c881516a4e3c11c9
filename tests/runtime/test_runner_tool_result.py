"""`emit` with tool_result: latest present result wins whole, no early stop, no chaining."""

from __future__ import annotations

from collections.abc import Callable

from hookman.runtime import HookRunner

from .conftest import ErrorLog, make_hook

Build = Callable[..., HookRunner]


def event() -> dict[str, object]:
    return {
        "type": "tool_result",
        "tool_name": "Read",
        "tool_call_id": "t1",
        "input": {"path": "a"},
        "content": [{"type": "text", "text": "original"}],
        "details": None,
        "is_error": False,
    }


def returning(result: object) -> Callable[..., object]:
    return lambda event, ctx: result


def test_later_result_replaces_earlier_one_whole(runner_for: Build) -> None:
    runner = runner_for(
        make_hook("a.py", tool_result=returning({"content": [{"type": "text", "text": "A"}]})),
        make_hook("b.py", tool_result=returning({"details": {"d": 1}})),
    )
    assert runner.emit(event()) == {"details": {"d": 1}}


def test_an_empty_dict_is_a_result_and_none_is_not(runner_for: Build) -> None:
    runner = runner_for(
        make_hook("a.py", tool_result=[returning({"content": []}), returning({}), returning(None)])
    )
    assert runner.emit(event()) == {}


def test_cancel_in_a_tool_result_does_not_stop_dispatch(runner_for: Build) -> None:
    calls: list[str] = []
    runner = runner_for(
        make_hook("a.py", tool_result=returning({"cancel": True, "details": 1})),
        make_hook("b.py", tool_result=lambda e, c: calls.append("b")),
    )
    assert runner.emit(event()) == {"cancel": True, "details": 1}
    assert calls == ["b"]


def test_every_handler_receives_the_same_original_event(runner_for: Build) -> None:
    seen: list[object] = []

    def look(event: dict[str, object], ctx: object) -> object:
        seen.append(event)
        return {"content": [{"type": "text", "text": "changed"}]}

    runner = runner_for(make_hook("a.py", tool_result=[look, look]))
    original = event()
    runner.emit(original)
    assert seen == [original, original]
    assert seen[1] is original
    assert original["content"] == [{"type": "text", "text": "original"}]


def test_a_failing_handler_keeps_earlier_results(runner_for: Build) -> None:
    def broken(event: object, ctx: object) -> object:
        raise RuntimeError("bad rewrite")

    runner = runner_for(make_hook("a.py", tool_result=[returning({"details": "kept"}), broken]))
    log = ErrorLog(runner)
    assert runner.emit(event()) == {"details": "kept"}
    assert log.triples() == [("a.py", "tool_result", "bad rewrite")]
