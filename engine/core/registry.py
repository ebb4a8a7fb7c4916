"""A small named registry: the built-ins register into it the same way a user's addition does.

A registry may also take entries from separately installed packages, the way datasette
loads plugins: a package declares an entry point in the registry's group (for verifiers
`synapse_review.verifiers`), and the registry loads them on first use.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Generic, TypeVar

from engine.core.errors import EngineError

T = TypeVar("T")
log = logging.getLogger(__name__)

# Entry-point groups an installed package can register into, by registry kind.
PLUGIN_GROUPS = {
    "verifier": "synapse_review.verifiers",
    "reasoner": "synapse_review.reasoners",
    "typer": "synapse_review.typers",
    "command": "synapse_review.commands",
}


class Registry(Generic[T]):
    """Names mapped to entries (verifiers, reasoners, typers, commands).

    Tests build their own with `Registry(kind)` or `registry.copy()` instead of patching a
    module's global one.
    """

    def __init__(
        self,
        kind: str,
        entries: dict[str, T] | None = None,
        *,
        callables: bool = True,
        plugins: str | None = None,
    ) -> None:
        self.kind = kind
        self.callables = callables
        self.plugins = plugins  # the entry-point group installed packages register into
        self._entries: dict[str, T] = dict(entries or {})
        self._aliases: dict[str, str] = {}
        self._loaded = plugins is None
        self.problems: list[str] = []  # plugins that could not be loaded, with why

    def _load_plugins(self) -> None:
        """Register every installed package's entry in `plugins`, once; never replaces a
        built-in, and a plugin that fails to load is named in `problems`, not raised."""
        if self._loaded:
            return
        self._loaded = True
        from importlib import metadata  # scanning installed packages is paid only here

        for point in metadata.entry_points(group=self.plugins or ""):
            if point.name in self._entries:
                self.problems.append(f"{point.name}: already registered; plugin ignored")
                continue
            try:
                self.register(point.name, point.load())
            except Exception as exc:  # a broken plugin must not break the app
                log.warning("%s plugin %r not loaded: %s", self.kind, point.name, exc)
                self.problems.append(f"{point.name}: {type(exc).__name__}: {exc}")

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
        """The entry registered as `name` (or under a name `name` aliases), or None.

        Installed plugins are looked for only when `name` is not a built-in, so a lookup of
        a built-in never pays for scanning the installed packages.
        """
        if not isinstance(name, str):
            return None
        found = self._entries.get(self._aliases.get(name, name))
        if found is None and not self._loaded:
            self._load_plugins()
            found = self._entries.get(self._aliases.get(name, name))
        return found

    def registered(self, name: str) -> bool:
        """Whether `name` is registered already, without looking for installed plugins."""
        return isinstance(name, str) and self._aliases.get(name, name) in self._entries

    def names(self, *, plugins: bool = True) -> list[str]:
        """Registered names, sorted; aliases are not listed. Without `plugins`, only what is
        registered already (the built-ins), with no look at the installed packages."""
        if plugins:
            self._load_plugins()
        return sorted(self._entries)

    def copy(self) -> Registry[T]:
        """An independent registry with the same entries and aliases."""
        self._load_plugins()
        copied = Registry(self.kind, self._entries, callables=self.callables)
        copied._aliases = dict(self._aliases)
        return copied

    def __getitem__(self, name: str) -> T:
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def __contains__(self, name: object) -> bool:
        return self.get(name) is not None  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        self._load_plugins()
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self.names()})"
