"""How the client reads a matcher (docs/claude-code-facts.md, per version) and what it matches.

A matcher made only of the exact-list characters of the target version is a list of exact,
case-sensitive names; anything else is an unanchored JavaScript regex tested with `.test()`.
JavaScript regexes are checked with Python's `re` after translating the syntax the two spell
differently; a pattern is called invalid only for errors both engines raise, so a JavaScript
feature Python lacks never becomes a false alarm.
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

from hookman.catalog.client_version import ClientVersion
from hookman.doctor.facts import exact_list_syntax, match_all_matchers

MatcherKind = Literal["all", "exact", "regex", "invalid"]

# Errors Python's re and JavaScript's RegExp (no flags) both raise.
_SHARED_ERRORS = (
    "missing )",
    "unbalanced parenthesis",
    "unterminated character set",
    "nothing to repeat",
    "multiple repeat",
    "bad character range",
    "min repeat greater than max repeat",
)
_JS_ONLY_CLASSES = ("[]", "[^]")
_NAMED_GROUP = re.compile(r"\(\?<(?![=!])")
_NAMED_BACKREF = re.compile(r"\\k<([A-Za-z_][A-Za-z0-9_]*)>")
_PERMISSION_RULE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\((.*)\)", re.DOTALL)


class Matcher(NamedTuple):  # not a dataclass: those compile methods at every start
    text: str | None
    kind: MatcherKind
    names: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    error: str | None = None

    @property
    def understood(self) -> bool:
        """False for a regex only JavaScript can read: what it matches is not known."""
        return self.kind != "regex" or self.pattern is not None

    def matches(self, value: str) -> bool:
        if self.kind == "all":
            return True
        if self.kind == "exact":
            return value in self.names
        if self.kind == "regex" and self.pattern is not None:
            return self.pattern.search(value) is not None
        return False


def read_matcher(text: str | None, version: ClientVersion | None) -> Matcher:
    if text is None or text in match_all_matchers():
        return Matcher(text, "all")
    syntax = exact_list_syntax(version)
    if re.fullmatch(_class(syntax), text):
        names = re.split(f"[{re.escape(syntax['separators'])}]", text)
        if syntax["spaces_trimmed"]:
            names = [name.strip() for name in names]
        return Matcher(text, "exact", tuple(name for name in names if name))
    pattern, error = compile_js_regex(text)
    if error is not None:
        return Matcher(text, "invalid", error=error)
    return Matcher(text, "regex", pattern=pattern)


def _class(syntax: dict[str, str]) -> str:
    chars = syntax["chars"]
    # Ranges (A-Z) stay ranges; a trailing `-` is literal in a character class.
    escaped = chars.replace("\\", "\\\\").replace("]", "\\]").replace("^", "\\^")
    return f"[{escaped}]+"


def compile_js_regex(text: str) -> tuple[re.Pattern[str] | None, str | None]:
    """(pattern, None) when usable; (None, reason) when JavaScript rejects it too; (None,
    None) when only Python cannot read it (treated as valid, matching unknown)."""
    translated = _NAMED_GROUP.sub("(?P<", text)
    translated = _NAMED_BACKREF.sub(r"(?P=\1)", translated)
    try:
        return re.compile(translated), None
    except re.error as error:
        message = str(error.msg)
        if any(js in text for js in _JS_ONLY_CLASSES):
            return None, None
        if any(message.startswith(shared) for shared in _SHARED_ERRORS):
            return None, message
        return None, None
    except (RecursionError, OverflowError):
        return None, None


def permission_rule(text: str) -> tuple[str, str] | None:
    """(tool, argument) when `text` is permission-rule syntax such as `Bash(echo *)`."""
    match = _PERMISSION_RULE.fullmatch(text.strip())
    return (match.group(1), match.group(2)) if match else None


def exact_alternative(names: list[str]) -> str:
    """The exact-list matcher for these names (every client reads `A|B` as exact names)."""
    return "|".join(dict.fromkeys(names))


# Characters a tool name can hold: built-in names and mcp__<server>__<tool> (servers may use -).
TOOL_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def never_matches_a_tool_name(pattern: re.Pattern[str]) -> bool:
    """True when the regex requires a character no tool name has (`\\.py$`, `src/`): then it
    matches no tool at all, known or not. False whenever doctor cannot prove it."""
    try:
        try:
            from re import _constants, _parser  # type: ignore[attr-defined]
        except ImportError:  # Python 3.10: the same modules under their old names
            import sre_constants as _constants
            import sre_parse as _parser

        parsed = _parser.parse(pattern.pattern, pattern.flags)
        return _impossible(list(parsed), _constants)
    except Exception:
        return False


def _impossible(items: list[tuple[Any, Any]], constants: Any) -> bool:
    """Whether a sequence of parsed items needs a character outside TOOL_NAME_CHARS."""
    for op, value in items:
        if op is constants.LITERAL and chr(value) not in TOOL_NAME_CHARS:
            return True
        if op is constants.IN and _class_outside(value, constants):
            return True
        if op in (constants.MAX_REPEAT, constants.MIN_REPEAT):
            low, _high, body = value
            if low >= 1 and _impossible(list(body), constants):
                return True
        if op is constants.SUBPATTERN:
            body = value[-1]
            if _impossible(list(body), constants):
                return True
        if op is constants.BRANCH:
            _, branches = value
            if all(_impossible(list(branch), constants) for branch in branches):
                return True
    return False


def _class_outside(members: Any, constants: Any) -> bool:
    """A character class whose every member lies outside TOOL_NAME_CHARS (`[./]`)."""
    for op, value in members:
        if op is constants.LITERAL:
            if chr(value) in TOOL_NAME_CHARS:
                return False
        elif op is constants.RANGE:
            low, high = value
            if any(low <= ord(char) <= high for char in TOOL_NAME_CHARS):
                return False
        else:
            return False  # NEGATE, CATEGORY (\w, \d ...): may admit name characters
    return True
