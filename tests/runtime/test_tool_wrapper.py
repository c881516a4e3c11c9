"""HookToolWrapper against a fake tool that records its calls (docs/dispatch.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hookman.runtime import HookRunner, HookToolWrapper, ToolBlockedError

from .conftest import ErrorLog, make_hook

Build = Callable[..., HookRunner]


class FakeTool:
    """A tool named `bash` that records its calls and returns (or raises) what it is told."""

    name = "bash"
    label = "Bash"
    description = "runs commands"

    def __init__(self, result: object = None, error: Exception | None = None) -> None:
        self.calls: list[tuple[str, object, tuple[object, ...]]] = []
        self.result = (
            {"content": [{"type": "text", "text": "out"}], "details": {"exit": 0}, "extra": 1}
            if result is None
            else result
        )
        self.error = error

    def execute(self, tool_call_id: str, params: object, *extra: object) -> object:
        self.calls.append((tool_call_id, params, extra))
        if self.error is not None:
            raise self.error
        return self.result


def test_tool_properties_read_through_the_wrapper(runner_for: Build) -> None:
    wrapper = HookToolWrapper(FakeTool(), runner_for())
    assert (wrapper.name, wrapper.label, wrapper.description) == ("bash", "Bash", "runs commands")
    with pytest.raises(AttributeError):
        _ = wrapper.no_such_attribute


def test_without_handlers_the_tool_result_comes_back_unchanged(runner_for: Build) -> None:
    tool = FakeTool()
    result = HookToolWrapper(tool, runner_for()).execute(
        "t1", {"command": "ls"}, "signal", "on_update"
    )
    assert result is tool.result
    assert tool.calls == [("t1", {"command": "ls"}, ("signal", "on_update"))]


def test_tool_call_handlers_see_the_call_and_allow_it(runner_for: Build) -> None:
    seen: list[object] = []
    tool = FakeTool()
    runner = runner_for(make_hook("a.py", tool_call=lambda event, ctx: seen.append(event)))
    assert HookToolWrapper(tool, runner).execute("t1", {"command": "ls"}) is tool.result
    assert seen == [
        {"type": "tool_call", "tool_name": "bash", "tool_call_id": "t1", "input": {"command": "ls"}}
    ]


@pytest.mark.parametrize(
    ("verdict", "message"),
    [
        ({"block": True, "reason": "no rm"}, "no rm"),
        ({"block": True}, "Tool execution was blocked by a hook"),
        ({"block": True, "reason": ""}, "Tool execution was blocked by a hook"),
        ({"block": 1, "reason": 42}, "42"),
    ],
)
def test_a_block_raises_with_the_reason_and_the_tool_never_runs(
    runner_for: Build, verdict: dict[str, object], message: str
) -> None:
    tool = FakeTool()
    results: list[object] = []
    runner = runner_for(
        make_hook(
            "a.py", tool_call=lambda e, c: verdict, tool_result=lambda e, c: results.append(e)
        )
    )
    with pytest.raises(ToolBlockedError) as raised:
        HookToolWrapper(tool, runner).execute("t1", {"command": "rm -rf /"})
    assert str(raised.value) == message
    assert raised.value.reason == message
    assert tool.calls == []
    assert results == []  # a blocked call emits no tool_result


def test_an_input_in_a_tool_call_result_is_ignored(runner_for: Build) -> None:
    tool = FakeTool()
    runner = runner_for(make_hook("a.py", tool_call=lambda e, c: {"input": {"command": "evil"}}))
    HookToolWrapper(tool, runner).execute("t1", {"command": "ls"})
    assert tool.calls == [("t1", {"command": "ls"}, ())]


def test_block_with_input_is_still_blocked(runner_for: Build) -> None:
    tool = FakeTool()
    runner = runner_for(make_hook("a.py", tool_call=lambda e, c: {"block": True, "input": {}}))
    with pytest.raises(ToolBlockedError):
        HookToolWrapper(tool, runner).execute("t1", {"command": "ls"})
    assert tool.calls == []


def test_a_raising_tool_call_handler_fails_closed_with_the_same_exception(
    runner_for: Build,
) -> None:
    tool = FakeTool()
    failure = ConnectionError("policy server unreachable")

    def broken(event: object, ctx: object) -> object:
        raise failure

    results: list[object] = []
    runner = runner_for(
        make_hook("a.py", tool_call=broken, tool_result=lambda e, c: results.append(e))
    )
    with pytest.raises(ConnectionError) as raised:
        HookToolWrapper(tool, runner).execute("t1", {})
    assert raised.value is failure
    assert tool.calls == []
    assert results == []


def test_a_tool_result_rewrite_replaces_content_and_details_only(runner_for: Build) -> None:
    tool = FakeTool()
    seen: list[dict[str, object]] = []

    def rewrite(event: dict[str, object], ctx: object) -> object:
        seen.append(event)
        return {"content": [{"type": "text", "text": "redacted"}], "is_error": True}

    runner = runner_for(make_hook("a.py", tool_result=rewrite))
    result = HookToolWrapper(tool, runner).execute("t1", {"command": "ls"})

    assert result == {"content": [{"type": "text", "text": "redacted"}], "details": {"exit": 0}}
    assert seen == [
        {
            "type": "tool_result",
            "tool_name": "bash",
            "tool_call_id": "t1",
            "input": {"command": "ls"},
            "content": [{"type": "text", "text": "out"}],
            "details": {"exit": 0},
            "is_error": False,
        }
    ]


def test_none_in_a_rewrite_falls_back_but_falsy_values_are_kept(runner_for: Build) -> None:
    tool = FakeTool()
    runner = runner_for(
        make_hook("a.py", tool_result=lambda e, c: {"content": None, "details": ""})
    )
    result = HookToolWrapper(tool, runner).execute("t1", {})
    assert result == {"content": tool.result["content"], "details": ""}


def test_an_empty_rewrite_still_builds_a_new_result_object(runner_for: Build) -> None:
    tool = FakeTool()
    runner = runner_for(make_hook("a.py", tool_result=lambda e, c: {}))
    result = HookToolWrapper(tool, runner).execute("t1", {})
    assert result == {"content": tool.result["content"], "details": tool.result["details"]}
    assert result is not tool.result


def test_no_rewrite_returns_the_tools_own_result_object(runner_for: Build) -> None:
    tool = FakeTool()
    runner = runner_for(make_hook("a.py", tool_result=lambda e, c: None))
    assert HookToolWrapper(tool, runner).execute("t1", {}) is tool.result


def test_a_failing_tool_emits_is_error_and_the_original_exception_is_raised(
    runner_for: Build,
) -> None:
    failure = FileNotFoundError("no such file: a.txt")
    tool = FakeTool(error=failure)
    seen: list[dict[str, object]] = []

    def observe(event: dict[str, object], ctx: object) -> object:
        seen.append(event)
        return {"content": [{"type": "text", "text": "ignored"}]}

    runner = runner_for(make_hook("a.py", tool_result=observe))
    with pytest.raises(FileNotFoundError) as raised:
        HookToolWrapper(tool, runner).execute("t9", {"path": "a.txt"})

    assert raised.value is failure
    assert seen == [
        {
            "type": "tool_result",
            "tool_name": "bash",
            "tool_call_id": "t9",
            "input": {"path": "a.txt"},
            "content": [{"type": "text", "text": "no such file: a.txt"}],
            "details": None,
            "is_error": True,
        }
    ]


def test_a_throwing_tool_result_handler_on_failure_is_reported_and_the_tool_error_raised(
    runner_for: Build,
) -> None:
    failure = RuntimeError("tool broke")

    def broken(event: object, ctx: object) -> object:
        raise ValueError("handler broke")

    runner = runner_for(make_hook("a.py", tool_result=broken))
    log = ErrorLog(runner)
    with pytest.raises(RuntimeError) as raised:
        HookToolWrapper(FakeTool(error=failure), runner).execute("t1", {})
    assert raised.value is failure
    assert log.triples() == [("a.py", "tool_result", "handler broke")]


def test_success_emits_exactly_one_tool_result_even_when_a_listener_raises(
    runner_for: Build,
) -> None:
    seen: list[object] = []

    def broken(event: object, ctx: object) -> object:
        seen.append(event)
        raise ValueError("handler broke")

    def listener(error: object) -> None:
        raise RuntimeError("listener broke")

    runner = runner_for(make_hook("a.py", tool_result=broken))
    runner.on_error(listener)
    tool = FakeTool()
    assert HookToolWrapper(tool, runner).execute("t1", {}) is tool.result
    assert len(seen) == 1


def test_async_tools_and_handlers_are_awaited(runner_for: Build) -> None:
    class AsyncTool:
        name = "fetch"

        async def execute(self, tool_call_id: str, params: object) -> object:
            return {"content": [{"type": "text", "text": "page"}], "details": None}

    async def rewrite(event: dict[str, object], ctx: object) -> object:
        return {"details": {"bytes": 4}}

    runner = runner_for(make_hook("a.py", tool_result=rewrite))
    result = HookToolWrapper(AsyncTool(), runner).execute("t1", {})
    assert result == {"content": [{"type": "text", "text": "page"}], "details": {"bytes": 4}}
