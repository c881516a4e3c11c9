"""`hookman run EVENT [--async] --manifest PATH`: the command Claude Code invokes on every
event.

Reads the payload on stdin, dispatches it to the project's hooks and writes exactly one
answer: a JSON object on stdout, exit 0. Hook output never reaches stdout or the terminal
(capture.py); errors become a deny on PreToolUse (fail closed) and a logged notice
elsewhere; the deadline (deadline.py) answers even when a hook hangs. With `--async` (the
`async: true` entry, which Claude Code does not wait for) only the observe-only hooks run and
the answer is always `{}`.

Start-up cost matters here: standard library and hookman.runtime only, imported lazily
where a path is rare.
"""

from __future__ import annotations

import _thread
import json
import os
import sys
import time

from hookman.bridge.answer import blocked_thing, fail_closed_reason
from hookman.bridge.capture import OutputCapture
from hookman.bridge.client_facts import GUARDED_WITHOUT_MANIFEST
from hookman.bridge.deadline import Deadline
from hookman.bridge.firing_log import append_record
from hookman.bridge.manifest_reader import ManifestError, read_manifest
from hookman.bridge.session_state import now_iso

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.bridge.dispatch import DispatchResult
    from hookman.bridge.hook_set import CallTracker
    from hookman.bridge.manifest_reader import Manifest

USAGE = "usage: hookman run EVENT [--async] --manifest PATH  (the payload JSON on stdin)"
ASYNC_FLAG = "--async"
OUTCOME_TIMEOUT = "timeout"
OUTCOME_BAD_PAYLOAD = "bad-payload"
OUTCOME_UNKNOWN_EVENT = "unknown-event"
OUTCOME_NO_MANIFEST = "no-manifest"
OUTCOME_INTERNAL_ERROR = "internal-error"


def parse_argv(argv: list[str]) -> tuple[str | None, str | None, bool]:
    """EVENT, the --manifest path and whether --async was given (hand-parsed: argparse
    costs milliseconds)."""
    event = None
    manifest = None
    run_async = False
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == ASYNC_FLAG:
            run_async = True
        elif word == "--manifest" and index + 1 < len(argv):
            manifest = argv[index + 1]
            index += 1
        elif word.startswith("--manifest="):
            manifest = word.split("=", 1)[1]
        elif not word.startswith("-") and event is None:
            event = word
        index += 1
    return event, manifest, run_async


def main(argv: list[str]) -> int:
    event, manifest_path, run_async = parse_argv(argv)
    if event is None:
        sys.stderr.write(USAGE + "\n")
        return 1
    run = _Run(event, manifest_path, run_async)
    return run.execute()


class _Run:
    """One runner process: owns the capture, the deadline, the answer and the log line."""

    def __init__(self, event: str, manifest_path: str | None, run_async: bool = False) -> None:
        self.event = event
        self.manifest_path = manifest_path
        self.run_async = run_async
        self._detached = False  # in the child that runs an async event's hooks
        self.started = time.monotonic()
        self.capture = OutputCapture()
        self.manifest: Manifest | None = None
        self.payload: dict[str, object] = {}
        self.tracker: CallTracker | None = None
        self.deadline: Deadline | None = None
        # Taken by whoever gives the one answer: the dispatch, or the deadline (signal
        # handler or backstop thread), whichever comes first.
        self._answer_token = _thread.allocate_lock()

    def execute(self) -> int:
        self.capture.start()
        try:
            return self._handle()
        except BaseException as error:  # a bug in hookman itself: still answer, never a traceback
            return self._internal_error(error)
        finally:
            self.capture.stop()

    def _handle(self) -> int:
        raw = _read_stdin()
        payload = _parse_payload(raw)
        try:
            if not self.manifest_path:
                raise ManifestError("the command has no --manifest PATH")
            self.manifest = read_manifest(self.manifest_path)
        except ManifestError as error:
            return self._no_manifest(str(error), payload or {})
        if payload is None:
            return self._finish({}, OUTCOME_BAD_PAYLOAD, notices=[_bad_payload_note(raw)])
        self.payload = payload
        if not self.manifest.knows_event(self.event):
            note = f"{self.event!r} is not a Claude Code event hookman knows; nothing ran"
            return self._finish({}, OUTCOME_UNKNOWN_EVENT, notices=[note])
        if self.run_async and self._detach():
            return 0
        from hookman.bridge.dispatch import dispatch_event
        from hookman.bridge.hook_set import CallTracker
        from hookman.bridge.session_state import SessionState

        _cache_hook_bytecode(self.manifest.state_dir)
        self.tracker = CallTracker()
        self.deadline = Deadline(
            self.manifest.deadline_for(self.event, self.run_async),
            self._deadline_passed,
            backstop=True,
        )
        self.deadline.start()
        result = dispatch_event(
            self.manifest,
            self.event,
            payload,
            state=SessionState(self.manifest.state_dir, payload.get("session_id")),
            tracker=self.tracker,
            run_async=self.run_async,
        )
        self.deadline.cancel()
        return self._finish(result.answer, result.outcome, result=result)

    def _finish(
        self,
        answer: dict[str, object],
        outcome: str,
        *,
        result: DispatchResult | None = None,
        notices: list[str] | None = None,
        errors: list[dict[str, str]] | None = None,
        exit_code: int = 0,
    ) -> int:
        if self._answer_token.locked():
            return exit_code
        if self.run_async:
            answer = {}  # Claude Code does not read an async entry's answer
        # Encoded before the answer counts as given: if encoding fails, the internal-error
        # path must still be able to answer (on PreToolUse, a deny).
        text = json.dumps(answer, ensure_ascii=False, allow_nan=False) + "\n"
        if not self._answer_token.acquire(False):
            return exit_code
        if not self._detached:  # the detached child's answer was given by its parent
            self.capture.write_answer(text)
        self._log(
            outcome,
            hooks=result.hooks if result else [],
            errors=(result.errors if result else []) + (errors or []),
            notices=(result.notices if result else []) + (notices or []),
            reason=_deny_reason(result.answer) if result else None,
        )
        return result.exit_code if result else exit_code

    def _log(
        self,
        outcome: str,
        *,
        hooks: list[str],
        errors: list[dict[str, str]],
        notices: list[str],
        reason: str | None = None,
    ) -> None:
        log_path = self.manifest.log_path if self.manifest else _fallback_log_path()
        if not log_path:
            return
        record = {
            "time": now_iso(),
            "project": self.manifest.project_dir if self.manifest else None,
            "session": self.payload.get("session_id"),
            "agent_id": self.payload.get("agent_id"),
            "event": self.event,
            "hooks": hooks,
            "outcome": outcome,
            "duration_ms": round((time.monotonic() - self.started) * 1000, 1),
            "errors": errors,
            "output": self.capture.captured_text(),
            "notices": notices,
        }
        if self.run_async:
            record["async"] = True
        if reason is not None:
            record["reason"] = reason  # what a deny or block told the agent (`hookman log`)
        try:
            append_record(log_path, record)
        except OSError:
            pass  # the answer matters more than the log line

    def _detach(self) -> bool:
        """Answer `{}` and hand the hooks to a child in its own session. Returns True in
        the parent (done) and False in the child, or where fork does not exist."""
        if not hasattr(os, "fork"):
            return False
        try:
            child = os.fork()  # no thread runs yet: the deadline starts after this
        except OSError:
            return False  # run the hooks in this process; the client still does not wait
        if child:
            self._answer_token.acquire(False)
            self.capture.write_answer("{}\n")
            return True
        # The fork hook of capture.py already moved this child off the agent's stdout.
        self._detached = True
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        return False

    def _guarded(self) -> bool:
        """Whether this event fails closed (a deny unless every guard ran and allowed)."""
        if self.manifest is None:
            return self.event in GUARDED_WITHOUT_MANIFEST
        return self.manifest.client.is_guarded(self.event)

    def _no_manifest(self, problem: str, payload: dict[str, object]) -> int:
        self.payload = payload
        fix = "Run `hookman install` in the project to rewrite it."
        if self._guarded():
            answer = _deny(
                self.event,
                f"hookman blocked this {blocked_thing(self.event)} because {problem}, so the "
                f"project's guard hooks could not run. {fix}",
            )
        else:
            answer = {"systemMessage": f"hookman: no hook ran, because {problem}. {fix}"}
        errors = [{"hook": "hookman", "event": self.event, "error": problem}]
        return self._finish(answer, OUTCOME_NO_MANIFEST, errors=errors)

    def _deadline_passed(self) -> None:
        """Called from the timer while a hook still runs: answer now and exit the process.

        Returns without exiting when the answer is already being given (the dispatch ended
        just now, or the other timer came first and is exiting)."""
        if not self._answer_token.acquire(False):
            return
        hook = (self.tracker.current_hook if self.tracker else None) or "(loading)"
        seconds = self.deadline.seconds if self.deadline else 0
        problem = f"did not finish within hookman's deadline of {seconds:g} s"
        answer: dict[str, object]
        if self.run_async:
            answer = {}
        elif self._guarded():
            answer = _deny(self.event, fail_closed_reason(hook, problem, self.event))
        else:
            answer = {
                "systemMessage": f"hookman: hook {hook!r} {problem} on {self.event}; "
                f"its results were dropped."
            }
        errors = [{"hook": hook, "event": self.event, "error": problem}]
        hooks = (
            [h.name for h in self.manifest.hooks_for(self.event, self.run_async)]
            if self.manifest
            else []
        )
        try:
            if not self._detached:
                self.capture.write_answer(json.dumps(answer) + "\n")
            self._log(OUTCOME_TIMEOUT, hooks=hooks, errors=errors, notices=[])
        finally:
            os._exit(0)

    def _internal_error(self, error: BaseException) -> int:
        if self.deadline is not None:
            self.deadline.cancel()
        import traceback

        details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        problem = f"hookman's runner failed ({type(error).__name__}: {error})"
        if self._guarded():
            reason = fail_closed_reason("hookman", f"could not run: {problem}", self.event)
            answer = _deny(self.event, reason)
        else:
            answer = {"systemMessage": f"hookman: {problem}; see `hookman log`."}
        errors = [{"hook": "hookman", "event": self.event, "error": details}]
        return self._finish(answer, OUTCOME_INTERNAL_ERROR, errors=errors)


def _deny(event: str, reason: str) -> dict[str, object]:
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def _read_stdin() -> str:
    try:
        data = sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError):
        return ""
    return data.decode("utf-8", "replace")


def _parse_payload(raw: str) -> dict[str, object] | None:
    try:
        payload = json.loads(raw)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def _bad_payload_note(raw: str) -> str:
    sample = raw[:80] + ("..." if len(raw) > 80 else "")
    return f"the payload on stdin is not a JSON object: {sample!r}"


def _fallback_log_path() -> str | None:
    home = os.environ.get("HOOKMAN_HOME")
    return os.path.join(home, "log", "firing.jsonl") if home else None


def _cache_hook_bytecode(state_dir: str) -> None:
    """Keep the hooks' compiled bytecode in hookman's state dir.

    Every event starts a fresh interpreter that imports the project's hooks; without a
    bytecode cache each start recompiles them (PYTHONDONTWRITEBYTECODE, or a hooks directory
    the agent cannot write). A cache in hookman's own directory avoids that, and never
    litters the user's project with __pycache__ directories.
    """
    sys.pycache_prefix = os.path.join(state_dir, "pycache")
    sys.dont_write_bytecode = False


def _deny_reason(answer: dict[str, object]) -> str | None:
    """The reason of a deny (PreToolUse) or block in the answer, or None."""
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("permissionDecision") == "deny":
        reason = specific.get("permissionDecisionReason")
        return reason if isinstance(reason, str) else ""
    if answer.get("decision") == "block":
        reason = answer.get("reason")
        return reason if isinstance(reason, str) else ""
    return None
