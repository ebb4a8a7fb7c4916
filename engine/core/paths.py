"""Resolve user-supplied relative paths safely inside a workspace folder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.core.environment import environment


@dataclass(frozen=True)
class SafePath:
    """Either a resolved path inside the workspace, or the reason it was refused."""

    path: Path | None
    reason: str = ""

    @classmethod
    def ok(cls, path: Path) -> SafePath:
        return cls(path=path)

    @classmethod
    def refused(cls, reason: str) -> SafePath:
        return cls(path=None, reason=reason)

    @property
    def allowed(self) -> bool:
        return self.path is not None


def resolve_inside(workspace: str | os.PathLike[str] | None, relative: object) -> SafePath:
    """Resolve `relative` under `workspace`, refusing anything that would leave it.

    Refuses non-strings, empty paths, absolute paths, `..` segments, NUL bytes and
    symlinks whose target lies outside the workspace. The file need not exist.
    """
    if workspace is None:
        return SafePath.refused("no workspace given, so no file can be read")
    if not isinstance(relative, str) or not relative.strip():
        return SafePath.refused("path is missing or not a string")
    if "\x00" in relative:
        return SafePath.refused("path contains a NUL byte")
    candidate = Path(relative)
    if candidate.is_absolute() or relative.startswith(("/", "\\")) or ":" in candidate.parts[0]:
        return SafePath.refused(f"absolute path {relative!r} is not allowed")
    if any(part == ".." for part in Path(relative.replace("\\", "/")).parts):
        return SafePath.refused(f"path {relative!r} climbs out with '..'")
    root = Path(workspace).resolve()
    try:
        resolved = (root / candidate).resolve()
    except (OSError, RuntimeError) as exc:
        return SafePath.refused(f"path {relative!r} cannot be resolved: {exc}")
    if resolved != root and root not in resolved.parents:
        return SafePath.refused(f"path {relative!r} leads outside the workspace")
    return SafePath.ok(resolved)


def state_dir() -> Path:
    """The user's folder for derived state kept outside every workspace (the index key, the
    encoder's derived model): `$SYNAPSE_STATE_DIR`, else `$XDG_STATE_HOME/synapse-review/`
    or `~/.local/state/synapse-review/`."""
    settings = environment()
    if settings.state_dir is not None:
        return settings.state_dir
    base = settings.xdg_state_home or str(Path.home() / ".local" / "state")
    return Path(base) / "synapse-review"
