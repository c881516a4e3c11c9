"""`emit_before_agent_start`: the first present result with a message wins, whole."""

from __future__ import annotations

from collections.abc import Callable

from hookman.runtime import HookRunner

from .conftest import ErrorLog, make_hook

Build = Callable[..., HookRunner]


def test_first_result_with_a_message_is_kept_whole_and_later_handlers_still_run(
    runner_for: Build,
) -> None:
    calls: list[str] = []
    first = {"message": {"custom_type": "note", "content": "one"}, "extra": 1}

    def second(event: object, ctx: object) -> object:
        calls.append("second")
        return {"message": {"content": "two"}}

    runner = runner_for(
        make_hook("a.py", before_agent_start=[lambda e, c: {"other": True}, lambda e, c: first]),
        make_hook("b.py", before_agent_start=second),
    )
    assert runner.emit_before_agent_start("hello") is first
    assert calls == ["second"]


def test_each_handler_gets_a_new_event_with_an_images_key(runner_for: Build) -> None:
    events: list[dict[str, object]] = []

    def look(event: dict[str, object], ctx: object) -> None:
        events.append(event)

    runner = runner_for(make_hook("a.py", before_agent_start=[look, look]))
    runner.emit_before_agent_start("prompt text")
    runner.emit_before_agent_start("with image", [{"type": "image"}])

    assert events[0] == {"type": "before_agent_start", "prompt": "prompt text", "images": None}
    assert events[0] is not events[1]
    assert events[2]["images"] == [{"type": "image"}]


def test_results_without_a_truthy_message_are_not_kept(runner_for: Build) -> None:
    runner = runner_for(
        make_hook(
            "a.py",
            before_agent_start=[lambda e, c: {"message": ""}, lambda e, c: {}, lambda e, c: None],
        )
    )
    assert runner.emit_before_agent_start("p") is None


def test_an_empty_dict_message_counts(runner_for: Build) -> None:
    runner = runner_for(make_hook("a.py", before_agent_start=lambda e, c: {"message": {}}))
    assert runner.emit_before_agent_start("p") == {"message": {}}


def test_a_failing_handler_is_reported_as_before_agent_start(runner_for: Build) -> None:
    def broken(event: object, ctx: object) -> object:
        raise KeyError("k")

    runner = runner_for(
        make_hook("a.py", before_agent_start=[broken, lambda e, c: {"message": "m"}])
    )
    log = ErrorLog(runner)
    assert runner.emit_before_agent_start("p") == {"message": "m"}
    assert log.triples() == [("a.py", "before_agent_start", "'k'")]
