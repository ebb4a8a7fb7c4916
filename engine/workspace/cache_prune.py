"""Old cache folders let go: a workspace deleted or moved leaves its cache behind.

Each workspace a user opens gets a cache folder of its own (`engine.workspace.caches`), keyed
by its path. When the workspace is deleted, or moved (its cache then seeds the one at the new
path), the old folder serves nothing, and temporary workspaces leave hundreds of megabytes
each. A cache is let go only when the workspace its origin names is no longer a folder and
the cache has not been used for a while (a workspace on a drive that is not mounted today
keeps its cache for that long); a cache that never became ready (no origin) is let go after
the same time. Only folders named like a cache, and not links, are ever removed, and removal
never follows a link inside them. Everything there is derived: a workspace opened again
rebuilds what it needs.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from engine.core.paths import state_dir
from engine.workspace.caches import CACHES_DIR, read_origin_at

# A cache unused this long, whose workspace is gone, is let go.
UNUSED_DAYS = 14.0
# When opening a workspace lets go of old caches on its own: at most once in this long.
PRUNE_EVERY_S = 24 * 3600.0
STAMP_FILE = ".pruned"
_CACHE_NAME = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class Pruned:
    """What a pruning let go and what it kept: folders and bytes."""

    removed: int
    removed_bytes: int
    kept: int
    missing_kept: int  # workspace gone, but the cache was used too recently to let go

    def to_dict(self) -> dict[str, int]:
        return {
            "removed": self.removed,
            "removed_bytes": self.removed_bytes,
            "kept": self.kept,
            "missing_kept": self.missing_kept,
        }


def prune_caches(unused_days: float = UNUSED_DAYS, *, now: float | None = None) -> Pruned:
    """Remove this user's caches of workspaces that are gone and unused for `unused_days`.

    `unused_days=0` lets go of every cache whose workspace is gone. A cache whose workspace
    is still a folder is always kept.
    """
    root = state_dir() / CACHES_DIR
    moment = time.time() if now is None else now
    removed = removed_bytes = kept = missing_kept = 0
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return Pruned(0, 0, 0, 0)
    for folder in entries:
        if not _CACHE_NAME.match(folder.name) or not _real_folder(folder):
            continue
        origin = read_origin_at(folder)
        if origin is not None and _is_folder(origin.path):
            kept += 1
            continue
        if moment - _last_used(folder) < unused_days * 86400:
            missing_kept += 1
            continue
        size = _size(folder)
        shutil.rmtree(folder, ignore_errors=True)
        if folder.exists():
            kept += 1
            continue
        removed, removed_bytes = removed + 1, removed_bytes + size
    return Pruned(removed, removed_bytes, kept, missing_kept)


def prune_now_and_then(now: float | None = None) -> Pruned | None:
    """`prune_caches()` when it has not run for a day; None when it was not due (or failed)."""
    stamp = state_dir() / CACHES_DIR / STAMP_FILE
    moment = time.time() if now is None else now
    with contextlib.suppress(OSError):
        if moment - stamp.lstat().st_mtime < PRUNE_EVERY_S:
            return None
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if stamp.is_symlink():
            return None
        stamp.touch()
        os.utime(stamp, (moment, moment))
    except OSError:
        return None
    return prune_caches(now=moment)


def _real_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink()
    except OSError:
        return False


def _is_folder(path: str) -> bool:
    try:
        return Path(path).is_dir()
    except OSError:
        return False


def _last_used(folder: Path) -> float:
    """The latest modification time of the folder or anything directly in it."""
    latest = 0.0
    with contextlib.suppress(OSError):
        latest = folder.lstat().st_mtime
        with os.scandir(folder) as found:
            for entry in found:
                with contextlib.suppress(OSError):
                    latest = max(latest, entry.stat(follow_symlinks=False).st_mtime)
    return latest


def _size(folder: Path) -> int:
    total = 0
    for base, _dirs, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(base, name)).st_size
    return total
