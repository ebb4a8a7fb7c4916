"""User files: read with a size cap, named safely, and looked at without following a link.

A reader takes a regular file only (never a FIFO that would block it), under a size cap,
and parses settings so that no content makes it raise anything but a ValueError.
An importer writes into the user's own folders (`sources/`, `.zettelkasten/<box>/`), where a
cloned repository can hold a symbolic link or a hard link to one of the user's notes. So a
file is named by its folder parts below the workspace root and reached through
`atomic.open_parent` (every folder opened with `O_NOFOLLOW`), and what stands at its name is
described (`Existing`) before anything is written there.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import WorkspaceError
from engine.workspace.atomic import AppFile, open_parent
from engine.workspace.layout import SYNAPSE_DIR

# The longest file name most file systems accept, in bytes.
MAX_NAME_BYTES = 255
# Nothing an importer writes is larger (a source text is capped at 20 MB).
MAX_OWN_BYTES = 64 * 1024 * 1024


class FileKind(StrEnum):
    """What stands at a file's name."""

    ABSENT = "absent"
    REGULAR = "regular"
    SYMLINK = "symlink"
    HARD_LINK = "hard-link"
    FOLDER = "folder"
    SPECIAL = "special"  # a FIFO, socket or device
    BLOCKED = "blocked"  # a folder on the way is a link or a file


@dataclass(frozen=True)
class Existing:
    """What stands at a file's name; `data` holds a regular file's bytes under the cap."""

    kind: FileKind
    data: bytes | None = None
    detail: str = ""
    size: int = 0

    @property
    def sha256(self) -> str | None:
        return hashlib.sha256(self.data).hexdigest() if self.data is not None else None


class Refused(Exception):
    """A file that must not be read; the message is the load-report text."""


def read_regular(path: str | Path, *, limit: int) -> tuple[bytes, int]:
    """Bytes and mtime_ns of a regular file, refusing anything larger than `limit`.

    Opened non-blocking and checked with fstat, so a FIFO or device is refused rather than
    read; the size is checked before any byte is read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise Refused("not a regular file")
        if info.st_size > limit:
            raise Refused(f"file is {info.st_size:,} bytes, over the {limit:,}-byte limit")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise Refused(f"file grew past the {limit:,}-byte limit while being read")
    return data, info.st_mtime_ns


def read_toml(data: bytes) -> dict[str, Any]:
    """The TOML document in `data`; raises ValueError naming the problem, never anything else.

    Nesting past jsonsafe.MAX_DEPTH levels is refused: the parser recurses, and so could
    any code walking the value.
    """
    try:
        value = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:
        raise ValueError(f"nested deeper than {jsonsafe.MAX_DEPTH} levels") from None
    if jsonsafe.depth_exceeds(value, jsonsafe.MAX_DEPTH):
        raise ValueError(f"nested deeper than {jsonsafe.MAX_DEPTH} levels")
    return value


def workspace_file(root: str | os.PathLike[str], relative: str) -> AppFile:
    """The file `relative` (with `/` between folders) under the workspace at `root`.

    Raises WorkspaceError for a path that is absolute, climbs with `..`, names `.synapse/`,
    holds a NUL byte, or has a part longer than a file name may be.
    """
    if "\x00" in relative:
        raise WorkspaceError(f"{relative!r} contains a NUL byte")
    parts = tuple(part for part in relative.split("/") if part not in ("", "."))
    if relative.startswith("/") or ".." in parts or not parts:
        raise WorkspaceError(f"{relative!r} is not a path inside the workspace")
    if parts[0] == SYNAPSE_DIR:
        raise WorkspaceError(f"{relative!r} is under {SYNAPSE_DIR}/, the app's own folder")
    for part in parts:
        size = len(part.encode("utf-8", errors="surrogatepass"))
        if size > MAX_NAME_BYTES:
            raise WorkspaceError(
                f"the name {part[:40]}… is {size} bytes, over the {MAX_NAME_BYTES}-byte limit"
                " of a file name"
            )
    return AppFile(Path(root).resolve(), parts)


def look(file: AppFile, *, max_bytes: int = MAX_OWN_BYTES) -> Existing:
    """What stands at `file`, reached without following a link; never raises for its kind.

    A regular file with one link is read when it holds at most `max_bytes`. Raises OSError
    only when the disk refuses (a folder that cannot be listed, say).
    """
    try:
        with open_parent(file, create=False) as folder:
            return _look_in(folder, file.name, max_bytes)
    except FileNotFoundError:
        return Existing(FileKind.ABSENT)
    except WorkspaceError as exc:
        return Existing(FileKind.BLOCKED, detail=str(exc))


def remove(file: AppFile) -> None:
    """Unlink `file` (never what a link points to); a file already gone is fine."""
    with contextlib.suppress(FileNotFoundError), open_parent(file, create=False) as folder:
        info = os.stat(file.name, dir_fd=folder, follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode):
            raise WorkspaceError(f"{file.relative} is a folder; not removed")
        os.unlink(file.name, dir_fd=folder)


def _look_in(folder: int, name: str, max_bytes: int) -> Existing:
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return Existing(FileKind.ABSENT)
    kind = _kind(info)
    if kind is not FileKind.REGULAR or info.st_size > max_bytes:
        return Existing(kind, size=info.st_size)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(name, flags, dir_fd=folder)
    except FileNotFoundError:
        return Existing(FileKind.ABSENT)
    except OSError:  # replaced by a link or a FIFO since the stat
        return Existing(FileKind.SPECIAL)
    try:
        kind = _kind(os.fstat(fd))
        if kind is not FileKind.REGULAR:
            return Existing(kind)
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, max_bytes + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                return Existing(FileKind.REGULAR, size=total)
        return Existing(FileKind.REGULAR, b"".join(chunks), size=total)
    finally:
        os.close(fd)


def _kind(info: os.stat_result) -> FileKind:
    if stat.S_ISLNK(info.st_mode):
        return FileKind.SYMLINK
    if stat.S_ISDIR(info.st_mode):
        return FileKind.FOLDER
    if not stat.S_ISREG(info.st_mode):
        return FileKind.SPECIAL
    if info.st_nlink > 1:
        return FileKind.HARD_LINK
    return FileKind.REGULAR
