from __future__ import annotations

import signal
import time

import pytest

from hookman.bridge.deadline import Deadline


class _Expired(BaseException):
    pass


def _raise() -> None:
    raise _Expired


def test_the_deadline_interrupts_a_sleeping_handler() -> None:
    deadline = Deadline(0.05, _raise)
    started = time.monotonic()
    with pytest.raises(_Expired):
        deadline.start()
        try:
            time.sleep(600)
        finally:
            deadline.cancel()
    assert time.monotonic() - started < 300  # interrupted, not slept out (load adds seconds)


def test_a_cancelled_deadline_never_fires() -> None:
    fired: list[str] = []
    deadline = Deadline(0.05, lambda: fired.append("expired"))
    deadline.start()
    deadline.cancel()
    time.sleep(0.1)
    assert fired == []
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the timer is disarmed too


def test_no_deadline_without_seconds() -> None:
    fired: list[str] = []
    Deadline(None, lambda: fired.append("expired")).start()
    time.sleep(0.01)
    assert fired == []
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no timer was armed


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_the_backstop_fires_when_a_hook_disarms_the_signal() -> None:
    fired: list[str] = []
    deadline = Deadline(0.05, lambda: fired.append("expired"), backstop=True)
    deadline.start()
    signal.setitimer(signal.ITIMER_REAL, 0)  # what signal.alarm(0) in a hook does
    try:
        for _ in range(100):
            if fired:
                break
            time.sleep(0.02)
    finally:
        deadline.cancel()
    assert fired == ["expired"]


def test_a_cancelled_backstop_never_fires(monkeypatch: pytest.MonkeyPatch) -> None:
    # No clock: the backstop thread's wait is recorded, so the test knows when it woke. Its
    # deadline is far beyond the test, so a stalled test thread on a busy machine cannot make
    # it fire; cancel must wake it at once (acquired, True), and then it must not fire.
    import _thread
    import threading

    woke = threading.Event()
    waits: list[bool] = []
    allocate = _thread.allocate_lock

    class RecordingLock:
        def __init__(self) -> None:
            self._lock = allocate()

        def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
            got = self._lock.acquire(blocking, timeout)
            if timeout != -1:
                waits.append(got)
                woke.set()
            return got

        def release(self) -> None:
            self._lock.release()

    monkeypatch.setattr(_thread, "allocate_lock", RecordingLock)
    fired: list[str] = []
    deadline = Deadline(30.0, lambda: fired.append("expired"), backstop=True)
    deadline.start()
    deadline.cancel()
    assert woke.wait(20), "cancel did not wake the backstop thread"
    time.sleep(0.05)  # on_expire would run right after the wait
    assert waits == [True]
    assert fired == []
