"""`hookman run EVENT [--async] --manifest PATH`: the command Claude Code invokes on every
event.

Reads the payload on stdin, dispatches it to the project's hooks and writes exactly one
answer: a JSON object on stdout, exit 0. Hook output never reaches stdout or the terminal
(capture.py); errors, a bad payload and a missing manifest become a deny on guarded events
(fail closed: the manifest's client facts name them) and a logged notice elsewhere; the
deadline (deadline.py) answers even when a hook hangs. With `--async` (the `async: true`
entry, which Claude Code does not wait for) only the observe-only hooks run and the answer
is always `{}`.

Run by the launcher (hookman/project/launcher.py, `--launched`), the answer ends with ANSWER_END, so
the launcher can tell a complete answer from a process that died on the way, and the process
ends with os._exit as soon as the answer is given and logged (`launched`): no thread or
atexit job a hook left behind can keep it alive. `--guarded` (from the launcher) marks a
guarded event even when the manifest cannot be read.

Start-up cost matters here: standard library and hookman.runtime only, imported lazily
where a path is rare.
"""

from __future__ import annotations

import _thread
import errno
import os
import stat
import sys
import time

from hookman.bridge import lean_json
from hookman.bridge.answer import (
    deadline_outside_hooks,
    deadline_problem,
    deadline_reason,
    runner_failed_reason,
)
from hookman.bridge.answer_frame import framed_line
from hookman.bridge.capture import OutputCapture
from hookman.bridge.client_facts import GUARDED_WITHOUT_MANIFEST
from hookman.bridge.command_start import command_ages
from hookman.bridge.deadline import Deadline
from hookman.bridge.entry_timeout import agent_entries_file, deadlines_within, settings_timeout
from hookman.bridge.firing_log import append_record, new_record
from hookman.bridge.manifest_reader import ManifestError, read_manifest
from hookman.bridge.project_moved import (
    ProjectChange,
    changed_deny_reason,
    changed_notice,
    foreign_deny_reason,
    foreign_project,
    guarded_reach,
    project_change,
    say_once,
)
from hookman.bridge.protocol import (
    AGENT_FLAG,
    ANSWER_END,
    ANSWER_FILE_FLAG,
    ANSWER_START,
    ASYNC_FLAG,
    CHANNEL_FLAG,
    CODEX_AGENT,
    COPILOT_AGENT,
    FRAMED_FLAG,
    GUARDED_FLAG,
    LAUNCHED_FLAG,
    MANIFEST_FLAG,
    NO_SPACE_STATUS,
    PROMPT_GATE_EVENT,
    deny_answer,
    guarded_subject,
    stop_answer,
)
from hookman.bridge.watchdog import FAILED, STARTED, confirm_watchdog, start_watchdog

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.bridge.dispatch import DispatchResult
    from hookman.bridge.guard_drift import Drift
    from hookman.bridge.hook_set import CallTracker
    from hookman.bridge.manifest_reader import Manifest
    from hookman.json_shapes import HookErrorJson, Outcome

USAGE = "usage: hookman run EVENT [--async] --manifest PATH  (the payload JSON on stdin)"
# Characters of a guarded event's answer past which its texts are cut: the launcher's `read`
# takes a byte per system call in dash (~2 MB/s), so a huge answer (another hook's
# additionalContext) would reach the client after its timeout, deny and all.
ANSWER_LIMIT = 256 * 1024
TEXT_LIMIT = 16 * 1024  # characters kept of each text field of an answer that was too large
CUT_NOTICE = (
    "hookman: this answer was larger than {limit} characters, so its texts were cut to "
    "{text} characters each (see {where})."
)
EXIT_NO_ANSWER = 70  # the answer could not be written (the launcher answers instead)
# The errors of a write that failed for want of space (the launcher then says the disk is
# full, NO_SPACE_STATUS); EDQUOT is not on every platform.
_NO_SPACE_ERRNOS = frozenset(
    code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None)) if code is not None
)
NO_ANSWER_NOTICE = "the answer could not be written (a hook closed hookman's output)"
_MOMENT = 0.001  # seconds: a deadline already passed fires at once
# Less time than this left before the deadline when the runner starts (min of the two): the
# guards are not run, a guarded event is denied at once, saying where the time went.
ENOUGH_TIME_S = 1.0
ENOUGH_TIME_FRACTION = 0.25
# Seconds a run started that late still gives itself to read the payload and deny (every
# deadline already passed would fire at once, with a reason that is not the true one).
LATE_READ_S = 0.1
OUTCOME_TIMEOUT: Outcome = "timeout"
OUTCOME_BAD_PAYLOAD: Outcome = "bad-payload"
OUTCOME_UNKNOWN_EVENT: Outcome = "unknown-event"
OUTCOME_NO_MANIFEST: Outcome = "no-manifest"
OUTCOME_INTERNAL_ERROR: Outcome = "internal-error"
OUTCOME_FAILED_CLOSED: Outcome = "failed-closed"
OUTCOME_ERRORS: Outcome = "errors"
OUTCOME_OK: Outcome = "ok"
UNSAFE_STATE_FIX = (
    "hookman keeps state and bytecode only where no other user can write: remove that "
    "directory, or make it yours and writable by you alone (`chmod go-w`), or set HOOKMAN_HOME "
    "to a directory only you can write."
)
EXIT_UNSAFE_ANSWER_FILE = 71  # the answer file lies where another user could swap it


class RunOptions:
    __slots__ = (
        "agent",
        "answer_file",
        "channel",
        "event",
        "framed",
        "guarded",
        "launched",
        "manifest",
        "run_async",
    )

    def __init__(self) -> None:
        self.agent: str | None = None  # None: Claude Code; "codex": answer in Codex's protocol
        self.event: str | None = None
        self.manifest: str | None = None
        self.run_async = False
        self.launched = False
        self.guarded = False
        self.framed = False
        self.answer_file: str | None = None
        self.channel: str | None = None  # launcher format 4: where an answer can be heard


def parse_options(argv: list[str]) -> RunOptions:
    """The runner's words (hand-parsed: argparse costs milliseconds)."""
    options = RunOptions()
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == ASYNC_FLAG:
            options.run_async = True
        elif word == LAUNCHED_FLAG:
            options.launched = True
        elif word == GUARDED_FLAG:
            options.guarded = True
        elif word == FRAMED_FLAG:
            options.framed = True
        elif word == MANIFEST_FLAG and index + 1 < len(argv):
            options.manifest = argv[index + 1]
            index += 1
        elif word == AGENT_FLAG and index + 1 < len(argv):
            options.agent = argv[index + 1]
            index += 1
        elif word == CHANNEL_FLAG and index + 1 < len(argv):
            options.channel = argv[index + 1]
            index += 1
        elif word == ANSWER_FILE_FLAG and index + 1 < len(argv):
            options.answer_file = argv[index + 1]
            index += 1
        elif word.startswith("--manifest="):
            options.manifest = word.split("=", 1)[1]
        elif not word.startswith("-") and options.event is None:
            options.event = word
        index += 1
    return options


def main(argv: list[str]) -> int:
    options = parse_options(argv)
    if options.answer_file:  # our stdout: the launcher reads it through its own descriptor
        if _answer_file_problem(options.answer_file) is not None:
            _make_state_dir(options.manifest)  # where the next call's launcher answers
            return EXIT_UNSAFE_ANSWER_FILE  # nothing written: the launcher denies
        _release_answer_file(options.answer_file)
    if options.event is None:
        sys.stderr.write(USAGE + "\n")
        return 1
    run = _Run(options.event, options.manifest, options.run_async)
    run.launched = options.launched
    run.guarded_flag = options.guarded
    run.framed = options.framed and options.launched
    run.agent = options.agent if options.agent is not None else _agent_from_environment()
    run.channel = options.channel
    return run.execute()


def _agent_from_environment() -> str | None:
    """The agent running a Claude Code entry (no AGENT_FLAG): GitHub Copilot CLI runs them
    and says so in its hooks' environment (catalog/agent_catalog.py); None: Claude Code."""
    from hookman.bridge.agent_facts import agent_from_environment

    try:
        return agent_from_environment()
    except Exception:  # facts unreadable (a plugin has none): Claude Code's answer, denies kept
        return None


_own_path_entry: list[str] = []  # the sys.path entry launcher format 3 added for hookman


def launched() -> None:
    """The launcher's entry (`python -c "...; launched()" run EVENT ...`): run, then end the
    process at once, whatever threads, atexit jobs or children the hooks left behind.
    Format 3 starts the interpreter with -I -S and appends hookman's directory to sys.path
    (site_start.py reads the site later, under the runner's clock)."""
    if sys.flags.no_site and sys.path:
        _own_path_entry.append(sys.path[-1])
    if GUARDED_FLAG in sys.argv:
        try:
            # Its own process group: a hook that signals "its" group (a cleanup's killpg)
            # reaches the runner and its children only, never the launcher or the client's
            # shell, which then answer for it; and the watchdog (which only a group leader
            # gets) can kill the whole group at the hard stop. Elsewhere nothing is denied,
            # so the runner stays in the client's group, where the client's own kill at the
            # timeout reaches it, and saves the watchdog's fork (copy-on-write: ~2 ms).
            os.setpgid(0, 0)
        except OSError:
            pass
    try:
        code = main(sys.argv[2:])  # sys.argv: ["-c", "run", EVENT, ...]
    except BaseException:  # the launcher answers for a runner that could not
        code = EXIT_NO_ANSWER
    os._exit(code)


class _Run:
    """One runner process: owns the capture, the deadline, the answer and the log line."""

    def __init__(self, event: str, manifest_path: str | None, run_async: bool = False) -> None:
        self.event = event
        self.manifest_path = manifest_path
        self.run_async = run_async
        self._detached = False  # in the child that runs an async event's hooks
        self.launched = False  # run by the launcher: end the answer with ANSWER_END
        self.framed = False  # launcher format 3: ANSWER_START, the answer line, ANSWER_END
        self._watchdog_started = False
        self._cannot_watch = False  # a guarded run whose watchdog could not be started
        self._spent_before = 0.0  # seconds the command ran before this process started
        self._late = False  # so much spent before the runner that too little time is left
        self.guarded_flag = False  # the launcher says the event is guarded
        self.agent: str | None = None  # None: Claude Code; "codex": Codex CLI's protocol
        self.channel: str | None = None  # the launcher's CHANNEL_FLAG (None: format 3)
        self.launcher_pid = os.getppid()  # before a watchdog fork makes another parent
        self._no_space = False  # the answer's write failed for want of space
        self.started = time.monotonic()
        self.capture = OutputCapture()
        self.manifest: Manifest | None = None
        self.state_problem: str | None = None  # the state dir another user could write
        self.payload: dict[str, object] = {}
        self.tracker: CallTracker | None = None
        self._drift: list[Drift] = []  # what _drifted found
        # The prompt gate's own checks passed (the project as installed, its own project,
        # the server ours), so the hooks run: a failure of the runner before that stops the
        # prompt; one in the hooks (a handler's KeyboardInterrupt) is the hooks' notice.
        self._gate_passed = False
        self.deadline: Deadline | None = None
        self.deadline_seconds: float | None = None  # as configured (the timer counts less)
        self._reading_payload = False
        # The warm server's child (bridge/serve_child.py): the payload as the request
        # brought it (not stdin), and when the request arrived (time.monotonic(), which the
        # fork keeps): the deadlines count from then.
        self.raw_payload: bytes | None = None
        self.received_at: float | None = None
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

    @property
    def guarded(self) -> bool:
        """Whether this run fails closed: a deny unless every guard ran and allowed."""
        if self.run_async:
            return False
        if self.guarded_flag:
            return True
        if self.manifest is not None:
            return self.manifest.client.is_guarded(self.event)
        return self.event in GUARDED_WITHOUT_MANIFEST

    def _handle(self) -> int:
        manifest_problem = None
        if self.agent is not None and not self.run_async:
            self._load_agent_answer()  # before the deadline, whose answer may need it
        try:
            if not self.manifest_path:
                raise ManifestError("the command has no --manifest PATH")
            self.manifest = read_manifest(self.manifest_path)
        except ManifestError as error:
            manifest_problem = str(error)
        if self.manifest is not None:
            self.state_problem = _private_state(self.manifest)
        if self.manifest is not None and not self.run_async:
            self._arm_deadlines(self.manifest)  # before stdin: a payload may never end
        self._reading_payload = True
        raw = _read_stdin() if self.raw_payload is None else self.raw_payload
        self._reading_payload = False
        payload, problem = _parse_payload(raw)
        if manifest_problem is not None:
            return self._no_manifest(manifest_problem, payload or {})
        assert self.manifest is not None
        if payload is not None and self.guarded and _has_lone_surrogate(raw, payload):
            payload, problem = None, "it holds a lone UTF-16 surrogate, which no guard can check"
        if payload is None:
            note = f"the payload on stdin is not a JSON object hookman can read ({problem})"
            if self.guarded:
                reason = (
                    f"hookman blocked this {guarded_subject(self.event)} because {note}, so "
                    f"the project's guards could not check it."
                )
                return self._finish(
                    deny_answer(self.event, reason), OUTCOME_BAD_PAYLOAD, notices=[note]
                )
            return self._finish({}, OUTCOME_BAD_PAYLOAD, notices=[note])
        if self.agent is not None and self.agent != CODEX_AGENT:
            from hookman.bridge.agent_payload import claude_payload

            payload = claude_payload(self.agent, payload)  # the tool names hooks know
        self.payload = payload
        if not self.manifest.knows_event(self.event):
            note = f"{self.event!r} is not a Claude Code event hookman knows; nothing ran"
            return self._finish({}, OUTCOME_UNKNOWN_EVENT, notices=[note])
        if self.state_problem is not None:  # before any hook loads bytecode from there
            return self._unsafe_state(self.state_problem)
        foreign = self._foreign_client_dir()
        if foreign is not None and (self.guarded or self.gates_prompt):
            # never another project's guards in silence
            return self._foreign_project(foreign)
        change = None if self.run_async else self._project_change()
        if change is not None and (self.guarded or self.gates_prompt):
            return self._project_changed(change)  # never the old guards in silence
        if self.gates_prompt and self.manifest.serve_port is not None:
            stopped = self._server_impostor(self.manifest.serve_port)
            if stopped is not None:
                return stopped
        if self._late or self._cannot_watch:
            return self._refuse_to_start()
        if self.run_async and self._detach():
            return 0
        if self.deadline is None:  # async: armed in the child, after the fork
            self._arm_deadlines(self.manifest)
        from hookman.bridge.site_start import start_site

        start_site(_own_path_entry[0] if _own_path_entry else None)  # under the clock now
        from hookman.bridge.dispatch import dispatch_event
        from hookman.bridge.hook_set import CallTracker
        from hookman.bridge.session_state import SessionState

        _cache_hook_bytecode(self.manifest.state_dir)
        self.tracker = CallTracker()
        if self._watchdog_started and not confirm_watchdog() and self.guarded:
            # Before any hook loads; this late so that the watchdog's shell starts while the
            # runner imports, instead of the runner waiting for it. One that did not start
            # is replaced by a fork; where that fails too, the guards do not run unwatched.
            self._cannot_watch = True
            return self._refuse_to_start()
        self._gate_passed = True  # hookman's own checks passed: the hooks' failures are theirs
        result = dispatch_event(
            self.manifest,
            self.event,
            payload,
            state=SessionState(self.manifest.state_dir, payload.get("session_id")),
            tracker=self.tracker,
            run_async=self.run_async,
        )
        if self._drifted(result):  # under the deadline still: the check loads the hooks
            return self._guards_drifted(self._drift)
        if self.deadline is not None:
            self.deadline.cancel()
        if change is not None:
            self._say_changed(change, result)
        if foreign is not None:
            note = foreign_deny_reason(self.event, self.manifest.project_dir, foreign)
            result.notices.append(note.replace("hookman blocked this", "hookman ran this", 1))
        return self._finish(result.answer, result.outcome, result=result)

    def _foreign_client_dir(self) -> str | None:
        """The client's project directory when it is not the one this manifest was
        installed for (bridge/project_moved.foreign_project); None otherwise, and for
        Codex (it names no project: an inherited CLAUDE_PROJECT_DIR is not its own) and
        for a plugin (its manifest serves every project)."""
        assert self.manifest is not None
        if self.agent not in (None, COPILOT_AGENT) or not self.manifest.config_path:
            return None  # Copilot runs Claude Code's entries and names the project as it does
        client_dir = os.environ.get("CLAUDE_PROJECT_DIR")
        if foreign_project(self.manifest.project_dir, client_dir):
            return client_dir
        return None

    @property
    def gates_prompt(self) -> bool:
        """Whether this run is a project's prompt gate (install/install_plan.py): a
        blocking UserPromptSubmit of Claude Code, which stops the prompt rather than let a
        session start while the project's guards are not what it asks for (a guard a pull
        added may have no entry that reaches it). Codex honours no stop of a prompt."""
        return self._gate_entry() and self.manifest is not None and bool(self.manifest.config_path)

    def _gate_entry(self) -> bool:
        """Whether this is Claude Code's blocking UserPromptSubmit entry, which every installed
        project has as its prompt gate (before the manifest says so: gates_prompt)."""
        return self.event == PROMPT_GATE_EVENT and not self.run_async and self.agent is None

    @property
    def _gate_unchecked(self) -> bool:
        """Whether this run is (or, with no manifest to say so, may be) a project's prompt
        gate whose own checks have not passed: a failure now stops the prompt."""
        if self._gate_passed or not self._gate_entry():
            return False
        if self.manifest is None:  # a plugin's runner is never a gate
            return not _in_plugin(self.manifest_path)
        return bool(self.manifest.config_path)

    def _refuse(self, reason: str, problem: str) -> int:
        """Deny a guarded event, or stop the prompt at the gate, for `reason`."""
        errors: list[HookErrorJson] = [{"hook": "hookman", "event": self.event, "error": problem}]
        answer = deny_answer(self.event, reason) if self.guarded else stop_answer(reason)
        return self._finish(answer, OUTCOME_FAILED_CLOSED, errors=errors, reason=reason)

    def _foreign_project(self, client_dir: str) -> int:
        """Deny a guarded event (stop a prompt) run for another project than the manifest's."""
        assert self.manifest is not None
        reason = foreign_deny_reason(self.event, self.manifest.project_dir, client_dir)
        problem = f"installed for {self.manifest.project_dir}, run for {client_dir}"
        return self._refuse(reason, problem)

    def _server_impostor(self, port: int) -> int | None:
        """Stop the prompt when another process holds the project's server port
        (bridge/serve_gate.py; nothing there: the server is started in the background)."""
        from hookman.bridge.serve_gate import serve_problem

        found = serve_problem(port)
        if found is None:
            return None
        problem, reason = found
        return self._refuse(reason, problem)

    def _drifted(self, result: DispatchResult) -> bool:
        """Whether, after the hooks ran and let this guarded event (or the gate's prompt)
        through, a path hook's code guards what install did not wire (bridge/guard_drift.py).
        After the dispatch, so that a hook that fails to load is named by the dispatch's own
        deny, and its module is imported once."""
        assert self.manifest is not None
        if not (self.guarded or self.gates_prompt) or not self.manifest.config_path:
            return False
        if result.outcome not in (OUTCOME_OK, OUTCOME_ERRORS):
            return False  # denied or blocked already
        from hookman.bridge.guard_drift import guard_drift

        self._drift = guard_drift(self.manifest, self.manifest.state_dir, self.tracker)
        return bool(self._drift)

    def _guards_drifted(self, drift: list[Drift]) -> int:
        """Deny a guarded event (stop a prompt) while a path hook guards what install did
        not wire."""
        assert self.manifest is not None
        from hookman.bridge.guard_drift import drift_reason

        reason = drift_reason(self.event, drift, self.manifest.project_dir)
        problem = "; ".join(item.shown() for item in drift) + ", not installed"
        return self._refuse(reason, problem)

    def _project_change(self) -> ProjectChange | None:
        """What changed in the project since install (bridge/project_moved.py); None when
        nothing did or hookman cannot tell (a plugin's manifest, an older install)."""
        assert self.manifest is not None
        manifest = self.manifest
        return project_change(manifest.installed_from, manifest.config_path, manifest.state_dir)

    def _project_changed(self, change: ProjectChange) -> int:
        """Deny a guarded event (stop a prompt) of a project that moved on since install:
        the guards installed here may not be the ones hookman.toml and the pins name now."""
        assert self.manifest is not None
        reason = changed_deny_reason(self.event, change, self.manifest.project_dir)
        return self._refuse(reason, f"{change.shown()} changed since `hookman install`")

    def _say_changed(self, change: ProjectChange, result: DispatchResult) -> None:
        """An observe-only event ran the hooks as installed: the log notes it every time,
        the user reads it once per change (a systemMessage, a field of every Claude Code
        event's answer; Codex honours none on any event (catalog codex_events.json
        "answers"), so its entries only log it and leave the telling to Claude Code's
        entries and to the guarded events' deny)."""
        assert self.manifest is not None
        manifest = self.manifest
        reach = guarded_reach(manifest.entries, manifest.client.is_guarded, manifest.sentinels)
        notice = changed_notice(
            change, manifest.project_dir, reach, sentinels=bool(manifest.sentinels)
        )
        result.notices.append(notice)
        if self.agent is not None or not say_once(self.manifest.state_dir, change):
            return
        message = result.answer.get("systemMessage")
        said = f"{message}\n{notice}" if isinstance(message, str) and message else notice
        result.answer["systemMessage"] = said

    def _arm_deadlines(self, manifest: Manifest) -> None:
        """The deadline, the hard stop and (launched) the watchdog, counted from when the
        client started the command: a slow start-up file, interpreter shim, interpreter start
        or payload uses up the same time."""
        seconds = manifest.deadline_for(self.event, self.run_async)
        hard_stop = manifest.hard_stop_for(self.event, self.run_async)
        timeout = manifest.timeout_for(self.event, self.run_async)
        if not self.run_async:  # the entry's timeout counts: it may be lowered by hand
            # Each agent kills the runner at its own entry's timeout, in its own file
            entries, top_level = agent_entries_file(self.agent)
            lowered = settings_timeout(
                manifest.project_dir, self.event, entries, top_level=top_level
            )
            if lowered is not None and (timeout is None or lowered < timeout):
                seconds, hard_stop = deadlines_within(lowered)
                timeout = lowered
        elapsed = self._elapsed(timeout)
        if seconds and not self.run_async:
            self._late = seconds - elapsed < min(ENOUGH_TIME_S, seconds * ENOUGH_TIME_FRACTION)
        least = LATE_READ_S if self._late else _MOMENT
        if hard_stop and seconds and self.launched and not self.run_async:
            # Forked first, while this process has no other thread. A little after the hard
            # stop (a quarter of what is left before the timeout), so that the runner's own
            # end, which says more in the log, normally comes first.
            kill_at = hard_stop + (hard_stop - seconds) / 4
            watchdog = start_watchdog(max(kill_at - elapsed, least))
            self._watchdog_started = watchdog == STARTED
            self._cannot_watch = watchdog == FAILED and self.guarded
        self.deadline_seconds = seconds
        # The server's child has a watchdog outside it already: the server, which kills its
        # group and denies at its own hard deadline. The backstop thread and the hard stop
        # (a thread each) would cost it a quarter of its CPU.
        served = self.received_at is not None
        self.deadline = Deadline(
            max(seconds - elapsed, least) if seconds else None,
            self._deadline_passed,
            backstop=not served,
        )
        try:
            self.deadline.start()
        except RuntimeError:  # no thread could be started (threads count in `ulimit -u`)
            # Its signal is armed (the payload's read is timed); a live watchdog still ends
            # a hook that disarms it or stops the process, without one nothing would.
            if not self._watchdog_started:
                self._cannot_watch = self.guarded
        if hard_stop and not served:
            _arm_hard_stop(max(hard_stop - elapsed, least))

    def _elapsed(self, timeout: float | None) -> float:
        """Seconds the command has run: since the client started it (command_start.py),
        unless that is more than its timeout, after which no client still waits for the
        answer (the launcher run by hand, or in a loop that names it): then since this
        process started."""
        if self.received_at is not None:  # the server's child: since the request came
            return max(time.monotonic() - self.received_at, 0.0)
        own, command = command_ages(os.path.dirname(self.manifest_path or ""))
        if timeout is not None and command > timeout:
            return own
        self._spent_before = command - own
        return command

    def _refuse_to_start(self) -> int:
        """Answer without running a hook: too little time left after what was spent before
        the runner started, or (guarded) no watchdog could be started."""
        if self.deadline is not None:
            self.deadline.cancel()
        if self._cannot_watch:
            note = (
                "hookman's runner could not start its watchdog (no new process or thread can "
                "be started: the user's process limit, `ulimit -u`, is reached)"
            )
        else:
            note = (
                f"{self._spent_before:.1f} s of the hook's time passed before hookman's runner "
                f"started (a slow shell start-up file such as BASH_ENV, or a slow python3 "
                f"shim), which left too little of hookman's deadline of "
                f"{self.deadline_seconds or 0:g} s for the guards"
            )
        errors: list[HookErrorJson] = [{"hook": "hookman", "event": self.event, "error": note}]
        if not self.guarded:
            return self._finish({}, OUTCOME_TIMEOUT, notices=[note], errors=errors)
        reason = (
            f"hookman blocked this {guarded_subject(self.event)} because {note}, so the "
            f"project's guards could not check it."
        )
        answer = deny_answer(self.event, reason)
        return self._finish(answer, OUTCOME_TIMEOUT, notices=[note], errors=errors)

    def _finish(
        self,
        answer: dict[str, object],
        outcome: Outcome,
        *,
        result: DispatchResult | None = None,
        notices: list[str] | None = None,
        errors: list[HookErrorJson] | None = None,
        exit_code: int = 0,
        reason: str | None = None,
    ) -> int:
        if self._answer_token.locked():
            return exit_code
        if self.run_async:
            answer = {}  # Claude Code does not read an async entry's answer
        elif self.agent is not None:
            answer = self._agent_answer(answer)
        # Encoded before the answer counts as given: if encoding fails, the internal-error
        # path must still be able to answer (on a guarded event, a deny).
        text = lean_json.dumps(answer, ensure_ascii=False, allow_nan=False) + "\n"
        if len(text) > ANSWER_LIMIT and self.guarded:
            plugin = self.manifest is not None and self.manifest.plugin_name is not None
            where = self.manifest.log_path if plugin and self.manifest else "`hookman log`"
            cut = _cut_to_size(answer, where)
            text = lean_json.dumps(cut, ensure_ascii=False, allow_nan=False) + "\n"
        if not self._answer_token.acquire(False):
            return exit_code
        written = self._detached or self._write_answer(text)  # the detached child's answer
        notices = (result.notices if result else []) + (notices or [])
        if not written:  # the launcher answers for us: tell it, and say why in the log
            notices.append(NO_ANSWER_NOTICE)
        self._log(
            outcome,
            hooks=result.hooks if result else [],
            errors=(result.errors if result else []) + (errors or []),
            notices=notices,
            reason=_deny_reason(result.answer) if result else reason,
        )
        if not written:
            return NO_SPACE_STATUS if self._no_space else EXIT_NO_ANSWER
        return result.exit_code if result else exit_code

    def _agent_answer(self, answer: dict[str, object]) -> dict[str, object]:
        """The answer in the protocol of the agent the entry is for (Codex CLI, Copilot,
        Qwen Code, droid: only the fields it honours, where it reads them; a deny stays a
        deny). An agent this runner does not know gets the Claude Code answer, denies
        included."""
        if self.agent != CODEX_AGENT:
            from hookman.bridge.agent_answer import agent_answer

            return agent_answer(self.agent or "", self.event, answer)
        from hookman.bridge.codex_answer import codex_answer

        fields = None if self.manifest is None else self.manifest.codex_answer_fields
        return codex_answer(self.event, answer, fields)

    def _load_agent_answer(self) -> None:
        """Import the agent's answer module and facts now: the deadline's answer, given from
        a signal handler or a thread, must not import."""
        if self.agent == CODEX_AGENT:
            import hookman.bridge.codex_answer  # noqa: F401

            return
        from hookman.bridge.agent_answer import agent_answer

        agent_answer(self.agent or "", self.event, {})  # reads the agent's facts once

    def _write_answer(self, text: str) -> bool:
        """Write the one answer; False when the answer channel is broken (a hook closed it,
        or the disk of the answer file is full: then _no_space)."""
        if self.framed:
            line = framed_line(
                text,
                self.guarded,
                channel=self.channel,
                agent=self.agent,
                launcher_pid=self.launcher_pid,
            )
            text = ANSWER_START + line + "\n"
        try:
            self.capture.write_answer(text + ANSWER_END if self.launched else text)
        except OSError as error:
            self._no_space = error.errno in _NO_SPACE_ERRNOS
            return False
        except ValueError:
            return False
        return True

    def _log(
        self,
        outcome: Outcome,
        *,
        hooks: list[str],
        errors: list[HookErrorJson],
        notices: list[str],
        reason: str | None = None,
    ) -> None:
        log_path = self.manifest.log_path if self.manifest else _fallback_log_path()
        if not log_path:
            return
        record = new_record(
            self.manifest.project_dir if self.manifest else None,
            self.payload.get("session_id"),
            self.payload.get("agent_id"),
            self.event,
            outcome,
            hooks=hooks,
            duration_ms=round((time.monotonic() - self.started) * 1000, 1),
            errors=errors,
            output=self._captured_text(),
            notices=notices,
        )
        if self.run_async:
            record["async"] = True
        if self.agent is not None:
            record["agent"] = self.agent  # the client the entry is for (absent: Claude Code)
        if reason is not None:
            record["reason"] = reason  # what a deny or block told the agent (`hookman log`)
        try:
            append_record(log_path, record)
        except OSError:
            pass  # the answer matters more than the log line

    def _captured_text(self) -> str:
        try:
            return self.capture.captured_text()
        except (OSError, ValueError):  # a hook closed the capture file
            return "(the captured output was lost: a hook closed its file)"

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
            self._write_answer("{}\n")
            return True
        # The fork hook of capture.py already moved this child off the agent's stdout.
        self._detached = True
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        return False

    def _no_manifest(self, problem: str, payload: dict[str, object]) -> int:
        self.payload = payload
        fix = "Run `hookman install` in the project to rewrite it."
        whose = "the project's"
        if _in_plugin(self.manifest_path):
            fix, whose = PLUGIN_REINSTALL, "the plugin's"
        if self.guarded:
            answer = deny_answer(
                self.event,
                f"hookman blocked this {guarded_subject(self.event)} because {problem}, so "
                f"{whose} guard hooks could not run. {fix}",
            )
        elif self._gate_unchecked:
            answer = stop_answer(
                f"hookman stopped this prompt because {problem}, so it could not check that the "
                f"guards installed here are the ones the project asks for. {fix}"
            )
        else:
            answer = {"systemMessage": f"hookman: no hook ran, because {problem}. {fix}"}
        errors: list[HookErrorJson] = [{"hook": "hookman", "event": self.event, "error": problem}]
        return self._finish(answer, OUTCOME_NO_MANIFEST, errors=errors)

    def _unsafe_state(self, problem: str) -> int:
        """No hook runs when another user could write hookman's state directory (they could
        plant the bytecode the hooks load): a deny on guarded events, the prompt stopped at
        the gate, a notice elsewhere."""
        note = f"{problem}, so another user could change what the hooks run"
        if self._gate_unchecked:
            reason = f"hookman stopped this prompt because {note}; no hook ran. {UNSAFE_STATE_FIX}"
            return self._refuse(reason, problem)
        if self.guarded:
            answer = deny_answer(
                self.event,
                f"hookman blocked this {guarded_subject(self.event)} because {note}; no guard "
                f"ran. {UNSAFE_STATE_FIX}",
            )
            outcome: Outcome = OUTCOME_FAILED_CLOSED
        else:
            answer = {"systemMessage": f"hookman: no hook ran, because {note}. {UNSAFE_STATE_FIX}"}
            outcome = OUTCOME_ERRORS
        errors: list[HookErrorJson] = [{"hook": "hookman", "event": self.event, "error": problem}]
        return self._finish(answer, outcome, errors=errors)

    def _deadline_passed(self) -> None:
        """Called from the timer while a hook still runs: answer now and exit the process.

        Returns without exiting when the answer is already being given (the dispatch ended
        just now, or the other timer came first and is exiting)."""
        if not self._answer_token.acquire(False):
            return
        running = self.tracker.current_hook if self.tracker else None
        seconds = self.deadline_seconds or 0
        hook, problem = self._deadline_problem(running, seconds)
        answer: dict[str, object]
        if self.run_async:
            answer = {}
        elif self.guarded and self._reading_payload:
            answer = deny_answer(
                self.event,
                f"hookman blocked this {guarded_subject(self.event)} because the payload on "
                f"stdin did not end within hookman's deadline of {seconds:g} s, so the "
                f"project's guards could not check it.",
            )
        elif self.guarded:
            plugin = self.manifest.plugin_name if self.manifest else None
            reason = deadline_reason(
                running, seconds, self.event, plugin, hooks_started=self.tracker is not None
            )
            answer = deny_answer(self.event, reason)
        elif running is None:
            answer = {"systemMessage": f"hookman: {problem} on {self.event}; no result was kept."}
        else:
            answer = {
                "systemMessage": f"hookman: hook {hook!r} {problem} on {self.event}; "
                f"its results were dropped."
            }
        errors: list[HookErrorJson] = [{"hook": hook, "event": self.event, "error": problem}]
        hooks = (
            [h.name for h in self.manifest.hooks_for(self.event, self.run_async)]
            if self.manifest
            else []
        )
        if self.agent is not None and not self.run_async:
            answer = self._agent_answer(answer)  # a deny the agent hears
        try:
            if not self._detached:
                self._write_answer(lean_json.dumps(answer) + "\n")
            self._log(OUTCOME_TIMEOUT, hooks=hooks, errors=errors, notices=[])
        finally:
            os._exit(0)

    def _deadline_problem(self, running: str | None, seconds: float) -> tuple[str, str]:
        """(whose, what) for the log when the deadline passed: the hook that was loading or
        running, else hookman itself (reading the payload, or outside any hook)."""
        if self._reading_payload:
            return "hookman", f"read no end of the payload within {seconds:g} s"
        if running is None:
            return "hookman", deadline_outside_hooks(seconds, self.tracker is not None)
        return running, deadline_problem(seconds)

    def _internal_error(self, error: BaseException) -> int:
        if self.deadline is not None:
            self.deadline.cancel()
        import traceback

        from hookman.runtime.js_values import error_class_name, error_message

        described = f"{error_class_name(error)}: {error_message(error)}"
        try:
            details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        except BaseException:  # an error whose message cannot be rendered
            details = described
        problem = f"hookman's runner failed ({described})"
        if self._gate_unchecked and self.manifest is not None:
            answer = stop_answer(
                f"hookman stopped this prompt because its runner failed ({described}) while it "
                "checked that the guards installed here are the ones the project asks for. "
                f"`hookman log` in {self.manifest.project_dir} shows the error; `hookman "
                "install` there writes hookman's state anew."
            )
        elif self.guarded:
            plugin = self.manifest.plugin_name if self.manifest else None
            answer = deny_answer(self.event, runner_failed_reason(self.event, described, plugin))
        else:
            plugin = self.manifest is not None and self.manifest.plugin_name is not None
            where = self.manifest.log_path if plugin and self.manifest else "`hookman log`"
            answer = {"systemMessage": f"hookman: {problem}; see {where}."}
        errors: list[HookErrorJson] = [{"hook": "hookman", "event": self.event, "error": details}]
        return self._finish(answer, OUTCOME_INTERNAL_ERROR, errors=errors)


# A built plugin's manifest is the runner's, `hookman-runner/manifest.json` under the root the
# client gives the plugin's hooks; no manifest there is a broken plugin copy, not a project.
PLUGIN_ROOT_VARIABLE = "CLAUDE_PLUGIN_ROOT"
PLUGIN_REINSTALL = (
    "Reinstall or update the plugin (`claude plugin update NAME@MARKETPLACE`; `claude plugin "
    "list` names it), or tell the plugin's author."
)


def _in_plugin(manifest_path: str | None) -> bool:
    root = os.environ.get(PLUGIN_ROOT_VARIABLE)
    if not manifest_path or not root:
        return False
    manifest = os.path.abspath(manifest_path)
    return manifest.startswith(os.path.join(os.path.abspath(root), ""))


_hard_stop_sink: object = None


def _arm_hard_stop(seconds: float | None) -> None:
    """End the process after `seconds`, even when a hook holds the GIL in one long C call
    (a runaway regex, a blocking call in an extension) so that neither the deadline's signal
    handler nor its thread can run: faulthandler's watchdog is a C thread that needs no GIL.
    The launcher then answers for the runner (a deny on guarded events)."""
    if not seconds:
        return
    import faulthandler

    global _hard_stop_sink
    try:
        # Stays open for the process's life: the watchdog writes to its file descriptor, which
        # must never come to mean another file.
        _hard_stop_sink = open(os.devnull, "w")  # noqa: SIM115
        faulthandler.dump_traceback_later(seconds, exit=True, file=_hard_stop_sink)
    except (OSError, ValueError, RuntimeError):
        pass


_TEXT_FIELDS = ("systemMessage", "reason", "stopReason")
_SPECIFIC_TEXT_FIELDS = ("permissionDecisionReason", "additionalContext")


def _cut_to_size(answer: dict[str, object], where: str) -> dict[str, object]:
    """`answer` with its texts cut to TEXT_LIMIT and a notice saying so (and `where` the
    whole answer is: `hookman log`, or a plugin's own firing log). A deny keeps only
    its decision, its reason and the message (what else it carried cannot matter once the
    tool is refused); any other answer keeps every field, updatedInput untouched (cutting
    it would change what runs)."""
    specific = answer.get("hookSpecificOutput")
    specific = dict(specific) if isinstance(specific, dict) else None
    if specific is not None and specific.get("permissionDecision") == "deny":
        kept = ("hookEventName", "permissionDecision", "permissionDecisionReason")
        specific = {key: specific[key] for key in kept if key in specific}
        cut: dict[str, object] = {key: answer[key] for key in _TEXT_FIELDS if key in answer}
    else:
        cut = dict(answer)
    if specific is not None:
        cut["hookSpecificOutput"] = specific
        _cut_texts(specific, _SPECIFIC_TEXT_FIELDS)
    _cut_texts(cut, _TEXT_FIELDS)
    notice = CUT_NOTICE.format(limit=ANSWER_LIMIT, text=TEXT_LIMIT, where=where)
    message = cut.get("systemMessage")
    cut["systemMessage"] = f"{message}\n{notice}" if isinstance(message, str) else notice
    return cut


def _cut_texts(holder: dict[str, object], keys: tuple[str, ...]) -> None:
    for key in keys:
        value = holder.get(key)
        if isinstance(value, str) and len(value) > TEXT_LIMIT:
            holder[key] = value[:TEXT_LIMIT] + " [cut by hookman]"


def _answer_file_problem(path: str) -> str | None:
    """Why the answer file cannot be trusted: it lies in a directory where another user
    could rename it and put their own in its place (the launcher would read theirs), or it
    is not the user's own regular file. None when it is sound."""
    from hookman.bridge.private_dir import shared_dir_problem

    try:
        ours = os.fstat(1)
    except OSError as error:
        return f"the answer file cannot be examined ({error.strerror})"
    if hasattr(os, "getuid") and (ours.st_uid != os.getuid() or not stat.S_ISREG(ours.st_mode)):
        return f"the answer file {path} is not the user's own regular file"
    return shared_dir_problem(os.path.dirname(os.path.abspath(path)))


def _release_answer_file(path: str) -> None:
    """Unlink the name of the answer file, only when it is our stdout (a regular file that
    nothing has written to yet); anything else is left alone and the launcher sees no
    complete answer."""
    try:
        ours = os.fstat(1)
        named = os.lstat(path)
    except OSError:
        return
    if (ours.st_dev, ours.st_ino) == (named.st_dev, named.st_ino):
        try:
            os.unlink(path)
        except OSError:
            pass


def _read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError):
        return b""


def _parse_payload(raw: bytes) -> tuple[dict[str, object] | None, str]:
    """The payload, or None and what is wrong with it (strict: what the guards check must be
    exactly what Claude Code sent, so no byte is replaced)."""
    if not raw.strip():
        return None, "it is empty"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, f"it is not valid UTF-8 at byte {error.start}"
    try:
        payload = lean_json.loads(text)
    except RecursionError:
        return None, "it is nested too deeply"
    except ValueError as error:
        return None, f"it is not JSON: {str(error)[:120]}; it starts {text[:60]!r}"
    if not isinstance(payload, dict):
        return None, f"it is a JSON {type(payload).__name__}, not an object"
    return payload, ""


def _has_lone_surrogate(raw: bytes, payload: dict[str, object]) -> bool:
    if b"\\u" not in raw and b"\\U" not in raw:  # only an escape can make one
        return False
    try:
        lean_json.dumps(payload, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _fallback_log_path() -> str | None:
    home = os.environ.get("HOOKMAN_HOME")
    return os.path.join(home, "log", "firing.jsonl") if home else None


def _private_state(manifest: Manifest) -> str | None:
    """Make and check the manifest's state directory (private_dir.py); the problem, or None
    (then the manifest holds the resolved path, which no symlink can move any more)."""
    if not manifest.state_dir:
        return None
    from hookman.bridge.private_dir import make_private_dir

    resolved, problem = make_private_dir(manifest.state_dir)
    if problem is None and resolved != manifest.state_dir:
        if manifest.log_path and os.path.dirname(manifest.log_path) == manifest.state_dir:
            manifest.log_path = os.path.join(resolved, os.path.basename(manifest.log_path))
        manifest.state_dir = resolved
    return problem


def _make_state_dir(manifest_path: str | None) -> None:
    """Make (and check) the manifest's state directory, quietly: a plugin's launcher answers
    there from the next call on (hookman/plugin/launcher-values.sh)."""
    try:
        if manifest_path:
            _private_state(read_manifest(manifest_path))
    except (ManifestError, OSError, ValueError):
        pass


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
