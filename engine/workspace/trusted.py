"""Which folders a link may open: those this user opened in the app, and those under a root.

A link (`?ws=/some/folder`) names a folder on the machine that serves the app. Opening it
reads the folder and writes `.synapse/` there, so a link alone never opens a folder: only
one this user opened in the app before (by an explicit act, typing it into the workspace
field; kept in `workspaces.json` in the user's state folder), one under a root the server
was started with, or one the server names itself (its default workspace, the bundled demo
and examples). Paths are compared resolved, so a link inside a root cannot lead out of it.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterable
from pathlib import Path

from engine.core.environment import environment
from engine.core.errors import WorkspaceError
from engine.core.paths import state_dir
from engine.workspace.atomic import write_atomic
from engine.workspace.user_files import Refused, read_regular

KNOWN_FILE = "workspaces.json"
# The list is a convenience, not an archive: the most recent folders are kept.
MAX_KNOWN = 500
MAX_KNOWN_BYTES = 1024 * 1024
_lock = threading.Lock()


def resolved(path: str | Path) -> Path:
    """The absolute, link-free form of `path` (`~` expanded); the path itself if it cannot be."""
    candidate = Path(str(path).strip() or ".").expanduser()
    try:
        return candidate.resolve()
    except (OSError, RuntimeError):
        return candidate.absolute()


def workspaces_roots() -> tuple[str, ...]:
    """The folders under which a link may open any workspace: `SYNAPSE_WORKSPACES_ROOT`,
    several joined by the path separator (the server's `--workspaces-root` sets it)."""
    return environment().workspaces_roots


def known_workspaces() -> tuple[Path, ...]:
    """The folders this user opened in the app, most recent last; () when none or unreadable."""
    try:
        data = json.loads(read_regular(state_dir() / KNOWN_FILE, limit=MAX_KNOWN_BYTES)[0])
    except (OSError, Refused, ValueError, RecursionError):
        return ()
    folders = data.get("workspaces") if isinstance(data, dict) else None
    if not isinstance(folders, list):
        return ()
    return tuple(Path(f) for f in folders if isinstance(f, str) and Path(f).is_absolute())


def remember_workspace(path: str | Path) -> None:
    """Record that this user opened the folder at `path`, so a link may open it later.

    Best effort: a state folder that cannot be written leaves links to it refused.
    """
    folder = str(resolved(path))
    with _lock:
        known = [str(f) for f in known_workspaces() if str(f) != folder]
        known = [*known, folder][-MAX_KNOWN:]
        payload = json.dumps({"workspaces": known}, indent=1, ensure_ascii=False)
        with contextlib.suppress(OSError, WorkspaceError):
            write_atomic(state_dir() / KNOWN_FILE, payload)


def link_may_open(
    path: str | Path, roots: Iterable[str | Path] = (), folders: Iterable[str | Path] = ()
) -> bool:
    """Whether a link naming `path` may open it: it is, or lies under, one of `roots`, it is
    one of `folders`, or this user opened it in the app before (`remember_workspace`).

    Reads nothing inside `path` (resolving it only follows links on the way to it).
    """
    target = resolved(path)
    for root in roots:
        base = resolved(root)
        if target == base or base in target.parents:
            return True
    if any(target == resolved(folder) for folder in folders):
        return True
    return target in known_workspaces()
