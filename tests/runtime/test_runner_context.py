"""`emit_context`: handlers are chained, the caller's list is passed on uncopied."""

from __future__ import annotations

from collections.abc import Callable

from hookman.runtime import HookRunner

from .conftest import ErrorLog, make_hook

Build = Callable[..., HookRunner]


def test_no_handlers_returns_the_callers_own_list(runner_for: Build) -> None:
    messages = [{"role": "user"}]
    assert runner_for().emit_context(messages) is messages


def test_each_handler_sees_the_previous_replacement_in_a_new_event(runner_for: Build) -> None:
    events: list[dict[str, object]] = []

    def append(tag: str) -> Callable[..., object]:
        def handler(event: dict[str, object], ctx: object) -> object:
            events.append(event)
            return {"messages": [*event["messages"], tag]}

        return handler

    runner = runner_for(
        make_hook("a.py", context=append("a")), make_hook("b.py", context=append("b"))
    )
    original = ["m"]
    assert runner.emit_context(original) == ["m", "a", "b"]
    assert events[0]["messages"] is original
    assert events[0] is not events[1]
    assert events[1] == {"type": "context", "messages": ["m", "a"]}


def test_falsy_or_missing_messages_keep_the_current_list(runner_for: Build) -> None:
    original = ["m"]
    runner = runner_for(
        make_hook(
            "a.py",
            context=[
                lambda e, c: None,
                lambda e, c: {},
                lambda e, c: {"messages": None},
                lambda e, c: {"messages": ""},
                lambda e, c: {"other": 1},
            ],
        )
    )
    assert runner.emit_context(original) is original


def test_an_empty_list_is_a_replacement(runner_for: Build) -> None:
    runner = runner_for(make_hook("a.py", context=lambda e, c: {"messages": []}))
    assert runner.emit_context(["m"]) == []


def test_messages_are_not_copied_between_handlers(runner_for: Build) -> None:
    def mutate(event: dict[str, object], ctx: object) -> None:
        event["messages"].append("mutated")  # type: ignore[union-attr]

    original = ["m"]
    result = runner_for(make_hook("a.py", context=mutate)).emit_context(original)
    assert result is original
    assert original == ["m", "mutated"]


def test_a_failing_handler_is_reported_as_context_and_the_chain_goes_on(runner_for: Build) -> None:
    def broken(event: object, ctx: object) -> object:
        raise RuntimeError("bad context")

    runner = runner_for(
        make_hook("a.py", context=[lambda e, c: {"messages": ["a"]}, broken]),
        make_hook("b.py", context=lambda e, c: {"messages": [*e["messages"], "b"]}),
    )
    log = ErrorLog(runner)
    assert runner.emit_context(["m"]) == ["a", "b"]
    assert log.triples() == [("a.py", "context", "bad context")]


def test_async_context_handlers_chain(runner_for: Build) -> None:
    async def add(event: dict[str, object], ctx: object) -> object:
        return {"messages": [*event["messages"], "async"]}

    assert runner_for(make_hook("a.py", context=[add, add])).emit_context([]) == ["async", "async"]
