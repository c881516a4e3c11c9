"""One Claude Code event through the project's hooks: the code `hookman run` and
`hookman fire` share.

Order: the runtime events (docs/hook-api.md, "Under Claude Code"; runtime_events.py) first,
then the handlers registered under the Claude Code event name itself (they get a copy of the
raw payload plus "type" and return Claude Code output fields); answer.py merges both into
one answer.
`send_message` texts become additionalContext on this event when it is a message channel
(additionalContext that does not start a turn; after the texts queued by earlier events),
else they wait in the session's queue.

On a guarded event (the manifest's client facts; PreToolUse, PreSkillShellCommand) every
guard checks exactly the input Claude Code will run: before each tool_call handler and each
raw handler, the event's fields get back their original values (fresh copies), so a change
one makes to them in place is seen by nobody else (keys a handler adds stay: pi shares one
event object); and when a raw handler returns `updatedInput`, every guard runs once more on
that input (its block or error denies; what the second pass returns otherwise is dropped).
What the client can do comes from the manifest's client facts (client_facts.py), never from
version comparisons here.

An async run (`run_async`) serves the observe-only hooks of an `async: true` entry, whose
answer Claude Code never reads: it answers `{}`, turns any decision or context the hooks
return into a notice, and queues every send_message text for the next message channel.
"""

from __future__ import annotations

from hookman.bridge import lean_json
from hookman.bridge.answer import (
    DEFAULT_BLOCK_REASON,
    AnswerBuilder,
    fail_closed_reason,
    unusable_payload_reason,
)
from hookman.bridge.client_facts import STALE_MANIFEST_NOTICE
from hookman.bridge.content_text import message_text
from hookman.bridge.deadline import DeadlineInterrupt
from hookman.bridge.hook_set import CallTracker, describe_error, load_hook_set
from hookman.bridge.runtime_events import (
    BEFORE_AGENT_START,
    CANCELLABLE,
    TOOL_CALL,
    TOOL_RESULT,
    runtime_steps,
    tool_call_payload_problem,
)
from hookman.bridge.tool_output import ToolOutputOverride
from hookman.runtime import HookRunner, StatusRecordingUI
from hookman.runtime.js_values import is_js_truthy, read_field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.bridge.hook_set import HookSet
    from hookman.bridge.manifest_reader import Manifest
    from hookman.bridge.output_schema import Misfit
    from hookman.bridge.runtime_events import RuntimeStep
    from hookman.bridge.session_state import SessionState
    from hookman.json_shapes import HookErrorJson, Outcome

MCP_TOOL_PREFIX = "mcp__"
OUTCOME_OK: Outcome = "ok"
OUTCOME_DENIED: Outcome = "denied"
OUTCOME_BLOCKED: Outcome = "blocked"
OUTCOME_FAILED_CLOSED: Outcome = "failed-closed"
OUTCOME_ERRORS: Outcome = "errors"
ASYNC_CANNOT_DECIDE = "async hooks cannot decide; Claude Code does not wait for them"


class DispatchResult:
    """Everything one dispatch produced: the answer and what the log and `fire` show."""

    def __init__(self) -> None:
        self.answer: dict[str, object] = {}
        self.exit_code = 0
        self.hooks: list[str] = []
        self.outcome: Outcome = OUTCOME_OK
        self.errors: list[HookErrorJson] = []
        self.notices: list[str] = []
        self.queued: list[str] = []
        self.delivered_from_queue: list[str] = []
        # async runs: what the hooks' results would have answered, had Claude Code waited
        self.ignored_answer: dict[str, object] = {}


class _SessionUI(StatusRecordingUI):
    """The no-UI context, remembering set_status changes and notify texts for the session."""

    def __init__(self, tracker: CallTracker) -> None:
        super().__init__()
        self.changes: list[tuple[str, str | None]] = []
        self.user_notes: list[str] = []
        self._tracker = tracker

    def set_status(self, key: str, text: str | None) -> None:
        super().set_status(key, text)
        self.changes.append((key, self.statuses.get(key) if text is not None else None))

    def notify(self, message: str, type: str | None = None) -> None:
        super().notify(message, type)
        self.user_notes.append(f"{self._tracker.current_hook or 'hook'}: {message}")


def dispatch_event(
    manifest: Manifest,
    event: str,
    payload: dict[str, object],
    *,
    state: SessionState,
    tracker: CallTracker,
    run_async: bool = False,
) -> DispatchResult:
    """Run the blocking hooks of `event` (or with `run_async`, its async ones)."""
    return _Dispatch(manifest, event, payload, state, tracker, run_async).run()


class _Dispatch:
    def __init__(
        self,
        manifest: Manifest,
        event: str,
        payload: dict[str, object],
        state: SessionState,
        tracker: CallTracker,
        run_async: bool = False,
    ) -> None:
        self.manifest = manifest
        self.run_async = run_async
        self.event = event
        self.payload = payload
        self.state = state
        self.tracker = tracker
        # Fails closed (an async run's answer is never read, so it cannot).
        self.guarded = manifest.client.is_guarded(event) and not run_async
        self.answer = AnswerBuilder(event, guarded=manifest.client.is_guarded(event))
        self.result = DispatchResult()
        self.failed_closed = False
        self._contexts: list[str] = []
        tool_name = payload.get("tool_name")
        self.tool_name = tool_name if isinstance(tool_name, str) else None

    def run(self) -> DispatchResult:
        hooks = self.manifest.hooks_for(self.event, self.run_async)
        self.result.hooks = [hook.name for hook in hooks]
        hook_set = load_hook_set(
            hooks,
            self.manifest.project_dir,
            self.tool_name,
            self.tracker,
            self.event if self.guarded else None,
            plugin=self.manifest.plugin_name,
        )
        self._report_load_failures(hook_set)
        if self.guarded and self._payload_unusable():
            hook_set.loaded = []  # no guard can check it: nothing runs, the call is denied
        for name, lost in hook_set.lost_guards.items():
            problem = _lost_guard_problem(lost, self.manifest.plugin_name)
            self._error(name, "load", problem)
            self._fail_closed(name, problem)
        if hook_set.loaded:
            self._dispatch_to(hook_set)
        if self.run_async:
            self._set_async_answer()
        else:
            self._deliver_contexts()
            self.result.answer = self.answer.to_json(self._contexts)
            self.result.notices.extend(self.answer.notices)
        if not self.manifest.client.present:
            self.result.notices.append(STALE_MANIFEST_NOTICE)
        self.result.outcome = self._outcome()
        return self.result

    def _payload_unusable(self) -> bool:
        """A tool call payload the client never sends (no tool_input object, ...): denied."""
        if not any(step.kind == TOOL_CALL for step in runtime_steps(self.event, self.payload)):
            return False
        problem = tool_call_payload_problem(self.event, self.payload)
        if problem is None:
            return False
        self._error("hookman", self.event, f"the payload {problem}")
        self.failed_closed = not self.answer.blocked
        reason = unusable_payload_reason(self.event, problem, self.manifest.plugin_name)
        self.answer.block(reason, "hookman")
        return True

    def _report_load_failures(self, hook_set: HookSet) -> None:
        for failure in hook_set.failures:
            name = failure.hook.name
            self._error(name, "load", failure.error)
            if self.guarded and failure.hook.guards(self.event, self.tool_name):
                self._fail_closed(name, f"failed to load ({failure.error})")
            else:
                self.answer.notify_user(
                    f"hookman: hook {name!r} failed to load and did not run: {failure.error}"
                )

    def _dispatch_to(self, hook_set: HookSet) -> None:
        ui = _SessionUI(self.tracker)
        runner = HookRunner(hook_set.loaded, self.manifest.project_dir)
        runner.initialize(
            send_message_handler=self._send_message,
            append_entry_handler=self._append_entry,
            get_model=lambda: self.payload.get("model"),
            ui=ui,
            has_ui=False,
            session_id=_string_or_none(self.payload.get("session_id")),
            agent_id=_string_or_none(self.payload.get("agent_id")),
        )
        runner.on_error(
            lambda error: self._on_hook_error(
                hook_set.name_for_path(error.hook_path), error.event, error.error
            )
        )
        for step in runtime_steps(self.event, self.payload):
            if runner.has_handlers(str(step.event["type"])):
                self._run_step(runner, step)
        if runner.has_handlers(self.event):
            self._run_raw_handlers(runner, self.payload)
        if self.guarded and not self.answer.blocked:
            self._recheck_updated_input(runner)
        for note in ui.user_notes:
            self.answer.notify_user(note)
        if ui.changes:
            self._persist_statuses(ui.changes)

    def _run_step(self, runner: HookRunner, step: RuntimeStep) -> None:
        if step.kind == TOOL_CALL:
            self._tool_call(runner, step.event)
        elif step.kind == TOOL_RESULT:
            self._tool_result(runner, step.event)
        elif step.kind == BEFORE_AGENT_START:
            result = runner.emit_before_agent_start(step.event["prompt"], images=None)
            if is_js_truthy(result):
                self.answer.add_context(message_text(read_field(result, "message")))
        elif step.kind == CANCELLABLE:
            self._cancellable(runner, step.event)
        else:  # emit, tool_result_ignored: results mean nothing here
            runner.emit(step.event)

    def _tool_call(self, runner: HookRunner, event: dict[str, object]) -> None:
        calls_before = len(self.tracker.calls)
        # The input as given: fresh_copies hands each handler copies, so this object keeps it
        # (event["input"] afterwards may be one a handler changed in place and returned).
        given_input = event.get("input")
        try:
            with self.tracker.fresh_copies(TOOL_CALL, event, self.guarded):
                result = runner.emit_tool_call(event)
        except DeadlineInterrupt:
            raise
        except BaseException as error:  # KeyboardInterrupt, GeneratorExit, ...: still the hook's
            hook = self._failing_hook(calls_before)
            described = describe_error(error)
            self._error(hook, TOOL_CALL, described)
            self._fail_closed(hook, f"raised an error ({described})")
            return
        if is_js_truthy(result) and is_js_truthy(read_field(result, "block")):
            hook = self._hook_that_returned(result, calls_before)
            self._block_with(read_field(result, "reason"), hook)
        if self.guarded:
            self._check_guard_results(calls_before, given_input)

    def _block_with(self, reason: object, hook: str) -> None:
        if not is_js_truthy(reason):
            reason = f"{DEFAULT_BLOCK_REASON} ({hook})"
        self.answer.block(str(reason), hook)

    def _check_guard_results(self, calls_before: int, original_input: object) -> None:
        """Every tool_call result of this pass, read strictly: one hookman cannot read is a
        deny; a mapping that is not a dict (which the runtime does not read) blocks as the
        same dict would."""
        for call in self.tracker.calls[calls_before:]:
            if call.event != TOOL_CALL or call.error is not None or call.result is None:
                continue  # None, the common allow: nothing to read (and nothing imported)
            from hookman.bridge.guard_results import blocks, read_mapping, tool_call_problem

            problem = tool_call_problem(call.result, original_input)
            if problem is not None:
                self._error(call.hook, TOOL_CALL, f"returned {problem}")
                self._fail_closed(call.hook, f"returned {problem}")
                continue
            fields = read_mapping(call.result).fields
            if fields is not None and blocks(fields):
                self._block_with(fields.get("reason"), call.hook)

    def _tool_result(self, runner: HookRunner, event: dict[str, object]) -> None:
        calls_before = len(self.tracker.calls)
        result = runner.emit(event)
        if not is_js_truthy(result) or not isinstance(result, dict):
            return
        override = ToolOutputOverride(
            self.payload.get("tool_response"), event["content"], event["details"], result
        )
        if not override.changed:
            return
        hook = self._hook_that_returned(result, calls_before)
        if (self.tool_name or "").startswith(MCP_TOOL_PREFIX):
            # The field made for MCP tools, in every client's schema: no version question.
            replacement = override.updated_mcp_tool_output()
            self.answer.merge_raw_result(
                {"hookSpecificOutput": {"updatedMCPToolOutput": replacement}}, hook
            )
            return
        can_update = self.manifest.client.updated_tool_output
        if can_update is False:
            self.answer.notify_user(
                f"hookman: hook {hook!r} changed the output of {self.tool_name}, but Claude Code "
                f"{self.manifest.claude_version} cannot replace a tool's output "
                f"(updatedToolOutput needs a newer client), so the model saw the original output."
            )
            return
        # Unknown version (None): try, since it is the only field that can replace the output.
        self.answer.merge_raw_result(
            {"hookSpecificOutput": {"updatedToolOutput": override.updated_tool_output()}}, hook
        )
        if can_update is None:
            self.result.notices.append(
                f"hook {hook!r} changed the output of {self.tool_name}; the target Claude Code "
                f"version is unknown, so hookman cannot tell whether the client applies "
                f"updatedToolOutput (set claude_version in hookman.toml and reinstall)."
            )

    def _cancellable(self, runner: HookRunner, event: dict[str, object]) -> None:
        calls_before = len(self.tracker.calls)
        result = runner.emit(event)
        if not is_js_truthy(result):
            return
        hook = self._hook_that_returned(result, calls_before)
        if is_js_truthy(read_field(result, "cancel")):
            self.answer.block(f"Compaction was cancelled by the hook {hook!r}.", hook)
        elif read_field(result, "compaction") is not None:
            self.result.notices.append(
                f"hook {hook!r} returned a custom compaction; Claude Code cannot use one, "
                f"so it compacts as usual."
            )

    def _run_raw_handlers(self, runner: HookRunner, payload: dict[str, object]) -> None:
        raw_event = lean_json.loads(lean_json.dumps(payload))  # each dispatch gets its own copy
        raw_event["type"] = self.event
        calls_before = len(self.tracker.calls)
        with self.tracker.fresh_copies(self.event, raw_event, self.guarded):
            runner.emit(raw_event)
        for call in self.tracker.calls[calls_before:]:
            if call.event != self.event or call.error is not None or call.result is None:
                continue
            if self.guarded:
                self._guarded_raw_result(call.result, call.hook)
            elif isinstance(call.result, dict):
                self.answer.merge_raw_result(call.result, call.hook)
                self._check_updated_input(call.result, call.hook)
            else:
                self.result.notices.append(
                    f"hook {call.hook!r} returned {type(call.result).__name__} from its "
                    f"{self.event} handler; only an object of Claude Code output fields counts."
                )

    def _guarded_raw_result(self, result: object, hook: str) -> None:
        """On a guarded event a raw result is fully understood or it denies: not a dict,
        a value JSON cannot hold, a field the client's schema refuses or does not know."""
        from hookman.bridge.guard_results import raw_result

        read = raw_result(result)
        if read.fields is None:
            problem = f"returned {read.problem}"
            self._error(hook, self.event, problem)
            self._fail_closed(hook, problem)
            return
        fields: dict[str, object] = read.fields  # type: ignore[assignment]
        misfits = self.answer.merge_raw_result(fields, hook)
        if misfits:
            problem = _unreadable_decision(misfits)
            self._error(hook, self.event, problem)
            self._fail_closed(hook, problem)
        self._check_updated_input(fields, hook)

    def _check_updated_input(self, result: dict[str, object], hook: str) -> None:
        specific = result.get("hookSpecificOutput")
        if not isinstance(specific, dict) or "updatedInput" not in specific:
            return
        if self.event in self.manifest.client.updated_input_blocks_events:
            self.answer.notify_user(
                f"hookman: hook {hook!r} returned updatedInput on {self.event}; Claude Code "
                f"does not apply it there and does not run the command at all."
            )

    def _recheck_updated_input(self, runner: HookRunner) -> None:
        """A raw handler's `updatedInput` is what will run: every guard checks it too.

        The second pass answers into a builder of its own, so only its block (or a guard
        failing) counts; its texts, and any further updatedInput, are dropped: the input
        hookman sends is the one the guards saw."""
        updated = self.answer.specific_field("updatedInput")
        if not isinstance(updated, dict) or updated == self.payload.get("tool_input"):
            return
        payload = {**self.payload, "tool_input": updated}
        first_pass = self.answer
        self.answer = AnswerBuilder(self.event, guarded=True)
        try:
            for step in runtime_steps(self.event, payload):
                if step.kind == TOOL_CALL and runner.has_handlers(TOOL_CALL):
                    self._tool_call(runner, step.event)
            if runner.has_handlers(self.event):
                self._run_raw_handlers(runner, payload)
            second_pass = self.answer
        finally:
            self.answer = first_pass
        if second_pass.blocked:
            reason = (
                f"{second_pass.block_reason} (checked on the input a hook's updatedInput gives)"
            )
            self.answer.block(reason, second_pass.blocked_by or "unknown")

    def _on_hook_error(self, hook: str, event: str, error: str) -> None:
        self._error(hook, event, error)
        if self.guarded and event == self.event:
            self._fail_closed(hook, f"raised an error ({error})")
        else:
            self.answer.notify_user(f"hookman: hook {hook!r} failed on {event}: {error}")

    def _send_message(self, message: object, *args: object, **options: object) -> None:
        self.answer.add_context(message_text(message), from_message=True)

    def _append_entry(self, custom_type: object, data: object = None) -> None:
        self.state.append_entry(custom_type, data, self.event)

    def _persist_statuses(self, changes: list[tuple[str, str | None]]) -> None:
        statuses = self.state.read_statuses()
        for key, text in changes:
            if text is None:
                statuses.pop(key, None)
            else:
                statuses[key] = text
        self.state.write_statuses(statuses)

    def _deliver_contexts(self) -> None:
        client = self.manifest.client
        if client.delivers_messages(self.event):
            queued = self.state.drain_messages()
            self.result.delivered_from_queue = queued
            self._contexts = queued + self.answer.contexts
            return
        if client.context_starts_turn(self.event):
            # A hook that returns additionalContext here asks for another turn; a send_message
            # text does not, so it waits for the next message channel.
            self._contexts = self.answer.returned_contexts()
            waiting = self.answer.message_contexts()
        else:
            self._contexts = []
            waiting = list(self.answer.contexts)
        self.state.enqueue_messages(waiting, self.event)
        self.result.queued = waiting

    def _set_async_answer(self) -> None:
        """Answer `{}`; send_message texts wait for the next message channel, and whatever
        the hooks decided or returned as context is only reported."""
        self.result.notices.extend(self.answer.notices)
        waiting = self.answer.message_contexts()
        self.state.enqueue_messages(waiting, self.event)
        self.result.queued = waiting
        ignored = self.answer.to_json(self.answer.returned_contexts())
        ignored.pop("systemMessage", None)  # the user notes, already in the notices
        self.result.ignored_answer = ignored
        if ignored:
            by = f" (hook {self.answer.blocked_by!r})" if self.answer.blocked_by else ""
            shown = lean_json.dumps(ignored, ensure_ascii=False, default=str)
            self.result.notices.append(f"{ASYNC_CANNOT_DECIDE}; ignored{by}: {shown}")
        self.result.answer = {}

    def _fail_closed(self, hook: str, problem: str) -> None:
        if not self.answer.blocked:
            self.failed_closed = True
        plugin = self.manifest.plugin_name
        self.answer.block(fail_closed_reason(hook, problem, self.event, plugin), hook)

    def _error(self, hook: str, event: str, error: str) -> None:
        self.result.errors.append({"hook": hook, "event": event, "error": error})

    def _failing_hook(self, calls_before: int) -> str:
        for call in reversed(self.tracker.calls[calls_before:]):
            if call.error is not None:
                return call.hook
        return self.tracker.current_hook or "unknown"

    def _hook_that_returned(self, result: object, calls_before: int) -> str:
        for call in reversed(self.tracker.calls[calls_before:]):
            if call.result is result:
                return call.hook
        return self.tracker.current_hook or "unknown"

    def _outcome(self) -> Outcome:
        if self.answer.blocked and not self.run_async:
            if self.failed_closed:
                return OUTCOME_FAILED_CLOSED
            return OUTCOME_DENIED if self.guarded else OUTCOME_BLOCKED
        return OUTCOME_ERRORS if self.result.errors else OUTCOME_OK


def _lost_guard_problem(lost: list[str], plugin: str | None = None) -> str:
    handlers = " or ".join(repr(subscription) for subscription in lost)
    if plugin is not None:
        return f"was built into the plugin as a guard but registers no {handlers} handler now"
    return (
        f"was installed as a guard but registers no {handlers} handler now (it changed since "
        f"`hookman install`, or registers it only under a condition; run `hookman install` "
        f"after changing a hook)"
    )


def _unreadable_decision(misfits: list[Misfit]) -> str:
    fields = "; ".join(str(misfit) for misfit in misfits[:3]) + (
        "; ..." if len(misfits) > 3 else ""
    )
    if any(misfit.decides for misfit in misfits):
        return f"returned a decision Claude Code cannot read ({fields})"
    return f"returned fields hookman cannot pass on to Claude Code ({fields})"


def _string_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
