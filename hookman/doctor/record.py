"""A base for doctor's mutable records: what `@dataclass` would give them (value equality,
a readable repr), without it. Each `@dataclass` compiles its methods when its module is
imported, about 1 ms a class on every `hookman doctor`; these classes write their
`__init__` out and list their fields in `_fields`."""

from __future__ import annotations

from typing import Any, ClassVar


class Record:
    _fields: ClassVar[tuple[str, ...]] = ()
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as a dataclass

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        pairs = zip(self._fields, self._values(), strict=True)
        shown = ", ".join(f"{name}={value!r}" for name, value in pairs)
        return f"{self.__class__.__qualname__}({shown})"

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)
