"""Quote what the user wrote (a command, a path, a matcher) as they wrote it: in backticks,
never as a Python repr (which doubles backslashes and swaps quote characters)."""

from __future__ import annotations


def shown(text: str) -> str:
    """`text` in backticks (in double backticks when it holds one); control characters, which
    would break the line, are the only thing escaped."""
    visible = "".join(
        char if char.isprintable() or char == " " else _escaped(char) for char in text
    )
    if "`" in visible:
        return f"`` {visible} ``"
    return f"`{visible}`"


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
