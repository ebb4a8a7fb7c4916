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
        self._aliases: dict[str, str] = {}

    def register(self, name: str, entry: T) -> None:
        """Add `entry` under `name`, replacing any earlier one; a bad name is misuse."""
        if not isinstance(name, str) or not name.strip():
            raise EngineError(f"{self.kind} name must be a non-empty string, got {name!r}")
        if self.callables and not callable(entry):
            raise EngineError(f"{self.kind} {name!r} is not callable")
        self._entries[name] = entry

    def alias(self, old: str, name: str) -> None:
        """Let `old` (a former name still found in saved data) look up `name`."""
        if name not in self._entries:
            raise EngineError(f"{self.kind} {name!r} is not registered, so it cannot be aliased")
        self._aliases[old] = name

    def get(self, name: str) -> T | None:
        """The entry registered as `name` (or under a name `name` aliases), or None."""
        if not isinstance(name, str):
            return None
        return self._entries.get(self._aliases.get(name, name))

    def names(self) -> list[str]:
        """Registered names, sorted; aliases are not listed."""
        return sorted(self._entries)

    def copy(self) -> Registry[T]:
        """An independent registry with the same entries and aliases."""
        copied = Registry(self.kind, self._entries, callables=self.callables)
        copied._aliases = dict(self._aliases)
        return copied

    def __getitem__(self, name: str) -> T:
        return self._entries[self._aliases.get(name, name)]

    def __contains__(self, name: object) -> bool:
        return self.get(name) is not None  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self.names()})"
