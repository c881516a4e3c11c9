"""`emit_tool_call`: whole-object last wins, first block short-circuits, errors propagate."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hookman.runtime import HookRunner

from .conftest import ErrorLog, make_hook

Build = Callable[..., HookRunner]
EVENT = {"type": "tool_call", "tool_name": "Bash", "tool_call_id": "t1", "input": {"command": "ls"}}


def returning(
    result: object, calls: list[str] | None = None, name: str = ""
) -> Callable[..., object]:
    def handler(event: object, ctx: object) -> object:
        if calls is not None:
            calls.append(name)
        return result

    return handler


def test_no_handlers_gives_none(runner_for: Build) -> None:
    assert runner_for().emit_tool_call(dict(EVENT)) is None


def test_the_first_block_returns_at_once_skipping_later_handlers(runner_for: Build) -> None:
    calls: list[str] = []
    verdict = {"block": True, "reason": "no"}
    runner = runner_for(
        make_hook(
            "a.py",
            tool_call=[
                returning(None, calls, "a1"),
                returning(verdict, calls, "a2"),
                returning(None, calls, "a3"),
            ],
        ),
        make_hook("b.py", tool_call=returning({"block": True, "reason": "b"}, calls, "b1")),
    )
    assert runner.emit_tool_call(dict(EVENT)) is verdict
    assert calls == ["a1", "a2"]


def test_without_a_block_the_latest_present_result_wins_whole(runner_for: Build) -> None:
    runner = runner_for(
        make_hook("a.py", tool_call=returning({"reason": "first", "input": {"x": 1}})),
        make_hook("b.py", tool_call=[returning({}), returning(None)]),
    )
    assert runner.emit_tool_call(dict(EVENT)) == {}  # {} is present and drops earlier fields


@pytest.mark.parametrize("falsy_block", [False, 0, "", None])
def test_a_falsy_block_does_not_stop_dispatch(runner_for: Build, falsy_block: object) -> None:
    calls: list[str] = []
    runner = runner_for(
        make_hook("a.py", tool_call=returning({"block": falsy_block}, calls, "a")),
        make_hook("b.py", tool_call=returning({"reason": "later"}, calls, "b")),
    )
    assert runner.emit_tool_call(dict(EVENT)) == {"reason": "later"}
    assert calls == ["a", "b"]


@pytest.mark.parametrize("truthy_block", [True, 1, "yes", [], {}])
def test_any_js_truthy_block_blocks(runner_for: Build, truthy_block: object) -> None:
    calls: list[str] = []
    runner = runner_for(
        make_hook("a.py", tool_call=returning({"block": truthy_block}, calls, "a")),
        make_hook("b.py", tool_call=returning(None, calls, "b")),
    )
    assert runner.emit_tool_call(dict(EVENT)) == {"block": truthy_block}
    assert calls == ["a"]


def test_falsy_results_are_not_results(runner_for: Build) -> None:
    runner = runner_for(
        make_hook(
            "a.py",
            tool_call=[
                returning({"reason": "kept"}),
                returning(0),
                returning(""),
                returning(False),
            ],
        )
    )
    assert runner.emit_tool_call(dict(EVENT)) == {"reason": "kept"}


def test_handlers_all_see_the_original_input(runner_for: Build) -> None:
    seen: list[object] = []

    def revise(event: dict[str, object], ctx: object) -> object:
        seen.append(event["input"])
        return {"input": {"command": "rm -rf /"}}

    runner = runner_for(make_hook("a.py", tool_call=[revise, revise]))
    runner.emit_tool_call(dict(EVENT))
    assert seen == [{"command": "ls"}, {"command": "ls"}]


def test_an_exception_propagates_stops_dispatch_and_reports_no_hook_error(
    runner_for: Build,
) -> None:
    calls: list[str] = []

    def broken(event: object, ctx: object) -> object:
        raise PermissionError("policy engine down")

    runner = runner_for(make_hook("a.py", tool_call=[broken, returning(None, calls, "after")]))
    log = ErrorLog(runner)
    with pytest.raises(PermissionError, match="policy engine down"):
        runner.emit_tool_call(dict(EVENT))
    assert calls == []
    assert log.errors == []


def test_async_tool_call_handlers_block_and_raise(runner_for: Build) -> None:
    async def block(event: object, ctx: object) -> object:
        return {"block": True, "reason": "async says no"}

    async def explode(event: object, ctx: object) -> object:
        raise ValueError("async explode")

    assert runner_for(make_hook("a.py", tool_call=block)).emit_tool_call(dict(EVENT)) == {
        "block": True,
        "reason": "async says no",
    }
    with pytest.raises(ValueError, match="async explode"):
        runner_for(make_hook("a.py", tool_call=explode)).emit_tool_call(dict(EVENT))
