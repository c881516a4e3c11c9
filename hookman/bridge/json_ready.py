"""Hook results made fit for JSON, so Claude Code always gets a valid answer.

A handler may return anything: sets, arbitrary objects, NaN, tuple keys, lone surrogates
(a file name decoded with surrogateescape), a structure that contains itself or nests
without end. `json.dumps` raises on most of these and writes `NaN`, which is not JSON, for
the rest; either way the agent would get no answer (a guard's deny lost). Here every such
value becomes the nearest JSON value, and each replacement is described for the user.
"""

from __future__ import annotations

MAX_DEPTH = 100
MAX_NODES = 1_000_000
_MAX_SHOWN = 60  # characters of a location shown in a problem
_INFINITY = float("inf")
_MAX_INT_BITS = 1000  # beyond this str(int) may raise (the 4300-digit limit) and JS has no use


def json_ready(value: object) -> tuple[object, list[str]]:
    """`value` as plain JSON data, and what had to be replaced (empty when nothing)."""
    walk = _Walk()
    return walk.convert(value, "", 0), walk.problems


class _Walk:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.nodes = 0
        self._open: set[int] = set()  # ids of the containers on the current path

    def convert(self, value: object, where: str, depth: int) -> object:
        self.nodes += 1
        if value is None or isinstance(value, bool):
            return None if value is None else bool(value)
        if isinstance(value, str):
            return self._text(str(value), where)
        if isinstance(value, int):
            if value.bit_length() > _MAX_INT_BITS:
                return self._replace(None, where, "an integer too large for JSON")
            return int(value)
        if isinstance(value, float):
            if value != value or value in (_INFINITY, -_INFINITY):
                return self._replace(None, where, f"{value!r}, which JSON cannot hold")
            return float(value)
        if isinstance(value, (dict, list, tuple)):
            return self._container(value, where, depth)
        return self._replace(_describe(value), where, f"a {type(value).__name__} value")

    def _container(self, value: dict | list | tuple, where: str, depth: int) -> object:
        if depth >= MAX_DEPTH or self.nodes > MAX_NODES:
            return self._replace(None, where, "a value nested too deeply or too large")
        if id(value) in self._open:
            return self._replace(None, where, "a value that contains itself")
        self._open.add(id(value))
        try:
            if isinstance(value, dict):
                converted: dict[str, object] = {}
                for key, item in value.items():
                    name = key if type(key) is str else self._key(key, where)
                    converted[name] = self.convert(item, _join(where, name), depth + 1)
                return converted
            return [
                self.convert(item, f"{where}[{index}]", depth + 1)
                for index, item in enumerate(value)
            ]
        finally:
            self._open.discard(id(value))

    def _key(self, key: object, where: str) -> str:
        name = _describe(key)
        self.problems.append(f"a {type(key).__name__} key at {_shown(where)}")
        return self._text(name, where)

    def _text(self, text: str, where: str) -> str:
        if text.isascii():
            return text
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            fixed = text.encode("utf-8", "replace").decode("utf-8")
            return self._replace(fixed, where, "text that is not valid Unicode")  # type: ignore[return-value]
        return text

    def _replace(self, replacement: object, where: str, what: str) -> object:
        self.problems.append(f"{what} at {_shown(where)}")
        return replacement


def _shown(where: str) -> str:
    if not where:
        return "the top level"
    return where if len(where) <= _MAX_SHOWN else f"...{where[-_MAX_SHOWN:]}"


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _describe(value: object) -> str:
    """Text for a value JSON cannot hold (its str, else its repr, else its type)."""
    for render in (str, repr):
        try:
            text = render(value)
        except Exception:
            continue
        if isinstance(text, str):
            return text.encode("utf-8", "replace").decode("utf-8")
    return f"<{type(value).__name__}>"
