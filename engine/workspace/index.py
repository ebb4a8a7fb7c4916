"""The workspace search index: SQLite store of record, BM25 ranking in numpy.

The index file, in this user's cache folder for the workspace (`engine.workspace.caches`),
holds one `docs` row per note (text, file stamp and the
note's term bag) and the vocabulary. The index is a cache, never
evidence: every row is sealed with a per-user key (`engine.workspace.index_seal`), rows whose
seal fails or whose content hash differs from the note's are rebuilt, and a row that fails
after loading is left out of ranking, so a tampered or stale index costs recall, never an
answer. Ranking sums precomputed BM25
weights of CSR postings with numpy, well under a millisecond at 50k notes (SQLite FTS5's OR
queries took ~60 ms p50 there). The postings are built from the stored bags when first
needed (about two seconds at 165k notes), so an update writes only the notes that changed,
and kept beside the index (`engine.workspace.index_view_file`), so the next process with the
same rows reads them back instead. Opening checks stamps and hashes only; the rows' seals are
checked where rows are used (building the view, `check`).
"""

from __future__ import annotations

import contextlib
import math
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import EngineError, WorkspaceError
from engine.core.heap import collections_paused
from engine.text.tokens import ranking_tokens as tokens
from engine.workspace.bm25 import Bm25Params, bag
from engine.workspace.index_check import IndexCheck, compare_rows
from engine.workspace.index_file import (
    NOTES_DIGEST,
    ROWS_DIGEST,
    cannot_write,
    connect,
    create_schema,
    is_current,
    meta_value,
    refuse_unless_corrupt,
    remove_database,
    safe_index_path,
    write_problem,
)
from engine.workspace.index_rows import (
    INSERT_DOC,
    STORE_CODES,
    Catalog,
    RankingView,
    doc_row,
    read_catalog,
    read_vocabulary,
    stamps_digest,
)
from engine.workspace.index_seal import Unsealed, index_key, seal_term
from engine.workspace.index_view_file import kept_or_built
from engine.workspace.notes import FileStamp, Note, Store
from engine.workspace.stores import FederatedBox, Workspace

# A word every note holds weighs ln((N + 1) / (N + 1)) = 0; this floor keeps a one- or
# two-note workspace's question words weighing something, far below any rare word's weight.
RARITY_FLOOR = 0.05
RELATED_TERMS = 8
# The database header's file-format bytes (write and read version): 2 for WAL, 1 for rollback.
_FORMAT_BYTES = (18, 19)
# By name: a Store is a str equal to its value, so either finds the number without an enum call.
_STORE_CODES: dict[str, int] = {store.value: code for store, code in STORE_CODES.items()}


@dataclass(frozen=True)
class Hit:
    """One search result."""

    address: str
    score: float
    title: str


@dataclass(frozen=True)
class UpdateStats:
    """What one `Index.update` did."""

    added: int
    changed: int
    removed: int
    unchanged: int
    seconds: float


class Index:
    """BM25 search over a workspace's notes, kept in step with the files by `update`."""

    def __init__(
        self, path: Path | None, connection: sqlite3.Connection, *, rebuilt: bool, notice: str = ""
    ):
        self.path = path
        self.rebuilt = rebuilt
        # Why the index lives in memory for this run (an unwritable or unsafe cache folder).
        self.notice = notice
        self._db = connection
        self._params = Bm25Params()
        self._loaded: RankingView | None = None
        self._seen_version = -1
        self._cached_catalog: Catalog | None = None
        # Rows whose seal failed when the ranking view last read them: their notes are
        # indexed again at the next update. Seals are checked where rows are used (the view,
        # `check`), not at every open: opening a large library reads stamps only.
        self._unsealed: frozenset[str] = frozenset()
        # How many notes the workspace held at the last update: rarity is measured against
        # the notes, so rows left out of ranking (unsealed) can only make words rarer.
        self._notes: int | None = None
        # One connection serves every thread of the app; the lock keeps their uses apart.
        self._lock = threading.RLock()

    @classmethod
    def open(cls, workspace_root: str | Path) -> Index:
        """Open (creating if needed) the index of the workspace at `workspace_root`.

        A database that is corrupt or from another schema version is rebuilt empty;
        `rebuilt` tells. The file lives in this user's cache folder, never in the workspace.
        When it cannot be written safely (an unwritable state folder, a cache folder that is
        or holds a link) the index is built in memory for this run instead and `notice` says
        why; nothing is written then.
        """
        try:
            path = safe_index_path(workspace_root)
        except (OSError, WorkspaceError) as exc:
            return cls.in_memory(f"index kept in memory for this run: {write_problem(exc)}")
        connection = None
        try:
            connection = connect(path)
            return cls(path, connection, rebuilt=False)._ensure_schema()
        except sqlite3.DatabaseError as exc:
            if connection is not None:
                connection.close()
            if cannot_write(exc):
                return cls.in_memory(f"index kept in memory for this run: {exc}")
            refuse_unless_corrupt(exc)
        remove_database(path)
        return cls(path, connect(path), rebuilt=True)._ensure_schema()

    @classmethod
    def in_memory(cls, notice: str) -> Index:
        """An empty index held in memory only, with the `notice` saying why."""
        connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        return cls(None, connection, rebuilt=False, notice=notice)._ensure_schema()

    @classmethod
    def reading(cls, connection: sqlite3.Connection, notes: int) -> Index:
        """An index on a private in-memory copy, for a workspace of `notes` notes.

        `engine.workspace.index_reader` makes these from a `snapshot`; nothing reaches a file.
        """
        index = cls(None, connection, rebuilt=False)
        index._notes = notes
        return index

    def snapshot(self) -> bytes:
        """Every table as one SQLite image that opens in memory (`index_reader` reads it)."""
        with self._lock:
            image = bytearray(self._db.serialize())
        if len(image) > _FORMAT_BYTES[1]:
            # A WAL file's header says so; an image opened in memory must say rollback.
            image[_FORMAT_BYTES[0] : _FORMAT_BYTES[1] + 1] = b"\x01\x01"
        return bytes(image)

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._loaded = None

    def warm(self) -> None:
        """Make the ranking view now (read back from its kept file, or built from the rows),
        so that the first search does not wait for it; a search meanwhile waits for this."""
        with self._lock:
            self._view()

    @property
    def warmed(self) -> bool:
        """Whether the ranking view is in memory, as made for the table the last look saw."""
        return self._loaded is not None

    def count(self) -> int:
        """How many notes the ranking weighs against: the workspace's, once updated."""
        with self._lock:
            rows = self._db.execute("SELECT count(*) FROM docs").fetchone()[0]
        return self._notes if self._notes is not None else rows

    def update(self, workspace: Workspace) -> UpdateStats:
        """Bring the index in line with the loaded workspace, in one transaction.

        A note whose (size, mtime_ns) is unchanged is skipped; otherwise its content hash
        decides. Notes no longer in the workspace leave the index.
        """
        started = time.perf_counter()
        # A large update reads a row per note into memory: no cycle collection on the way.
        with self._lock, collections_paused():
            try:
                counts = self._apply(workspace)
            except sqlite3.DatabaseError as exc:
                if cannot_write(exc):
                    # The file cannot be written (a read-only file in a writable folder,
                    # a full disk): this run keeps its index in memory instead.
                    self._to_memory(f"index kept in memory for this run: {exc}")
                else:
                    refuse_unless_corrupt(exc)
                    self._rebuild()
                counts = self._apply(workspace)
            except Unsealed:
                self._rebuild()
                counts = self._apply(workspace)
            if counts["added"] or counts["changed"] or counts["removed"]:
                self._loaded = None
            self._notes = len(workspace.notes)
        return UpdateStats(
            added=counts["added"],
            changed=counts["changed"],
            removed=counts["removed"],
            unchanged=counts["unchanged"],
            seconds=time.perf_counter() - started,
        )

    def search(
        self, query: str, *, k: int = 10, store: Store | str | None = None, box: str | None = None
    ) -> list[Hit]:
        """The `k` best notes for `query` by BM25, ties broken by address.

        `store` is `zk`/`mem` (or a Store); `box` is the address source segment, e.g.
        `finance`, `_memory` or `~fed~peerlab~finance` (also accepted as `peerlab:finance`).
        """
        with self._lock:
            loaded = self._view()
        terms = loaded.term_counts(tokens(query))
        if not terms or k < 1:
            return []
        allowed = None
        if store is not None:
            allowed = loaded.store_mask(_store_code(store))
        if box is not None:
            if ":" in box:
                repo, _, name = box.partition(":")
                box = FederatedBox(repo, name, path="").source
            code = loaded.source_codes.get(box)
            if code is None:
                return []
            in_box = loaded.sources == code
            allowed = in_box if allowed is None else allowed & in_box
        best, scores = loaded.postings.top(terms, k, allowed=allowed)
        addresses, titles = loaded.addresses, loaded.titles
        return [
            Hit(addresses[i], score, titles[i])
            for i, score in zip(best.tolist(), scores.tolist(), strict=True)
        ]

    def rarity(self, terms: Iterable[str]) -> dict[str, float]:
        """Inverse document frequency, ln((N + 1) / (df + 1)), of each ranking term.

        A term no note contains gets the highest weight, one every note holds `RARITY_FLOOR`;
        an empty index weighs every term 0. Only rows whose seal verifies count.
        """
        with self._lock:
            loaded = self._view()
        n = max(loaded.postings.n_docs, self._notes or 0)
        out = {}
        for term in terms:
            term_id = loaded.vocabulary.get(term, -1)
            df = loaded.postings.document_frequency(term_id)
            out[term] = max(math.log((n + 1) / (df + 1)), RARITY_FLOOR) if n else 0.0
        return out

    def related(
        self, address: str, text: str, *, k: int = 5, store: Store | str | None = None,
        box: str | None = None, terms: int = RELATED_TERMS,
    ) -> list[Hit]:  # fmt: skip
        """The `k` notes nearest to `address` by its own rarest terms, itself left out.

        The query is the `terms` words of `text` that the fewest other notes share (a word
        no other note has cannot relate it to anything), so the result is deterministic and
        about what makes the note particular rather than its common words.
        """
        with self._lock:
            loaded = self._view()
        indptr = loaded.postings.indptr
        ids = {t: loaded.vocabulary[t] for t in tokens(text) if t in loaded.vocabulary}
        df = {t: int(indptr[i + 1] - indptr[i]) for t, i in ids.items()}
        shared = sorted((n, t) for t, n in df.items() if n >= 2)
        query = " ".join(t for _, t in shared[:terms])
        hits = self.search(query, k=k + 1, store=store, box=box) if query else []
        return [hit for hit in hits if hit.address != address][:k]

    def check(self, workspace: Workspace) -> IndexCheck:
        """Compare every row with its note's current text, and index again what differs.

        The full comparison `index --check` runs: each note's term bag is rebuilt from its
        title and body and compared with the stored one, with the content hash and seal.
        """
        with self._lock:
            with self._transaction(write=False):
                terms = list(self._db.execute("SELECT term, id, seal FROM terms"))
                rows = list(
                    self._db.execute(
                        "SELECT id, address, store, source, title, sha256, bag, seal FROM docs"
                    )
                )
            found = compare_rows(rows, terms, workspace, index_key())
            if found.repairs:
                with self._transaction():
                    self._db.executemany(
                        "DELETE FROM docs WHERE address = ?", [(a,) for a in found.repairs]
                    )
                    # The table no longer matches the notes it was brought in line with.
                    self._db.execute("DELETE FROM meta WHERE key = ?", (NOTES_DIGEST,))
                self._cached_catalog = None
                self._loaded = None
        if found.repairs or found.missing:
            self.update(workspace)
        return found

    def _apply(self, workspace: Workspace) -> Counter[str]:
        counts: Counter[str] = Counter()
        notes = workspace.notes
        hashes: dict[str, str] = {}
        with self._transaction():
            if (
                not self._unsealed
                and self._meta(NOTES_DIGEST) == notes.digest
                and self._db.execute("SELECT count(*) FROM docs").fetchone()[0] == len(notes)
            ):
                # The notes are exactly those the last update left the table in line with,
                # and no row went missing or was added by hand since: nothing to write, and
                # only the vocabulary's seals to check (a large library's reopen).
                read_vocabulary(self._db)  # raises Unsealed: the index is rebuilt
                counts["unchanged"] = len(notes)
                return counts
            catalog = self._catalog()
            # Mutated below; trusted again only once the transaction has committed.
            self._cached_catalog = None
            stamps, vocabulary = catalog.stamps, catalog.vocabulary
            n_terms = len(vocabulary)
            key = index_key()  # read once: each read looks up this user's state folder
            # Stamps only: a passage note is made only when its row is written.
            for address, stamp, path in notes.stamped():
                hashes[address] = stamp.sha256
                row = stamps.get(address)
                if row is None:
                    doc_id = self._insert(notes[address], stamp, vocabulary, key=key)
                    counts["added"] += 1
                    stamps[address] = (doc_id, stamp.size, stamp.mtime_ns, path)
                    continue
                doc_id = row[0]
                # The content hash decides, never the file's time or size: a note edited
                # with its time reset, or a row written by anything but this index, is
                # indexed again.
                current = (
                    catalog.hashes.get(address) == stamp.sha256 and address not in self._unsealed
                )
                if current and (stamp.size, stamp.mtime_ns, path) == row[1:]:
                    counts["unchanged"] += 1
                    continue
                if current:
                    self._db.execute(
                        "UPDATE docs SET size = ?, mtime_ns = ?, path = ? WHERE id = ?",
                        (stamp.size, stamp.mtime_ns, path, doc_id),
                    )
                    counts["unchanged"] += 1
                else:
                    self._delete(doc_id)
                    self._insert(notes[address], stamp, vocabulary, key=key, doc_id=doc_id)
                    counts["changed"] += 1
                stamps[address] = (doc_id, stamp.size, stamp.mtime_ns, path)
            for address in sorted(stamps.keys() - hashes.keys()):
                self._delete(stamps.pop(address)[0])
                counts["removed"] += 1
            new_terms = [
                (term, term_id, seal_term(key, term_id, term))
                for term, term_id in list(vocabulary.items())[n_terms:]
            ]
            self._db.executemany("INSERT INTO terms (term, id, seal) VALUES (?, ?, ?)", new_terms)
            catalog.hashes = hashes
            if counts["added"] or counts["changed"] or counts["removed"]:
                catalog.digest = stamps_digest(stamps, hashes)
            self._db.executemany(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                [(NOTES_DIGEST, notes.digest), (ROWS_DIGEST, catalog.digest)],
            )
        self._unsealed = frozenset()
        self._cached_catalog = catalog
        return counts

    def _catalog(self) -> Catalog:
        """The docs' stamps and the vocabulary, re-read only if another process wrote since."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        cached = self._cached_catalog
        if cached is not None and cached.version == version:
            return cached
        return read_catalog(self._db, version)

    def _to_memory(self, notice: str) -> None:
        self._db.close()
        self.path = None
        self.notice = notice
        self._rebuild()

    def _rebuild(self) -> None:
        self._db.close()
        if self.path is None:
            self._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        else:
            remove_database(self.path)
            self._db = connect(self.path)
        self._loaded = None
        self._seen_version = -1
        self._cached_catalog = None
        self.rebuilt = True
        self._ensure_schema()

    def _insert(
        self,
        note: Note,
        stamp: FileStamp,
        vocabulary: dict[str, int],
        *,
        key: bytes,
        doc_id: int | None = None,
    ) -> int:
        terms = bag(note.title, note.body, vocabulary).tobytes()
        cursor = self._db.execute(INSERT_DOC, (doc_id, *doc_row(note, stamp, terms, key)))
        assert cursor.lastrowid is not None  # set by every successful INSERT
        return cursor.lastrowid

    def _delete(self, doc_id: int) -> None:
        self._db.execute("DELETE FROM docs WHERE id = ?", (doc_id,))

    def _view(self) -> RankingView:
        # data_version moves when another connection commits, so a reader follows writers.
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if self._loaded is None or version != self._seen_version:
            self._loaded = self._load(version)
            self._seen_version = version
        return self._loaded

    def _load(self, version: int) -> RankingView:
        folder = None if self.path is None else self.path.parent
        catalog = self._cached_catalog
        with self._transaction(write=False), collections_paused():
            # The table as this process's update left it, else as the last update wrote it.
            if catalog is not None and catalog.version == version:
                digest = catalog.digest
            else:
                digest = self._meta(ROWS_DIGEST)
            view, unsealed = kept_or_built(self._db, folder, self._params, digest=digest)
        self._unsealed = self._unsealed | unsealed
        return view

    @contextlib.contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _ensure_schema(self) -> Index:
        if is_current(self._db):
            return self
        with self._transaction():
            # Another process may have created the schema while this one waited to write.
            if not is_current(self._db):
                self.rebuilt = create_schema(self._db) or self.rebuilt
        return self

    def _meta(self, key: str) -> str | None:
        return meta_value(self._db, key)


def _store_code(value: Store | str) -> int:
    """The ranking view's number for the store named `value`; EngineError for no store."""
    code = _STORE_CODES.get(value)
    if code is None:
        names = ", ".join(store.value for store in Store)
        raise EngineError(f"unknown store {value!r} (one of {names})")
    return code
