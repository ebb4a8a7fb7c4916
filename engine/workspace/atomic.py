"""Crash-safe writes under `.synapse/`: whole-file replacement, durable appends, a file lock.

A replaced file is either the old content or the new, never a mix: the new bytes go to a
temporary file in the same folder, are flushed and fsynced, then renamed over the target,
and the folder is fsynced so the rename itself survives a power cut. Appends go through
`O_APPEND` in one `write` call and are fsynced before returning.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from engine.core.errors import WorkspaceError
from engine.core.paths import resolve_inside

STALE_TEMP_SECONDS = 3600


def synapse_path(root: str | os.PathLike[str], relative: str) -> Path:
    """The resolved path of `relative` inside the workspace `root`.

    Raises WorkspaceError when it would lead outside, say through a symlinked `.synapse/`.
    """
    safe = resolve_inside(root, relative)
    if not safe.allowed:
        raise WorkspaceError(f"cannot use {relative}: {safe.reason}")
    return safe.path


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make the entries of `folder` (a new or renamed file) durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Replace `path` with `data` in one step; the folder is created if needed.

    On any failure the previous file (if there was one) is left untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    fsync_dir(target.parent)
    _sweep_leftovers(target)


def _sweep_leftovers(target: Path) -> None:
    """Remove temporary files a crashed writer of `target` left behind.

    Only files older than an hour go, so a concurrent writer's temporary file is never taken.
    """
    cutoff = time.time() - STALE_TEMP_SECONDS
    for leftover in target.parent.glob(f".{target.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()


def append_durable(path: str | os.PathLike[str], data: bytes) -> None:
    """Append `data` to `path` (created if missing) in one write, then fsync.

    Callers that share the file must hold a `file_lock`: the lock, not `O_APPEND`, is what
    keeps two writers' records whole.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    created = not target.exists()
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(target.parent)


@contextlib.contextmanager
def file_lock(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold an exclusive `flock` on the lock file `path` (created if missing) for the block.

    The lock is advisory and per open file: every cooperating writer, in any process,
    must take it through this function.
    """
    lock = Path(path)
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
