from __future__ import annotations

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
            time.sleep(5)
        finally:
            deadline.cancel()
    assert time.monotonic() - started < 2


def test_a_cancelled_deadline_never_fires() -> None:
    deadline = Deadline(0.05, _raise)
    deadline.start()
    deadline.cancel()
    time.sleep(0.1)


def test_no_deadline_without_seconds() -> None:
    Deadline(None, _raise).start()
    time.sleep(0.01)
