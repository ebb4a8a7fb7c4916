"""Meaning for retrieval and relevance: the encoder with the workspace's sealed sentence vectors.

`Semantic` answers two questions, and only proposes with either: which notes are nearest a
question in meaning (dense retrieval, fused with BM25 by rank in `engine.navigation`), and
how close a note's best sentence comes to it (the relevance gate). A note is as near as
its nearest sentence. Question vectors are computed live and kept for the last few
questions; a sentence without a stored vector (text a verifier confirmed from a file, say)
is encoded on demand. Deterministic: the same question over the same files gives the same
scores, and ties go to the address.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.models.encoder import Encoder, EncoderChoice, lexical_notice
from engine.workspace.embeddings import (
    SentenceVectors,
    VectorStats,
    normal,
    note_sentences,
    refresh,
)
from engine.workspace.notes import Note
from engine.workspace.passage_notes import PASSAGE_BOX

QUESTIONS_KEPT = 64
SCANS_KEPT = 8
ON_DEMAND_KEPT = 4096
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@dataclass(frozen=True)
class Near:
    """One note found by meaning: its address and the cosine of its nearest sentence."""

    address: str
    score: float


class Semantic:
    """The workspace's sentence vectors and the encoder that made them (thread-safe reads)."""

    def __init__(self, encoder: Encoder, vectors: SentenceVectors, notes: Iterable[Note]) -> None:
        self.encoder = encoder
        self.vectors = vectors
        addresses: list[str] = []
        stores: list[str] = []
        sources: list[str | None] = []
        owners: list[int] = []
        rows: list[int] = []
        for note in sorted(notes, key=lambda n: n.address):
            found = [r for t in note_sentences(note) if (r := vectors.row(t)) is not None]
            if not found:
                continue
            owners += [len(addresses)] * len(found)
            rows += found
            addresses.append(note.address)
            stores.append(note.store.value)
            sources.append(note.source)
        self.addresses = tuple(addresses)
        self._stores = np.array(stores, dtype=object)
        self._sources = np.array(sources, dtype=object)
        owner = np.asarray(owners, dtype=np.int64)
        # Each note's sentences are one run of rows: where each run starts.
        self._starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]) if rows else owner
        # Each note sentence's record, in note order. A scan reads the int8 records
        # themselves: a float32 matrix of them would be four times their size (80 MB on the
        # 5k-abstract demo) for the same scores.
        self._rows = np.asarray(rows, dtype=np.int64)
        self._lock = threading.Lock()
        self._questions: OrderedDict[str, np.ndarray] = OrderedDict()
        self._on_demand: OrderedDict[str, np.ndarray] = OrderedDict()
        self._scans: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._boxes: dict[tuple[str | None, str | None], np.ndarray] = {}

    def question(self, text: str) -> np.ndarray:
        """The unit vector of a question, computed once for the last few questions."""
        with self._lock:
            found = self._questions.get(text)
            if found is not None:
                self._questions.move_to_end(text)
                return found
        vector: np.ndarray = self.encoder.encode([text])[0]
        with self._lock:
            self._questions[text] = vector
            while len(self._questions) > QUESTIONS_KEPT:
                self._questions.popitem(last=False)
        return vector

    def nearest(
        self, query: np.ndarray, k: int, *, store: str | None = None, source: str | None = None
    ) -> list[Near]:
        """The `k` notes (of `store` and `source` when given) whose nearest sentence is
        closest to `query`, best first, ties by address."""
        if not len(self.addresses) or k < 1:
            return []
        best = self._best(query)
        picked = self._picked(store, source)
        if not len(picked):
            return []
        scores = best[picked]
        # Addresses are in sorted order, so a stable sort breaks ties by address.
        order = np.argsort(-scores, kind="stable")[:k]
        return [Near(self.addresses[picked[i]], float(scores[i])) for i in order]

    def _best(self, query: np.ndarray) -> np.ndarray:
        """Each note's nearest-sentence cosine to `query`; one scan serves every adapter."""
        key = query.tobytes()
        with self._lock:
            found = self._scans.get(key)
        if found is None:
            products = self.vectors.products(query)[self._rows]
            found = np.round(np.maximum.reduceat(products, self._starts), 6)
            with self._lock:
                self._scans[key] = found
                while len(self._scans) > SCANS_KEPT:
                    self._scans.popitem(last=False)
        return found

    def _picked(self, store: str | None, source: str | None) -> np.ndarray:
        """The positions of the notes of `store` and `source` (either may be None: any)."""
        with self._lock:
            found = self._boxes.get((store, source))
        if found is None:
            allowed = np.ones(len(self.addresses), dtype=bool)
            if store is not None:
                allowed &= self._stores == store
            if source is not None:
                allowed &= self._sources == source
            found = np.flatnonzero(allowed)
            with self._lock:
                self._boxes[store, source] = found
        return found

    def similarities(self, query: np.ndarray, texts: Sequence[str]) -> np.ndarray:
        """The cosine of `query` with each of `texts` (stored vectors, else encoded now)."""
        out = np.zeros(len(texts), dtype=np.float64)
        rows, at, missing = [], [], []
        for i, text in enumerate(texts):
            row = self.vectors.row(text)
            if row is not None:
                rows.append(row)
                at.append(i)
            else:
                missing.append(i)
        if rows:
            out[at] = self.vectors.dense(rows) @ query
        if missing:
            vectors = self._encode_missing([texts[i] for i in missing])
            out[missing] = vectors @ query
        return np.round(out, 6)

    def _encode_missing(self, texts: list[str]) -> np.ndarray:
        keys = [normal(t) for t in texts]
        with self._lock:
            todo = [k for k in dict.fromkeys(keys) if k not in self._on_demand]
        fresh = self.encoder.encode(todo) if todo else np.zeros((0, self.encoder.dim))
        with self._lock:
            for key, vector in zip(todo, fresh, strict=True):
                self._on_demand[key] = vector
            while len(self._on_demand) > ON_DEMAND_KEPT:
                self._on_demand.popitem(last=False)
            return np.array([self._on_demand.get(k, np.zeros(self.encoder.dim)) for k in keys])


@dataclass(frozen=True)
class Meaning:
    """What the workspace has for meaning: `semantic`, or None with the notice saying why."""

    semantic: Semantic | None
    notice: str = ""
    stats: VectorStats | None = None


def open_meaning(
    root: Path,
    notes: Iterable[Note],
    choice: EncoderChoice,
    *,
    writable: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> Meaning:
    """The workspace's sentence vectors brought up to date with `notes` by the chosen encoder.

    Without an encoder, or when encoding fails, answers rest on words alone and the notice
    says so; a failure here never stops a workspace from opening.
    """
    encoder = choice.encoder
    if encoder is None:
        return Meaning(None, lexical_notice(choice))
    if not _SAFE_NAME.match(encoder.name):
        return Meaning(None, f"sentence encoder name {encoder.name!r} cannot name a file")
    # A paper's full-text passages are read by words at index time: a library of thousands of
    # papers holds hundreds of thousands of sentences, hours of encoding on a laptop. The gate
    # encodes the few passage sentences it weighs when it weighs them.
    notes = [n for n in notes if n.source != PASSAGE_BOX]
    try:
        vectors, stats = refresh(root, notes, encoder, writable=writable, progress=progress)
    except Exception as exc:  # the encoder's runtime failed: fall back to words
        return Meaning(
            None,
            f"sentence encoder {encoder.name!r} failed ({type(exc).__name__}: {exc}); "
            "retrieval and relevance use words alone",
        )
    return Meaning(Semantic(encoder, vectors, notes), stats.notice, stats)
