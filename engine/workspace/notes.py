"""Note values: the stores and kinds, quotes, links, tethers, evidence and the note itself.

A note's address is `store:source:id`; `is_address_safe` says whether a name may sit in one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

PRACTICE_SOURCE = "_memory"
FEDERATED_PREFIX = "~fed~"

# Characters no id, box or citekey may contain: they would break the `store:source:id`
# address or let a name act as a path.
_UNSAFE = re.compile(r"[\s/\\:\x00-\x1f\x7f-\x9f]")


class Store(StrEnum):
    """Which store a note belongs to; the value is the address prefix."""

    CANON = "zk"
    PRACTICE = "mem"


class NoteKind(StrEnum):
    """The `type` of a note: four canon kinds, three practice kinds."""

    CLAIM = "claim"
    FINDING = "finding"
    SOURCE = "source"
    CONCEPT = "concept"
    DECISION = "decision"
    EXPERIMENT = "experiment"
    CHECKPOINT = "checkpoint"


KINDS_BY_STORE: Mapping[Store, frozenset[NoteKind]] = {
    Store.CANON: frozenset({NoteKind.CLAIM, NoteKind.FINDING, NoteKind.SOURCE, NoteKind.CONCEPT}),
    Store.PRACTICE: frozenset({NoteKind.DECISION, NoteKind.EXPERIMENT, NoteKind.CHECKPOINT}),
}


@dataclass(frozen=True)
class Quote:
    """A verbatim passage a note quotes from its source, with the page and section it sits in."""

    id: str
    body: str
    page: int | None = None
    section: str = ""


@dataclass(frozen=True)
class Link:
    """A typed edge from a note to another node, by full address.

    `label` is the target as the note wrote it (a vault's `[[Human trial]]`), so a link to a
    note not written yet can still be named; "" when the address is all there is.
    """

    target_address: str
    relation: str
    label: str = ""


@dataclass(frozen=True)
class Tether:
    """A note pinned to a workspace file: `pin` is the sha256 hex of the content, if pinned."""

    path: str
    pin: str | None = None
    anchor: str | None = None


Scalar = str | int | float | bool | None


@dataclass(frozen=True)
class DataCheck:
    """A declared aggregate over a CSV column, for the recompute verifier.

    `where` is a tuple of (column, value) pairs, a value being a scalar or a tuple of them.
    """

    file: str
    column: str
    agg: str
    value: float
    tolerance: float | None = None
    where: tuple[tuple[str, Scalar | tuple[Scalar, ...]], ...] = ()

    def payload(self) -> dict[str, Any]:
        """The wire-format dict of this check."""
        where = {key: list(val) if isinstance(val, tuple) else val for key, val in self.where}
        return {
            "file": self.file,
            "column": self.column,
            "agg": self.agg,
            "where": where,
            "value": self.value,
            "tolerance": self.tolerance,
        }


@dataclass(frozen=True)
class TreeCheck:
    """A decision tree file to walk with the given parameters, towards an optional target."""

    file: str
    params: tuple[tuple[str, Scalar], ...] = ()
    target: str | None = None

    def payload(self) -> dict[str, Any]:
        """The wire-format dict of this check."""
        return {"file": self.file, "params": dict(self.params), "target": self.target}


@dataclass(frozen=True)
class Evidence:
    """What a verifier can check a note against, beyond its quotes."""

    equation: str | None = None
    figure: str | None = None
    data: DataCheck | None = None
    tree: TreeCheck | None = None


_NO_EVIDENCE = Evidence()


@dataclass(frozen=True)
class FileStamp:
    """Size, modification time and content hash of a note file as it was read."""

    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, data: bytes, *, mtime_ns: int) -> FileStamp:
        return cls(len(data), mtime_ns, hashlib.sha256(data).hexdigest())


@dataclass(frozen=True)
class Note:
    """One canon note or practice entry, as loaded from its file."""

    address: str
    store: Store
    source: str
    id: str
    type: NoteKind | None
    title: str
    body: str
    path: str
    citekey: str | None = None
    quotes: tuple[Quote, ...] = ()
    links: tuple[Link, ...] = ()
    tether: Tether | None = None
    evidence: Evidence = _NO_EVIDENCE
    tags: tuple[str, ...] = ()
    stamp: FileStamp | None = field(default=None, compare=False, repr=False)


def note_stamp(note: Note) -> FileStamp:
    """The note's file stamp, or one built from its text for a note made in memory."""
    if note.stamp is not None:
        return note.stamp
    data = "\x00".join((note.path, note.title, note.body)).encode("utf-8")
    return FileStamp.of(data, mtime_ns=0)


def is_address_safe(name: object) -> bool:
    """True when `name` can sit in an address segment and never acts as a path."""
    return (
        isinstance(name, str)
        and bool(name)
        and name not in {".", ".."}
        and not (_UNSAFE.search(name) or ".." in name)
    )


def note_address(store: Store, source: str, note_id: str) -> str:
    return f"{store.value}:{source}:{note_id}"
