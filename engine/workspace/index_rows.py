"""What the index's tables hold, read back and verified: the catalog and the ranking view.

Only rows whose seal verifies (`engine.workspace.index_seal`) reach the ranking view; the
catalog names the rows that fail, so the next update indexes their notes again.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from engine.workspace.bm25 import Bm25Params, Postings
from engine.workspace.index_seal import (
    Unsealed,
    all_within,
    index_key,
    same,
    seal_doc,
    seal_term,
    within,
)
from engine.workspace.notes import FileStamp, Note, Store

STORE_CODES = {Store.CANON: 1, Store.PRACTICE: 2}
INSERT_DOC = (
    "INSERT INTO docs (id, address, store, source, title, body, path, size, mtime_ns,"
    " sha256, bag, seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
ViewRow = tuple[str, str, str, str, bytes]  # address, title, store, source, term bag


@dataclass(frozen=True)
class RankingView:
    """The in-memory ranking view of the docs table, in address order."""

    postings: Postings
    addresses: list[str]
    titles: list[str]
    stores: np.ndarray
    sources: np.ndarray
    source_codes: dict[str, int]
    vocabulary: dict[str, int]
    # Each store's document mask, made at its first search: one per view, not per query.
    _masks: dict[int, np.ndarray | None] = field(default_factory=dict, compare=False, repr=False)

    def term_counts(self, words: Iterable[str]) -> dict[int, int]:
        """Each term id of `words` the vocabulary holds -> how many times they hold it."""
        vocabulary = self.vocabulary
        counts: dict[int, int] = {}
        for word in words:
            term_id = vocabulary.get(word)
            if term_id is not None:
                counts[term_id] = counts.get(term_id, 0) + 1
        return counts

    def store_mask(self, code: int) -> np.ndarray | None:
        """Which documents are in the store numbered `code` (read-only), None if every one is."""
        if code not in self._masks:
            mask = self.stores == code
            mask.flags.writeable = False  # shared by every search of this view
            # A mask that lets every document through would only cost each search its lookups.
            self._masks[code] = None if mask.all() else mask
        return self._masks[code]


@dataclass
class Catalog:
    """What the docs and terms tables hold, mirrored in memory between updates."""

    stamps: dict[str, tuple[int, int, int, str]]  # address -> (id, size, mtime_ns, path)
    vocabulary: dict[str, int]
    version: int
    hashes: dict[str, str]  # address -> sha256 of the note as indexed
    # `rows_digest` of the table as read; None once anything is written.
    digest: str | None = None


def read_catalog(db: sqlite3.Connection, version: int) -> Catalog:
    """Every row's stamp and hash, and the sealed vocabulary.

    The docs' seals are not checked here (the ranking view and `index --check` check them
    where rows are used): an update decides from stamps and hashes alone, so opening a large
    library reads no term bag. Raises `Unsealed` when a vocabulary row's seal fails: terms
    are shared by every row, so the whole index is rebuilt.
    """
    stamps, hashes, rows = {}, {}, []
    for address, doc_id, size, mtime_ns, path, sha in db.execute(
        "SELECT address, id, size, mtime_ns, path, sha256 FROM docs ORDER BY id"
    ):
        stamps[address] = (doc_id, size, mtime_ns, path)
        hashes[address] = sha
        rows.append((address, sha, doc_id))
    return Catalog(stamps, read_vocabulary(db), version, hashes, digest_of(rows))


def read_vocabulary(db: sqlite3.Connection) -> dict[str, int]:
    """The vocabulary, term -> id; raises `Unsealed` when a term row's seal fails."""
    key = index_key()
    vocabulary = {}
    for term, term_id, seal in db.execute("SELECT term, id, seal FROM terms"):
        if not same(seal, seal_term(key, term_id, term)):
            raise Unsealed(f"term row {term_id} is not sealed by this index")
        vocabulary[term] = term_id
    return vocabulary


def rows_digest(db: sqlite3.Connection) -> str:
    """A digest of what the docs table holds: each row's address, content hash and id."""
    return digest_of(db.execute("SELECT address, sha256, id FROM docs ORDER BY id"))


def stamps_digest(stamps: dict[str, tuple[int, int, int, str]], hashes: dict[str, str]) -> str:
    """`rows_digest` of a table holding `stamps` (address -> id, …) with `hashes`."""
    order = sorted(stamps, key=lambda address: stamps[address][0])
    return digest_of((a, hashes[a], stamps[a][0]) for a in order)


def digest_of(rows: Iterable[tuple[str, str, int]]) -> str:
    """The digest of (address, content hash, id) rows in id order (`rows_digest`)."""
    named = "\n".join(f"{address}\x1f{sha}\x1f{doc_id}" for address, sha, doc_id in rows)
    return hashlib.sha256(named.encode("utf-8", "surrogatepass")).hexdigest()


def unsealed_rows(db: sqlite3.Connection) -> list[str]:
    """The addresses of the docs rows whose seal this user's key does not verify."""
    return [row[0] for row, sealed in _checked_rows(db) if not sealed]


def _checked_rows(db: sqlite3.Connection) -> Iterator[tuple[ViewRow, bool]]:
    """Each docs row as the ranking view reads it, in address order, and whether its seal
    verifies with this user's key."""
    key = index_key()
    for address, title, store, source, sha, raw, seal in db.execute(
        "SELECT address, title, store, source, sha256, bag, seal FROM docs ORDER BY address"
    ):
        sealed = same(seal, seal_doc(key, (address, store, source, title, sha), raw))
        yield (address, title, store, source, raw), sealed


def read_view(db: sqlite3.Connection, params: Bm25Params) -> tuple[RankingView, frozenset[str]]:
    """The ranking view of the sealed rows, in address order, and the addresses of the rows
    whose seal fails; run inside a read transaction."""
    key = index_key()
    vocabulary = {
        term: term_id
        for term, term_id, seal in db.execute("SELECT term, id, seal FROM terms")
        if same(seal, seal_term(key, term_id, term))
    }
    # A row whose seal fails was not written by this index: it is left out of ranking
    # (its note is indexed again at the next update).
    rows: list[ViewRow] = []
    unsealed = []
    for row, sealed in _checked_rows(db):
        if sealed:
            rows.append(row)
        else:
            unsealed.append(row[0])
    return view_of(rows, vocabulary, params), frozenset(unsealed)


def view_of(rows: list[ViewRow], vocabulary: dict[str, int], params: Bm25Params) -> RankingView:
    """The ranking view of sealed `rows` in address order, over a sealed `vocabulary`; a
    row naming a term the vocabulary does not hold is left out."""
    n_terms = max(vocabulary.values(), default=-1) + 1
    if not all_within([row[4] for row in rows], n_terms):
        rows = [row for row in rows if within(row[4], n_terms)]
    source_codes: dict[str, int] = {}
    sources = np.fromiter(
        (source_codes.setdefault(row[3], len(source_codes)) for row in rows), np.int32, len(rows)
    )
    codes = {store.value: code for store, code in STORE_CODES.items()}
    stores = np.fromiter((codes[row[2]] for row in rows), np.int8, len(rows))
    return RankingView(
        postings=Postings.build((row[4] for row in rows), n_terms=n_terms, params=params),
        addresses=[row[0] for row in rows],
        titles=[row[1] for row in rows],
        stores=stores,
        sources=sources,
        source_codes=source_codes,
        vocabulary=vocabulary,
    )


def doc_row(note: Note, stamp: FileStamp, terms: bytes, key: bytes) -> tuple[object, ...]:
    """The docs table's columns after `id` for `note` (`INSERT_DOC`), its seal made with `key`."""
    fields = (note.address, note.store.value, note.source, note.title, stamp.sha256)
    return (
        *fields[:4],
        note.body,
        note.path,
        stamp.size,
        stamp.mtime_ns,
        stamp.sha256,
        terms,
        seal_doc(key, fields, terms),
    )
