"""What a check read: each workspace file's path and the hash of the bytes read, when read.

An answer is valid only for the content it was made from, so its stamp is made from
these records, not from the files as they are once the answer is done: an edit landing
while an answer is computed then shows as a change at once.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass

# The hash recorded for a file that was looked for and not there.
MISSING = "missing"
# The hash of a file read twice with different bytes: it matches no file on disk.
CHANGED_WHILE_READ = "changed-while-read"


def file_key(relative: str) -> str:
    """The one spelling of a workspace-relative path (`./a//b` and `a/b` are one file)."""
    return posixpath.normpath(relative.replace("\\", "/"))


def sha256_of(data: bytes | None) -> str:
    """The hash a read of `data` records; MISSING for a file that is not there."""
    return hashlib.sha256(data).hexdigest() if data is not None else MISSING


@dataclass(frozen=True)
class FileRead:
    """One workspace file as it was read: its path and the hash of its bytes (or MISSING)."""

    path: str
    sha256: str

    @classmethod
    def of(cls, relative: str, data: bytes | None) -> FileRead:
        return cls(file_key(relative), sha256_of(data))


class ReadLog:
    """The files one check read, in order; handed to a verifier inside its context."""

    def __init__(self) -> None:
        self._reads: list[FileRead] = []

    def record(self, relative: str, data: bytes | None) -> None:
        self._reads.append(FileRead.of(relative, data))

    def reads(self) -> tuple[FileRead, ...]:
        return tuple(self._reads)


def as_read(reads: Iterable[FileRead]) -> dict[str, str]:
    """Path -> the hash it was read with; CHANGED_WHILE_READ where two reads disagree."""
    out: dict[str, str] = {}
    for read in reads:
        seen = out.setdefault(read.path, read.sha256)
        if seen != read.sha256:
            out[read.path] = CHANGED_WHILE_READ
    return out
