"""Which runtime (pi) events a Claude Code event becomes, as plain dicts (docs/hook-api.md,
"Under Claude Code").

Each step names how it is dispatched, which decides what its result means:
`emit` (results ignored), `tool_call`, `tool_result`, `tool_result_ignored`,
`before_agent_start`, `cancellable` (session_before_compact).
"""

from __future__ import annotations

from hookman.bridge.tool_output import content_from_response

EMIT = "emit"
TOOL_CALL = "tool_call"
TOOL_RESULT = "tool_result"
TOOL_RESULT_IGNORED = "tool_result_ignored"
BEFORE_AGENT_START = "before_agent_start"
CANCELLABLE = "cancellable"

# Where the command of a tool_call event comes from: the agent's tool call (PreToolUse), or
# the inline shell command (!`cmd`) of a skill or slash command (PreSkillShellCommand).
SOURCE_TOOL = "tool"
SOURCE_SKILL_SHELL = "skill_shell"
SKILL_SHELL_FIELDS = ("command_name", "command_source", "invoked_by")


class RuntimeStep:
    __slots__ = ("event", "kind")

    def __init__(self, kind: str, event: dict[str, object]) -> None:
        self.kind = kind
        self.event = event

    def __repr__(self) -> str:
        return f"RuntimeStep({self.kind!r}, {self.event!r})"


def runtime_steps(claude_event: str, payload: dict[str, object]) -> list[RuntimeStep]:
    """The runtime events to dispatch, in order, for one Claude Code event."""
    build = _BUILDERS.get(claude_event)
    return build(payload) if build else []


# What every tool call payload of the pinned clients holds, and each built-in tool's input
# field a guard reads (a Bash guard reads `command`). A payload without them is one the
# client never sends: on a guarded event it is denied, never handed to guards as `{}`.
TOOL_INPUT_TEXT_FIELDS = {"Bash": ("command",)}


def tool_call_payload_problem(event: str, payload: dict[str, object]) -> str | None:
    """Why `payload` cannot become the tool_call a guard checks (None: it can)."""
    name = payload.get("hook_event_name")
    if name is not None and name != event:
        return f"says it is a {_shown(name)} event, not {event}"
    tool_name = payload.get("tool_name")
    if not isinstance(tool_name, str) or not tool_name:
        return f"has no tool name (tool_name is {_shown(tool_name)})"
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return f"has no tool input object (tool_input is {_shown(tool_input)})"
    for field in TOOL_INPUT_TEXT_FIELDS.get(tool_name, ()):
        if not isinstance(tool_input.get(field), str):
            return f"has no {field!r} text in the {tool_name} tool's input"
    tool_use_id = payload.get("tool_use_id")
    if tool_use_id is not None and not isinstance(tool_use_id, str):
        return f"has a tool_use_id that is not text ({_shown(tool_use_id)})"
    return None


def _shown(value: object) -> str:
    if value is None:
        return "missing"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def tool_call_event(payload: dict[str, object]) -> dict[str, object]:
    return {
        "type": "tool_call",
        "tool_name": payload.get("tool_name"),
        "tool_call_id": payload.get("tool_use_id"),
        "input": payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {},
    }


def skill_shell_event(payload: dict[str, object]) -> dict[str, object]:
    """The tool_call for a skill's or slash command's inline shell command: which command
    (`command_name`), where it is defined (`command_source`) and who invoked it."""
    event = tool_call_event(payload)
    event["source"] = SOURCE_SKILL_SHELL
    for key in SKILL_SHELL_FIELDS:
        value = payload.get(key)
        event[key] = value if isinstance(value, str) else None
    return event


def tool_result_event(payload: dict[str, object], *, is_error: bool) -> dict[str, object]:
    event = tool_call_event(payload)
    event["type"] = "tool_result"
    if is_error:
        error = payload.get("error")
        event["content"] = content_from_response(error if error is not None else "")
        event["details"] = None
    else:
        response = payload.get("tool_response")
        event["content"] = content_from_response(response)
        event["details"] = response
    event["is_error"] = is_error
    return event


def _pre_tool_use(payload: dict[str, object]) -> list[RuntimeStep]:
    event = tool_call_event(payload)
    event["source"] = SOURCE_TOOL
    return [RuntimeStep(TOOL_CALL, event)]


def _pre_skill_shell_command(payload: dict[str, object]) -> list[RuntimeStep]:
    return [RuntimeStep(TOOL_CALL, skill_shell_event(payload))]


def _post_tool_use(payload: dict[str, object]) -> list[RuntimeStep]:
    return [RuntimeStep(TOOL_RESULT, tool_result_event(payload, is_error=False))]


def _post_tool_use_failure(payload: dict[str, object]) -> list[RuntimeStep]:
    return [RuntimeStep(TOOL_RESULT_IGNORED, tool_result_event(payload, is_error=True))]


def _user_prompt_submit(payload: dict[str, object]) -> list[RuntimeStep]:
    prompt = payload.get("prompt")
    return [
        RuntimeStep(EMIT, {"type": "agent_start"}),
        RuntimeStep(
            BEFORE_AGENT_START,
            {
                "type": "before_agent_start",
                "prompt": prompt if isinstance(prompt, str) else "",
                "images": None,
            },
        ),
    ]


def _stop(payload: dict[str, object]) -> list[RuntimeStep]:
    if payload.get("agent_id"):
        return []  # a subagent finishing, not the session's agent
    return [RuntimeStep(EMIT, {"type": "agent_end", "messages": []})]


def _session_start(payload: dict[str, object]) -> list[RuntimeStep]:
    return [RuntimeStep(EMIT, {"type": "session_start"})]


def _session_end(payload: dict[str, object]) -> list[RuntimeStep]:
    return [RuntimeStep(EMIT, {"type": "session_shutdown"})]


def _pre_compact(payload: dict[str, object]) -> list[RuntimeStep]:
    steps = []
    if payload.get("trigger") == "auto":
        steps.append(
            RuntimeStep(
                EMIT, {"type": "auto_compaction_start", "reason": "threshold", "action": "compact"}
            )
        )
    steps.append(
        RuntimeStep(
            CANCELLABLE,
            {
                "type": "session_before_compact",
                "preparation": None,
                "branch_entries": [],
                "custom_instructions": payload.get("custom_instructions"),
                "signal": None,
            },
        )
    )
    return steps


def _post_compact(payload: dict[str, object]) -> list[RuntimeStep]:
    summary = payload.get("compact_summary")
    steps = [
        RuntimeStep(
            EMIT,
            {
                "type": "session_compact",
                "compaction_entry": {"summary": summary, "trigger": payload.get("trigger")},
                "from_extension": False,
            },
        )
    ]
    if payload.get("trigger") == "auto":
        steps.append(
            RuntimeStep(
                EMIT,
                {
                    "type": "auto_compaction_end",
                    "action": "compact",
                    "result": {"summary": summary},
                    "aborted": False,
                    "will_retry": False,
                },
            )
        )
    return steps


_BUILDERS = {
    "PreToolUse": _pre_tool_use,
    "PreSkillShellCommand": _pre_skill_shell_command,
    "PostToolUse": _post_tool_use,
    "PostToolUseFailure": _post_tool_use_failure,
    "UserPromptSubmit": _user_prompt_submit,
    "Stop": _stop,
    "SessionStart": _session_start,
    "SessionEnd": _session_end,
    "PreCompact": _pre_compact,
    "PostCompact": _post_compact,
}
