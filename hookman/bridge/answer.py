"""Builds the one JSON answer Claude Code gets for an event.

Merge order, deterministic: the runtime's results first (in dispatch order), then the
results of handlers registered under the Claude Code event name, in hook order.
- The first deny/block wins: a later allow or block never replaces it (on a guarded event,
  e.g. PreToolUse, a `decision: "block"` is a deny). `continue: false` likewise sticks,
  with its stopReason.
- additionalContext texts are kept in the order they arose and joined with a blank line,
  after any texts queued by earlier events. Texts from `send_message` are marked, because
  they may be delivered only where additionalContext does not start a turn.
- Every other field is last-wins, field by field.
- hookman's own notices for the user are appended to `systemMessage`, one per line.
- On a guarded event, an answer too large for the launcher to pass on in time has its texts
  cut by the runner (run_command.py, ANSWER_LIMIT).
- What a handler returned is made fit for JSON first (json_ready.py): the answer is always
  valid JSON, whatever the hook returned. Then only the fields Claude Code's output schema
  accepts for the event are merged (output_schema.py, catalog data): one ill-typed field
  would make the client refuse the whole answer, a deny included. The decision fields left
  out are returned, so a guarded dispatch can fail closed on them.
"""

from __future__ import annotations

from hookman.bridge.content_text import content_text
from hookman.bridge.json_ready import json_ready
from hookman.bridge.protocol import PRE_TOOL_USE, guarded_subject

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookman.bridge.output_schema import Misfit

# Each text of the answer stays below this: Claude Code 2.1.328 shows at most 10,000
# characters of an additionalContext inline anyway (it saves longer ones to a file).
DEFAULT_BLOCK_REASON = "Tool execution was blocked by a hook"
# How every deny hookman gives when no guard decided begins (a hook failed to load or
# raised, the deadline passed, the payload is unusable): doctor's probe tells it from a
# guard's own deny.
FAIL_CLOSED_PREFIX = "hookman blocked this "
_STICKY_OR_MERGED = frozenset(
    {"decision", "reason", "continue", "stopReason", "systemMessage", "hookSpecificOutput"}
)


class AnswerBuilder:
    def __init__(self, event: str, *, guarded: bool | None = None) -> None:
        """`guarded`: a block is a `permissionDecision: "deny"` (default: PreToolUse only)."""
        self.event = event
        self.guarded = event == PRE_TOOL_USE if guarded is None else guarded
        self.block_reason: str | None = None
        self.blocked_by: str | None = None
        self.contexts: list[str] = []
        self._is_message: list[bool] = []
        self.notices: list[str] = []
        self._stop_reason: str | None = None
        self._stopped = False
        self._system_message: str | None = None
        self._top_level: dict[str, object] = {}
        self._specific: dict[str, object] = {}

    @property
    def blocked(self) -> bool:
        return self.block_reason is not None

    def block(self, reason: str, by: str) -> None:
        """Deny (guarded events) or block the event; the first call wins."""
        if self.block_reason is None:
            self.block_reason = reason or DEFAULT_BLOCK_REASON
            self.blocked_by = by

    def add_context(self, text: str, *, from_message: bool = False) -> None:
        if text:
            self.contexts.append(text)
            self._is_message.append(from_message)

    def returned_contexts(self) -> list[str]:
        """The texts hooks gave as additionalContext themselves (not through send_message)."""
        return self._contexts_where(from_message=False)

    def message_contexts(self) -> list[str]:
        """The send_message texts, in order."""
        return self._contexts_where(from_message=True)

    def _contexts_where(self, *, from_message: bool) -> list[str]:
        pairs = zip(self.contexts, self._is_message, strict=True)
        return [text for text, is_message in pairs if is_message == from_message]

    def specific_field(self, key: str) -> object:
        """A hookSpecificOutput field of the answer so far (None when absent)."""
        return self._specific.get(key)

    def notify_user(self, text: str) -> None:
        self.notices.append(text)

    def merge_raw_result(self, result: dict[str, object], by: str) -> list[Misfit]:
        """Fold in the Claude Code output fields a handler returned, those the client's
        schema accepts (output_schema.py); returns what was left out or replaced, as
        misfits (on a guarded event any of them means the hook's result was not understood;
        `decides` marks a decision field)."""
        # Imported here: most runs have no raw handler, so no event's schema is needed.
        from hookman.bridge.output_schema import Misfit, output_schema

        result, problems = json_ready(result)  # type: ignore[assignment]
        if problems:
            self.notify_user(
                f"hookman: hook {by!r} returned values JSON cannot hold ({_some(problems)}); "
                f"they were replaced."
            )
        result, misfits = output_schema().fit(_texts_made(result), self.event)
        if misfits:
            self.notify_user(
                f"hookman: hook {by!r} returned fields Claude Code would refuse "
                f"({_some([str(misfit) for misfit in misfits])}); they were left out of the answer."
            )
        self._merge_fitting(result, by)
        replaced = [Misfit("a value", problem, False) for problem in problems]
        return misfits + replaced

    def _merge_fitting(self, result: dict[str, object], by: str) -> None:
        specific = result.get("hookSpecificOutput")
        if isinstance(specific, dict):
            self._merge_specific(specific, by)
        decision = result.get("decision")
        if decision == "block":
            self.block(_text(result.get("reason")), by)
        elif decision is not None and not self.blocked:
            self._top_level["decision"] = decision
            if "reason" in result:
                self._top_level["reason"] = result["reason"]
        if result.get("continue") is False and not self._stopped:
            self._stopped = True
            self._stop_reason = _text(result.get("stopReason")) or None
        if "systemMessage" in result:
            self._system_message = _text(result["systemMessage"])
        for key, value in result.items():
            if key not in _STICKY_OR_MERGED:
                self._top_level[key] = value

    def _merge_specific(self, specific: dict[str, object], by: str) -> None:
        for key, value in specific.items():
            if key == "hookEventName":
                continue
            if key == "additionalContext":
                self.add_context(_text(value))
            elif key == "permissionDecision":
                if value == "deny":
                    self.block(_text(specific.get("permissionDecisionReason")), by)
                elif not self.blocked:
                    self._specific["permissionDecision"] = value
                    self._specific.pop("permissionDecisionReason", None)
            elif key == "permissionDecisionReason":
                if specific.get("permissionDecision") != "deny" and not self.blocked:
                    self._specific[key] = value
            else:
                self._specific[key] = value

    def to_json(self, contexts: list[str] | None = None) -> dict[str, object]:
        """The answer; `contexts` (default: this event's) become additionalContext."""
        answer: dict[str, object] = dict(self._top_level)
        specific = dict(self._specific)
        if self.block_reason is not None:
            if self.guarded:
                specific["permissionDecision"] = "deny"
                specific["permissionDecisionReason"] = self.block_reason
            else:
                answer["decision"] = "block"
                answer["reason"] = self.block_reason
        if self._stopped:
            answer["continue"] = False
            if self._stop_reason:
                answer["stopReason"] = self._stop_reason
        texts = self.contexts if contexts is None else contexts
        if texts:
            specific["additionalContext"] = "\n\n".join(texts)
        if specific:
            answer["hookSpecificOutput"] = {"hookEventName": self.event, **specific}
        messages = [self._system_message] if self._system_message else []
        messages.extend(self.notices)
        if messages:
            answer["systemMessage"] = "\n".join(messages)
        return answer


def _text(value: object) -> str:
    return value if isinstance(value, str) else content_text(value)


def _some(problems: list[str]) -> str:
    return "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")


def _texts_made(result: dict[str, object]) -> dict[str, object]:
    """The fields hookman reads as text (a content list becomes its text) made strings:
    additionalContext, systemMessage, stopReason, and the reason beside a deny or block."""
    made = dict(result)
    for key in ("systemMessage", "stopReason"):
        if key in made and made[key] is not None:
            made[key] = _text(made[key])
    if made.get("decision") == "block" and made.get("reason") is not None:
        made["reason"] = _text(made["reason"])
    specific = made.get("hookSpecificOutput")
    if isinstance(specific, dict):
        specific = dict(specific)
        if specific.get("additionalContext") is not None:
            specific["additionalContext"] = _text(specific["additionalContext"])
        if (
            specific.get("permissionDecision") == "deny"
            and specific.get("permissionDecisionReason") is not None
        ):
            specific["permissionDecisionReason"] = _text(specific["permissionDecisionReason"])
        made["hookSpecificOutput"] = specific
    return made


def fail_closed_reason(
    hook: str, problem: str, event: str = PRE_TOOL_USE, plugin: str | None = None
) -> str:
    """The deny reason when a guard could not decide (the model reads it, then the user).
    In a plugin's runner (`plugin`: its name) it names what a plugin's user can do: no
    hookman command, since they have none."""
    if plugin is not None:
        return (
            f"hookman blocked this {guarded_subject(event)} because the hook {hook!r} of the "
            f"plugin {plugin!r} {problem}, and a guard that cannot decide must not let it "
            f"through. {plugin_fix(plugin)}"
        )
    switch_off = (
        f" or switch it off in the project's hookman.toml with `hookman disable {hook}`"
        if _is_hook_name(hook)
        else ""
    )
    return (
        f"hookman blocked this {guarded_subject(event)} because the hook {hook!r} {problem}, "
        f"and a guard that cannot decide must not let it through. Fix the hook (`hookman fire "
        f"{event}` shows what happens, `hookman log` the error){switch_off}."
    )


def deadline_problem(seconds: float) -> str:
    """What a hook that ran past hookman's deadline did."""
    return f"did not finish within hookman's deadline of {seconds:g} s"


def deadline_outside_hooks(seconds: float, hooks_started: bool) -> str:
    """What happened when hookman's deadline passed while no hook was loading or running:
    before the project's hooks started loading (`hooks_started` False), or after."""
    when = (
        "while hookman was loading the project's hooks or between them, outside any one hook"
        if hooks_started
        else "before the project's hooks started loading, while hookman itself was starting "
        "(its manifest and checks, the Python site's start-up code)"
    )
    return f"hookman's deadline of {seconds:g} s passed {when}"


def deadline_reason(
    hook: str | None,
    seconds: float,
    event: str = PRE_TOOL_USE,
    plugin: str | None = None,
    *,
    hooks_started: bool = True,
) -> str:
    """The deny reason when hookman's deadline passed on a guarded event: naming the hook
    that was loading or running (`hook`), else where hookman was (no hook to name)."""
    if hook is not None:
        return fail_closed_reason(hook, deadline_problem(seconds), event, plugin)
    passed = deadline_outside_hooks(seconds, hooks_started)
    if plugin is not None:
        passed, fix = f"{passed} (the plugin {plugin!r})", plugin_fix(plugin)
    else:
        fix = (
            f"`hookman fire {event}` runs the project's hooks as this call did; `hookman log` "
            f"shows this run."
        )
    return (
        f"hookman blocked this {guarded_subject(event)} because {passed}, so the guards could "
        f"not decide and it must not go through. {fix}"
    )


def runner_failed_reason(event: str, described: str, plugin: str | None = None) -> str:
    """The deny reason when hookman's runner itself failed on a guarded event (no hook to
    name, nothing to switch off): the error, and where to read it."""
    fix = plugin_fix(plugin) if plugin is not None else "`hookman log` shows the error."
    return (
        f"hookman blocked this {guarded_subject(event)} because its runner failed "
        f"({described}), so the project's guards could not check it. {fix}"
    )


def plugin_fix(plugin: str) -> str:
    """What a plugin's user can do about a plugin whose guard cannot decide."""
    return (
        f"Update or reinstall the plugin (`claude plugin update {plugin}@MARKETPLACE`, "
        f"`claude plugin list` names its marketplace), tell the plugin's author, or turn it "
        f"off with `claude plugin disable {plugin}@MARKETPLACE`."
    )


def unusable_payload_reason(event: str, problem: str, plugin: str | None = None) -> str:
    """The deny reason for a payload no guard can check (one the client never sends)."""
    shows = (
        ""
        if plugin is not None
        else (f" `hookman fire {event} --payload FILE` shows what a payload gets.")
    )
    return (
        f"hookman blocked this {guarded_subject(event)} because the {event} payload {problem}: "
        f"Claude Code always sends one, so no guard can check this call and it must not go "
        f"through.{shows}"
    )


def _is_hook_name(text: str) -> bool:
    # Hook names are letters, digits, '_', '.', '-'; anything else is no name.
    return bool(text) and all(char.isalnum() or char in "_.-" for char in text)
