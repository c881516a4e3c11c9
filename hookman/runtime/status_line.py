"""The one-line rendering of hook statuses set with `ctx.ui.set_status` (docs/hook-api.md).

Keys sort by code point (a documented deviation from JavaScript's localeCompare). Texts
are sanitised as pi does: CR, LF and TAB become spaces, runs of ASCII spaces collapse,
and JavaScript `trim()` whitespace is removed at both ends. The joined line is cut to the
terminal width, counting East Asian wide characters and emoji as 2 columns, combining
marks and escape sequences as 0, and never splitting a grapheme cluster it can recognise.
"""

from __future__ import annotations

ELLIPSIS = "..."
DIM = "\x1b[2m"
NORMAL_INTENSITY = "\x1b[22m"
RESET = "\x1b[0m"
# What JavaScript's String.prototype.trim() removes (WhiteSpace and LineTerminator).
JS_TRIM_CHARACTERS = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    map(chr, range(0x2000, 0x200B))
)
_CONTROL_TO_SPACE = {ord("\r"): " ", ord("\n"): " ", ord("\t"): " "}
_ZERO_WIDTH_JOINER = "\u200d"
_ESCAPE = "\x1b"
_BELL = "\x07"


def render_status_line(statuses: dict[str, str], width: int, *, color: bool = False) -> str:
    """All statuses on one line, sorted by key, cut to `width` columns ("" when none).

    A `None` text counts as deleted. An empty text keeps its separating space. When the
    line is too wide it ends in "..." (dimmed, after a style reset, only when `color`).
    """
    texts = [
        sanitize_status_text(statuses[key]) for key in sorted(statuses) if statuses[key] is not None
    ]
    if not texts:
        return ""
    return truncate_to_width(" ".join(texts), width, color=color)


def sanitize_status_text(text: str) -> str:
    """pi's status sanitising: CR/LF/TAB to spaces, ASCII space runs collapsed, JS-trimmed."""
    spaced = str(text).translate(_CONTROL_TO_SPACE)
    collapsed = " ".join(part for part in spaced.split(" ") if part)
    return collapsed.strip(JS_TRIM_CHARACTERS)


def visible_width(text: str) -> int:
    """Terminal columns `text` occupies; escape sequences count 0."""
    return sum(width for _, width in _clusters(text))


def truncate_to_width(line: str, width: int, *, color: bool = False) -> str:
    """`line` unchanged if it fits in `width` columns, else cut with an ellipsis."""
    width = max(width, 0)
    if visible_width(line) <= width:
        return line
    room = width - len(ELLIPSIS)
    if room <= 0:
        return ELLIPSIS[:width]
    kept: list[str] = []
    used = 0
    styled = False
    for piece, piece_width in _clusters(line):
        if piece_width == 0 and piece.startswith(_ESCAPE):
            kept.append(piece)  # escape sequences before the cut are copied through
            styled = True
            continue
        if used + piece_width > room:
            break
        kept.append(piece)
        used += piece_width
    if color:
        return "".join(kept) + RESET + DIM + ELLIPSIS + NORMAL_INTENSITY
    return "".join(kept) + (RESET if styled else "") + ELLIPSIS


def _clusters(text: str) -> list[tuple[str, int]]:
    """Split `text` into (escape sequence | grapheme cluster, columns) pieces.

    Enough of Unicode's grapheme rules for a status line: combining marks, variation
    selectors and other zero-width characters attach to the preceding character, a ZWJ
    joins the next character, and regional indicators pair up into one flag.
    """
    import unicodedata

    pieces: list[tuple[str, int]] = []
    index = 0
    join_next = False
    while index < len(text):
        char = text[index]
        if char == _ESCAPE:
            end = _escape_sequence_end(text, index)
            pieces.append((text[index:end], 0))
            index = end
            join_next = False
            continue
        char_width = _char_width(char, unicodedata)
        previous = pieces[-1] if pieces and not pieces[-1][0].startswith(_ESCAPE) else None
        attaches = previous is not None and (
            join_next
            or char_width == 0
            or (_is_regional_indicator(char) and _is_lone_regional_indicator(previous[0]))
        )
        if attaches:
            cluster_text, cluster_width = previous  # type: ignore[misc]
            if _is_regional_indicator(char):
                cluster_width = 2
            pieces[-1] = (cluster_text + char, max(cluster_width, char_width))
        else:
            pieces.append((char, char_width))
        join_next = char == _ZERO_WIDTH_JOINER
        index += 1
    return pieces


def _char_width(char: str, unicodedata: object) -> int:
    category = unicodedata.category(char)  # type: ignore[attr-defined]
    if category in ("Mn", "Me", "Cf", "Cc") or 0xFE00 <= ord(char) <= 0xFE0F:
        return 0
    if unicodedata.east_asian_width(char) in ("W", "F"):  # type: ignore[attr-defined]
        return 2
    return 1


def _is_regional_indicator(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _is_lone_regional_indicator(cluster: str) -> bool:
    return len(cluster) == 1 and _is_regional_indicator(cluster)


def _escape_sequence_end(text: str, start: int) -> int:
    """Index just past the CSI (ESC [ ... final) or OSC (ESC ] ... BEL or ESC \\) at `start`."""
    if start + 1 >= len(text):
        return start + 1
    kind = text[start + 1]
    if kind == "[":
        index = start + 2
        while index < len(text) and not ("\x40" <= text[index] <= "\x7e"):
            index += 1
        return min(index + 1, len(text))
    if kind == "]":
        index = start + 2
        while index < len(text):
            if text[index] == _BELL:
                return index + 1
            if text.startswith(_ESCAPE + "\\", index):
                return index + 2
            index += 1
        return len(text)
    return start + 2  # a two-character escape such as ESC c
