"""Settling awaitables: one loop per thread, and the nested-loop case."""

from __future__ import annotations

import asyncio

import pytest

from hookman.runtime.awaiting import is_awaitable, settle


def test_plain_values_pass_through_untouched() -> None:
    value = {"block": True}
    assert settle(value) is value
    assert not is_awaitable(value)


def test_coroutines_are_awaited_and_their_errors_raised() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    async def fail() -> None:
        raise ValueError("async failure")

    assert settle(answer()) == 42
    with pytest.raises(ValueError, match="async failure"):
        settle(fail())


def test_successive_awaits_share_one_event_loop() -> None:
    async def current_loop() -> object:
        return asyncio.get_running_loop()

    assert settle(current_loop()) is settle(current_loop())


def test_custom_awaitables_are_awaited() -> None:
    class Ready:
        def __await__(self):  # type: ignore[no-untyped-def]
            yield from asyncio.sleep(0).__await__()
            return "ready"

    assert is_awaitable(Ready())
    assert settle(Ready()) == "ready"


def test_settling_inside_a_running_loop_uses_a_helper_thread() -> None:
    async def inner() -> str:
        await asyncio.sleep(0)
        return "inner"

    async def host() -> object:
        return settle(inner())

    assert asyncio.run(host()) == "inner"
