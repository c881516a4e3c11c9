"""JavaScript value rules the dispatch decisions depend on (docs/dispatch.md, "Present and
absent results").

Python's truthiness differs from JavaScript's where it matters most: `{}` and `[]` are
falsy in Python but are present results in JavaScript. Every presence test in the runtime
goes through `is_js_truthy`; never use a bare `if result:`.
"""

from __future__ import annotations


def is_js_truthy(value: object) -> bool:
    """False only for None, False, 0, NaN and "" (JavaScript's falsy values); else True."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)):
        return not (value == 0 or value != value)  # value != value: NaN
    if isinstance(value, str):
        return value != ""
    return True


def nullish_fallback(value: object, fallback: object) -> object:
    """JavaScript `value ?? fallback`: the fallback only when `value` is None."""
    return fallback if value is None else value


def or_fallback(value: object, fallback: object) -> object:
    """JavaScript `value || fallback`: the fallback whenever `value` is JS-falsy."""
    return value if is_js_truthy(value) else fallback


def read_field(result: object, key: str) -> object:
    """JavaScript `result.key`: a dict's item or an object's attribute, None when absent.

    Handlers usually return dicts, but a JS property read never fails, so neither does this:
    a string, a number or any other object without that field reads as None.
    """
    if isinstance(result, dict):
        return result.get(key)
    return getattr(result, key, None)


def error_message(error: BaseException) -> str:
    """The text of a raised error: `str(error)`, or its class name when that is empty.

    JavaScript would give "" for an empty message; a bare `raise ValueError` or a failed
    `assert` would then leave nothing to read in a log, so the class name stands in.
    """
    try:
        text = str.__add__("", str(error))  # a plain str, whatever __str__ returned
    except BaseException:  # a message that cannot be rendered must not hide the error
        text = ""
    return text or error_class_name(error)


def error_class_name(error: BaseException) -> str:
    """The error's class name; a stand-in when even that cannot be read."""
    try:
        return str.__add__("", type(error).__name__)
    except BaseException:
        return "an exception"
