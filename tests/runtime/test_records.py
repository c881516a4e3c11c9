"""The plain records: equality, hashing, repr and tuple-style unpacking."""

from __future__ import annotations

from hookman.runtime import ExecResult, HookError, LoadError, LoadHooksResult, ToolBlockedError


def test_records_compare_by_type_and_fields() -> None:
    assert HookError("a.py", "tool_call", "x") == HookError("a.py", "tool_call", "x")
    assert HookError("a.py", "tool_call", "x") != HookError("a.py", "tool_call", "y")
    assert LoadError("a.py", "x") != HookError("a.py", "x", "")
    assert len({HookError("a", "b", "c"), HookError("a", "b", "c")}) == 1


def test_records_repr_in_constructor_order_and_unpack() -> None:
    result = ExecResult("out", "err", 1, False)
    assert repr(result) == "ExecResult(stdout='out', stderr='err', code=1, killed=False)"
    stdout, stderr, code, killed = result
    assert (stdout, stderr, code, killed) == ("out", "err", 1, False)
    hooks, errors = LoadHooksResult([], [LoadError("p", "e")])
    assert (hooks, errors) == ([], [LoadError("p", "e")])


def test_tool_blocked_error_carries_its_reason() -> None:
    error = ToolBlockedError("no rm -rf")
    assert (str(error), error.reason) == ("no rm -rf", "no rm -rf")
