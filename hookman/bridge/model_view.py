"""What Claude Code does with a hook's answer, and exactly what text the model then sees
(docs/claude-code-facts.md, "Exit codes and output"), for the target client of the
manifest's client facts. Used by
`hookman fire`; not on the runner's path."""

from __future__ import annotations

from hookman.bridge import lean_json
from hookman.bridge.content_text import content_text
from hookman.bridge.tool_output import content_from_response

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from hookman.bridge.client_facts import ClientFacts

STOP_EVENTS = ("Stop", "SubagentStop")
SKILL_SHELL_EVENT = "PreSkillShellCommand"
# What 2.1.332 tells the model when a hook returned updatedInput on PreSkillShellCommand.
UPDATED_INPUT_REFUSED = "the hook changed the command, which isn't supported here"


class ModelView:
    """The effect of an answer: texts the model reads, messages the user sees, and effects."""

    def __init__(self) -> None:
        self.model_texts: list[str] = []
        self.user_messages: list[str] = []
        self.effects: list[str] = []


def hook_label(event: str, payload: Mapping[str, object], client: ClientFacts) -> str:
    """`PostToolUse:Bash` on tool events, else the event name: how Claude Code names a hook."""
    tool = payload.get("tool_name")
    return f"{event}:{tool}" if event in client.tool_events and isinstance(tool, str) else event


def model_view(
    event: str,
    payload: Mapping[str, object],
    *,
    client: ClientFacts,
    stdout: str,
    exit_code: int,
    stderr: str = "",
    command: str = "hookman run",
) -> ModelView:
    view = ModelView()
    label = hook_label(event, payload, client)
    if exit_code == 2:
        _exit_two(view, event, label, stderr, command, client)
        return view
    if exit_code != 0:
        first_line = stderr.strip().splitlines()[0] if stderr.strip() else ""
        view.user_messages.append(f"{label} hook error: {first_line}".rstrip(": "))
        view.effects.append("non-blocking error: the model sees nothing, work goes on")
        return view
    try:
        answer = lean_json.loads(stdout) if stdout.strip() else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        _plain_stdout(view, event, stdout, client)
        return view
    _json_answer(view, event, label, answer, client, command)
    return view


def _exit_two(
    view: ModelView, event: str, label: str, stderr: str, command: str, client: ClientFacts
) -> None:
    if event == "PreToolUse":
        view.model_texts.append(f"{label} hook error: [{command}]: {stderr.strip()}")
        view.effects.append("the tool call is blocked; the hook's command line is shown")
    elif client.is_guarded(event):
        view.model_texts.append(client.deny_text(label, stderr.strip(), event))
        view.effects.append(f"{_blocked_thing(event)} is not run")
    elif event in client.exit2_blocking_events:
        prefix = "Stop hook feedback" if event in STOP_EVENTS else f"{label} hook"
        view.model_texts.append(f"{prefix}: {stderr.strip()}")
        view.effects.append(f"{event} is blocked")
    else:
        view.user_messages.append(stderr.strip())
        view.effects.append(f"exit 2 does not block {event}; stderr is shown to the user")


def _plain_stdout(view: ModelView, event: str, stdout: str, client: ClientFacts) -> None:
    text = stdout.strip()
    if not text:
        view.effects.append("nothing: Claude Code carries on as if no hook ran")
    elif event in client.plain_stdout_events:
        view.model_texts.append(f"{event} hook success: {text}")
    else:
        view.effects.append(f"plain stdout on {event} goes to the debug log only")


def _json_answer(
    view: ModelView,
    event: str,
    label: str,
    answer: dict[str, object],
    client: ClientFacts,
    command: str = "hookman run",
) -> None:
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    if isinstance(answer.get("systemMessage"), str):
        view.user_messages.append(answer["systemMessage"])  # type: ignore[arg-type]
    decision = specific.get("permissionDecision")
    if decision == "deny":
        reason = str(specific.get("permissionDecisionReason") or "")
        view.model_texts.append(client.deny_text(label, reason, event))
        view.effects.append(f"{_blocked_thing(event)} is denied; {_where_the_reason_goes(event)}")
    elif decision in ("allow", "ask"):
        view.effects.append(f"permission decision: {decision}")
    if "updatedInput" in specific and event in client.updated_input_blocks_events:
        if decision != "deny":
            view.model_texts.append(client.deny_text(label, UPDATED_INPUT_REFUSED, event))
        view.effects.append(
            f"Claude Code does not apply updatedInput on {event}: the command is not run"
        )
    elif "updatedInput" in specific:
        view.effects.append("the tool runs with the hook's updatedInput")
    for key in ("updatedToolOutput", "updatedMCPToolOutput"):
        if key in specific:
            text = content_text(content_from_response(specific[key]))
            view.model_texts.append(text)
            view.effects.append(f"{key}: the model sees this output instead of the tool's")
    context = specific.get("additionalContext")
    if isinstance(context, str) and context:
        view.model_texts.append(client.context_text(event, label, context))
        if client.context_starts_turn(event):
            view.effects.append("additionalContext here gives the model another turn")
    if answer.get("decision") == "block":
        reason = str(answer.get("reason") or "")
        _block(view, event, label, reason, client, command)
    if answer.get("continue") is False:
        view.effects.append(f"Claude stops: {answer.get('stopReason') or 'no reason given'}")
    if not view.model_texts and not view.effects and not view.user_messages:
        view.effects.append("nothing: Claude Code carries on as if no hook ran")


def _blocked_thing(event: str) -> str:
    return "the skill's shell command" if event == SKILL_SHELL_EVENT else "the tool call"


def _where_the_reason_goes(event: str) -> str:
    if event == SKILL_SHELL_EVENT:
        return "the model reads the reason in place of the command's output"
    return "the model reads the reason as its result"


def _block(
    view: ModelView, event: str, label: str, reason: str, client: ClientFacts, command: str
) -> None:
    measured = client.block_texts(event, reason, command)
    if event == SKILL_SHELL_EVENT:
        view.model_texts.append(client.deny_text(label, reason, event))
        view.effects.append(f"{_blocked_thing(event)} is not run")
    elif event in STOP_EVENTS and measured is not None:
        view.model_texts.extend(measured)  # from 2.1.328 one of them names the command
        view.effects.append("the model gets another turn")
    elif event in STOP_EVENTS:
        view.model_texts.append(f"Stop hook feedback: {reason}")
        view.effects.append("the model gets another turn")
    elif event == "UserPromptSubmit":
        view.user_messages.append(reason)
        view.effects.append("the prompt is blocked and erased; the model never sees it")
    elif event == "PreCompact":
        view.user_messages.append(reason)  # measured: the model never sees it
        view.effects.append("compaction is blocked")
    else:
        view.model_texts.append(f"{label} hook blocking error: {reason}")
        view.effects.append(f"{event} is blocked")
