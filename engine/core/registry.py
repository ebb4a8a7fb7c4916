"""A small named registry: the built-ins register into it the same way a user's addition does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from engine.core.errors import EngineError

T = TypeVar("T")


class Registry(Generic[T]):
    """Names mapped to entries (verifiers, reasoners, typers, commands).

    Tests build their own with `Registry(kind)` or `registry.copy()` instead of patching a
    module's global one.
    """

    def __init__(
        self, kind: str, entries: dict[str, T] | None = None, *, callables: bool = True
    ) -> None:
        self.kind = kind
        self.callables = callables
        self._entries: dict[str, T] = dict(entries or {})

    def register(self, name: str, entry: T) -> None:
        """Add `entry` under `name`, replacing any earlier one; a bad name is misuse."""
        if not isinstance(name, str) or not name.strip():
            raise EngineError(f"{self.kind} name must be a non-empty string, got {name!r}")
        if self.callables and not callable(entry):
            raise EngineError(f"{self.kind} {name!r} is not callable")
        self._entries[name] = entry

    def get(self, name: str) -> T | None:
        """The entry registered as `name`, or None."""
        return self._entries.get(name) if isinstance(name, str) else None

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._entries)

    def copy(self) -> Registry[T]:
        """An independent registry with the same entries."""
        return Registry(self.kind, self._entries, callables=self.callables)

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self.names()})"
