"""What a guard returned, read strictly: on a guarded event a result is either nothing
(`None`) or one hookman fully understands; anything else is a deny naming the hook and what
it returned (dispatch.py). Elsewhere the same readings only feed a notice.

A result hookman cannot read is never an allow: `{"decision": "block"}` from a tool_call
handler (Claude Code's shape, not pi's), a generator (a handler written with `yield`), a
JSON string, `True`/`False`, a list: each says something the runner would otherwise drop.
Mappings that are not dicts are read through their items, so they mean what the same dict
means. Hot path: standard library only.
"""

from __future__ import annotations

from hookman.runtime.js_values import is_js_truthy

# The fields of a tool_call result (docs/hook-api.md): `block` and `reason` decide; `input`
# is ignored by pi's runner, so it may only repeat the input it was given.
TOOL_CALL_FIELDS = frozenset({"block", "reason", "input"})
_SHOWN = 80  # characters of a result shown in a deny reason

_TOOL_CALL_SHAPE = (
    'a tool_call handler returns None to allow or {"block": True, "reason": "..."} to deny'
)
_RAW_SHAPE = "a raw handler returns None or a dict of Claude Code output fields"


class ReadResult:
    """A handler result read as a mapping: its items as a plain dict, or why it is none."""

    __slots__ = ("fields", "problem")

    def __init__(self, fields: dict[object, object] | None, problem: str | None) -> None:
        self.fields = fields
        self.problem = problem


def shown(value: object) -> str:
    """`value` for a deny reason: its repr, shortened; never raises."""
    try:
        text = str.__add__("", repr(value))
    except BaseException:  # a repr that raises must not hide the deny
        text = f"a {_type_name(value)} whose repr fails"
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def read_mapping(value: object) -> ReadResult:
    """A dict or any mapping (an object with `keys()` and `[]`) as a plain dict of its items."""
    if type(value) is dict:
        return ReadResult(value, None)
    kind = _kind(value)
    if kind is not None:
        return ReadResult(None, kind)
    cls = type(value)
    if not isinstance(value, dict) and not (hasattr(cls, "keys") and hasattr(cls, "__getitem__")):
        return ReadResult(None, f"a {_type_name(value)}, not a dict")
    try:
        visible = {key: value[key] for key in list(value.keys())}  # type: ignore[attr-defined,index]
        # A dict subclass may show other items than it holds: both must be the same result.
        if isinstance(value, dict) and visible != dict(dict.items(value)):
            return ReadResult(None, f"a {_type_name(value)} whose items are not what it holds")
    except BaseException as error:  # a hostile mapping: unreadable is not an allow
        return ReadResult(
            None, f"a {_type_name(value)} whose items cannot be read ({_type_name(error)})"
        )
    return ReadResult(visible, None)


def tool_call_problem(result: object, original_input: object) -> str | None:
    """Why a tool_call handler's result is not one hookman understands (None: it is)."""
    if result is None:
        return None
    read = read_mapping(result)
    if read.fields is None:
        return f"{shown(result)} ({read.problem}; {_TOOL_CALL_SHAPE})"
    unknown = [key for key in read.fields if key not in TOOL_CALL_FIELDS]
    if unknown:
        keys = ", ".join(shown(key) for key in unknown[:3])
        hint = (
            "; that is Claude Code's own shape: return it from a handler registered under "
            '"PreToolUse", or return {"block": True, "reason": "..."} here'
            if any(key in _CLAUDE_CODE_FIELDS for key in unknown)
            else ""
        )
        return f"{shown(result)} (fields a tool_call result does not have: {keys}{hint})"
    if "input" in read.fields and not _same(read.fields["input"], original_input):
        return (
            f"{shown(result)} (a tool_call handler cannot change the input, and the tool "
            f"would run with the original one; return updatedInput from a handler registered "
            f'under "PreToolUse")'
        )
    return None


def blocks(fields: dict[object, object]) -> bool:
    """A tool_call result's `block`, by JavaScript truthiness (pi's rule)."""
    return is_js_truthy(fields.get("block"))


def raw_result(result: object) -> ReadResult:
    """A raw handler's result as a dict of output fields, or why it is not one."""
    read = read_mapping(result)
    if read.fields is None:
        json_text = isinstance(result, (str, bytes)) and result.lstrip()[:1] in ("{", b"{")
        why = f"{read.problem}: JSON text, not the object" if json_text else read.problem
        read.problem = f"{shown(result)} ({why}; {_RAW_SHAPE})"
    return read


_CLAUDE_CODE_FIELDS = frozenset(
    {
        "decision",
        "hookSpecificOutput",
        "permissionDecision",
        "permissionDecisionReason",
        "continue",
        "stopReason",
        "systemMessage",
    }
)


def _kind(value: object) -> str | None:
    """What kind of non-result `value` is, when that is the likely mistake."""
    cls_name = _type_name(value)
    if cls_name == "generator":
        return "a generator: the handler uses `yield`; use `return`"
    if cls_name == "async_generator":
        return "an async generator: the handler uses `yield`; use `return`"
    if value is True or value is False:
        return "a boolean, not a dict"
    return None


def _same(value: object, original: object) -> bool:
    try:
        return bool(value == original)
    except BaseException:  # an __eq__ that raises cannot show the input is unchanged
        return False


def _type_name(value: object) -> str:
    try:
        return str.__add__("", type(value).__name__)
    except BaseException:
        return "value"
