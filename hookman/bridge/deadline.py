"""The runner's own deadline: a timer that fires even while a hook's handler hangs.

On POSIX it is SIGALRM (setitimer), whose handler runs in the main thread between
bytecodes and interrupts blocking sleeps and waits; elsewhere, or off the main thread, a
timer thread. `on_expire` decides what happens: the runner answers and exits at once.

A hook can take SIGALRM away (its own `signal.alarm`, `signal.alarm(0)`, a library's timeout
decorator), which would leave the runner with no deadline and Claude Code's timeout to fail
open. The runner therefore also asks for a `backstop`: a bare thread (`_thread`, cheap) that
calls `on_expire` at the same moment, so `on_expire` must tolerate being called twice.
Neither can interrupt a hook stuck inside one long C call that holds the GIL; for that the
runner also arms a hard stop (run_command.py: faulthandler's watchdog, a C thread) that ends
the process before Claude Code's timeout, and the launcher answers for it.
"""

from __future__ import annotations

try:  # `signal` imports enum on top of the built-in `_signal`; the runner needs only this
    import _signal as signals
except ImportError:  # pragma: no cover - other Python implementations
    import signal as signals  # type: ignore[no-redef]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class DeadlineInterrupt(BaseException):
    """Raised into a hook by an `on_expire` that interrupts rather than exits (`fire`): the
    dispatch lets it through (BaseException: hooks catch Exception)."""


class Deadline:
    def __init__(
        self,
        seconds: float | None,
        on_expire: Callable[[], None],
        *,
        thread_fallback: bool = True,
        backstop: bool = False,
    ) -> None:
        """`thread_fallback=False`: no deadline where no signal can interrupt the hook.
        `backstop=True`: a thread calls `on_expire` too, in case a hook disarms the signal."""
        self.seconds = seconds
        self._on_expire = on_expire
        self._thread_fallback = thread_fallback
        self._backstop = backstop
        self._previous_handler: object = None
        self._uses_signal = False
        self._timer: object = None
        self._backstop_stop: object = None

    def start(self) -> None:
        if not self.seconds or self.seconds <= 0:
            return
        if hasattr(signals, "setitimer"):
            try:
                self._previous_handler = signals.signal(signals.SIGALRM, self._expire)
            except ValueError:  # not the main thread
                pass
            else:
                self._uses_signal = True
                signals.setitimer(signals.ITIMER_REAL, self.seconds)
                if self._backstop:
                    self._start_backstop(self.seconds)
                return
        if not self._thread_fallback:
            return
        import threading

        timer = threading.Timer(self.seconds, self._on_expire)
        timer.daemon = True
        timer.start()
        self._timer = timer

    def cancel(self) -> None:
        if self._uses_signal:
            signals.setitimer(signals.ITIMER_REAL, 0)
            signals.signal(signals.SIGALRM, self._previous_handler or signals.SIG_DFL)
            self._uses_signal = False
        if self._timer is not None:
            self._timer.cancel()  # type: ignore[attr-defined]
            self._timer = None
        if self._backstop_stop is not None:
            self._backstop_stop.release()  # type: ignore[attr-defined]
            self._backstop_stop = None

    def _start_backstop(self, seconds: float) -> None:
        import _thread

        stop = _thread.allocate_lock()
        stop.acquire()
        self._backstop_stop = stop

        def watch() -> None:
            try:
                if not stop.acquire(timeout=seconds):
                    self._on_expire()
            except BaseException:  # nothing may reach stderr from this thread
                pass

        _thread.start_new_thread(watch, ())

    def _expire(self, signum: int, frame: object) -> None:
        self._on_expire()
