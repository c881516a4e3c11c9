"""Did-you-mean between names: a suggestion is offered only when the written name is a slip
of the known one (case, a letter or two), never between names that mean different things
(`PostCommand` is not a typo of `PostCompact`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

SHORT_NAME = 8  # up to this length one slip is a typo; longer names allow two


def edit_distance(first: str, second: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    two neighbouring letters each cost one."""
    previous2: list[int] = []
    previous = list(range(len(second) + 1))
    for i, left in enumerate(first, 1):
        current = [i] + [0] * len(second)
        for j, right in enumerate(second, 1):
            cost = 0 if left == right else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and left == second[j - 2] and first[i - 2] == right:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def is_slip(written: str, known: str) -> bool:
    """Whether `written` reads as a misspelling of `known` (case-insensitively)."""
    first, second = written.casefold(), known.casefold()
    allowed = 1 if max(len(first), len(second)) <= SHORT_NAME else 2
    return edit_distance(first, second) <= allowed


def closest(written: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name closest to `written`, slip or not (None when nothing is near)."""
    names = list(known)
    by_folded = {name.casefold(): name for name in names}
    folded = written.casefold()
    if folded in by_folded:
        return by_folded[folded]
    near = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=cutoff)
    return by_folded[near[0]] if near else None


def slip_of(written: str, known: Iterable[str]) -> str | None:
    """The known name `written` is a misspelling of, or None."""
    near = closest(written, known)
    return near if near is not None and is_slip(written, near) else None
