"""Settling handler and factory results that are awaitable, importing asyncio only then.

Most hooks are plain functions, and the runner starts on every Claude Code event, so the
cost of importing asyncio is paid only when some handler or factory is actually async.
All awaitables run on one event loop per thread, so state an async hook keeps between
calls (a client session, a lock) stays bound to the loop it was created on.
"""

from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asyncio import AbstractEventLoop
    from collections.abc import Awaitable

# One loop per thread id; `threading` itself is not imported at start-up (it is not cheap).
_loops_by_thread: dict[int, AbstractEventLoop] = {}


def is_awaitable(value: object) -> bool:
    """True for coroutines, futures, tasks and any object whose class defines `__await__`."""
    return getattr(type(value), "__await__", None) is not None


def settle(value: object) -> object:
    """The value itself, or, when it is awaitable, what awaiting it gives (or raises)."""
    if not is_awaitable(value):
        return value
    return _run_to_completion(value)  # type: ignore[arg-type]


def _run_to_completion(awaitable: Awaitable[object]) -> object:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _thread_loop().run_until_complete(_await(awaitable))
    # Called from inside a running loop (an async host calling the sync API): that loop
    # cannot be re-entered, so the awaitable runs to completion on a helper thread.
    return _run_on_helper_thread(awaitable)


async def _await(awaitable: Awaitable[object]) -> object:
    return await awaitable


def _thread_loop() -> AbstractEventLoop:
    thread_id = _thread.get_ident()
    loop = _loops_by_thread.get(thread_id)
    if loop is None or loop.is_closed():
        import asyncio
        import atexit

        loop = asyncio.new_event_loop()
        _loops_by_thread[thread_id] = loop
        atexit.register(loop.close)
    return loop


def _run_on_helper_thread(awaitable: Awaitable[object]) -> object:
    import asyncio
    import threading

    outcome: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        try:
            outcome["value"] = loop.run_until_complete(_await(awaitable))
        except BaseException as error:  # handed back to the calling thread below
            outcome["error"] = error
        finally:
            loop.close()

    worker = threading.Thread(target=run, name="hookman-await")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")
