"""The full index check: every row against its note's current text, what differs named.

The check the command `index --check` runs. It rebuilds each note's term bag from its
title and body and compares it with the stored bag term by term (by spelling, not id), and
compares the stored content hash and the row's seal. Rows that differ are reported and
indexed again; rows without a note are removed, notes without a row are added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.workspace.bm25 import BAG_DTYPE, bag
from engine.workspace.index_seal import same, seal_doc, seal_term
from engine.workspace.notes import note_stamp
from engine.workspace.stores import Workspace


@dataclass(frozen=True)
class IndexCheck:
    """What `Index.check` found: rows compared, and which differ from their notes and how."""

    checked: int
    stale: tuple[str, ...]  # content hash differs from the note's file
    altered: tuple[str, ...]  # term bag differs from the note's text, or the seal fails
    missing: tuple[str, ...]  # notes with no row
    extra: tuple[str, ...]  # rows with no note
    bad_terms: int  # vocabulary rows whose seal fails

    @property
    def repairs(self) -> tuple[str, ...]:
        """The rows to drop and index again."""
        return tuple(sorted({*self.stale, *self.altered, *self.extra}))

    @property
    def ok(self) -> bool:
        return not (self.repairs or self.missing or self.bad_terms)

    def to_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "ok": self.ok,
            "stale": list(self.stale),
            "altered": list(self.altered),
            "missing": list(self.missing),
            "extra": list(self.extra),
            "bad_terms": self.bad_terms,
        }


def compare_rows(
    rows: Iterable[tuple[Any, ...]],
    terms: Iterable[tuple[Any, ...]],
    workspace: Workspace,
    key: bytes,
) -> IndexCheck:
    """Compare stored `rows` (id, address, store, source, title, sha256, bag, seal) with notes."""
    spelled: dict[int, str] = {}
    bad_terms = 0
    for term, term_id, seal in terms:
        if same(seal, seal_term(key, term_id, term)):
            spelled[term_id] = term
        else:
            bad_terms += 1
    stale, altered, seen, extra = [], [], set(), []
    for _, address, store, source, title, sha, raw, seal in rows:
        note = workspace.notes.get(address)
        if note is None:
            extra.append(address)
            continue
        seen.add(address)
        current = note_stamp(note).sha256
        if sha != current:
            stale.append(address)
        elif not _sealed(key, (address, store, source, title, sha), raw, seal) or _counts(
            raw, spelled
        ) != _fresh(note.title, note.body):
            altered.append(address)
    missing = sorted(set(workspace.notes) - seen)
    return IndexCheck(
        len(seen), tuple(sorted(stale)), tuple(sorted(altered)), tuple(missing),
        tuple(sorted(extra)), bad_terms,
    )  # fmt: skip


def _sealed(key: bytes, fields: tuple[str, ...], raw: bytes, seal: object) -> bool:
    return same(seal, seal_doc(key, fields, raw))


def _counts(raw: bytes, spelled: dict[int, str]) -> dict[str, tuple[int, int]] | None:
    if len(raw) % BAG_DTYPE.itemsize:
        return None
    out = {}
    for term_id, title, body in np.frombuffer(raw, BAG_DTYPE).tolist():
        term = spelled.get(term_id)
        if term is None:
            return None
        out[term] = (title, body)
    return out


def _fresh(title: str, body: str) -> dict[str, tuple[int, int]]:
    vocabulary: dict[str, int] = {}
    built = bag(title, body, vocabulary)
    names = {term_id: term for term, term_id in vocabulary.items()}
    return {names[t]: (a, b) for t, a, b in built.tolist()}
