"""Sentence vectors of the workspace's notes, kept sealed in this user's cache beside the index.

Every note's title, quotes and body sentences are encoded once and stored by a hash of their
text, so an update encodes only sentences it has not seen (an edited note costs its new
sentences, a passage its source's). Vectors are int8 with one scale each (about 400 bytes a
sentence), in `vectors/<encoder>.bin` of this user's cache folder for the workspace
(`engine.workspace.caches`), for the encoder's fingerprint only.

Like the index, the file is a cache, never evidence: each record is sealed with HMAC-SHA256
under the index's per-user key (`engine.workspace.index_seal`), and a record whose seal
fails is dropped and encoded again, so a forged vector can cost time, never move an answer.
Similarity only proposes anyway: the router's licensing decides what is green.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.errors import WorkspaceError
from engine.models.encoder import Encoder
from engine.text.sentences import sentences
from engine.workspace.atomic import read_app_file, write_atomic
from engine.workspace.caches import VECTORS_DIR, cache_file, cached_file
from engine.workspace.index_seal import index_key
from engine.workspace.notes import Note

MAGIC = b"SYNVEC1\n"
KEY_BYTES = 16
SEAL_BYTES = 16
MAX_FILE_BYTES = 1024 * 1024 * 1024
# Sentences encoded per progress step; also bounds the memory one step takes.
CHUNK = 1024
DENSE_SLICE = 4096
# Records expanded at a time by a scan: small enough to stay in the CPU's cache.
SCAN_SLICE = 512
# Vectors this process encoded lately, by encoder and text: a workspace opened afresh
# (a copy, a cleared cache) does not encode the same sentences twice.
MEMO_SIZE = 8192
_memo: OrderedDict[tuple[str, bytes], np.ndarray] = OrderedDict()
_memo_lock = threading.Lock()
Progress = Callable[[int, int], None]


def note_sentences(note: Note) -> tuple[str, ...]:
    """The texts of a note that get a vector: its title, quotes and body sentences, once each."""
    texts = [note.title, *(q.body for q in note.quotes)]
    texts += [note.body[s.start : s.end] for s in sentences(note.body)]
    return tuple(dict.fromkeys(t for t in (normal(x) for x in texts) if t))


def normal(text: str) -> str:
    """The text as encoded and keyed: whitespace runs made one space, ends stripped."""
    return " ".join(text.split())


def text_key(text: str) -> bytes:
    """The store's key of a text: the first bytes of the sha256 of its normal form."""
    return hashlib.sha256(normal(text).encode("utf-8", "surrogatepass")).digest()[:KEY_BYTES]


def _dtype(dim: int) -> np.dtype:
    return np.dtype(
        [
            ("key", f"V{KEY_BYTES}"),
            ("scale", "<f4"),
            ("codes", "i1", (dim,)),
            ("seal", f"V{SEAL_BYTES}"),
        ]
    )


@dataclass(frozen=True)
class VectorStats:
    """What one refresh of the sentence vectors did."""

    encoded: int
    kept: int
    removed: int
    unsealed: int
    seconds: float
    saved: bool
    notice: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "encoded": self.encoded,
            "kept": self.kept,
            "removed": self.removed,
            "unsealed": self.unsealed,
            "seconds": round(self.seconds, 3),
            "saved": self.saved,
        }


class SentenceVectors:
    """Sealed int8 sentence vectors by text key, for one encoder fingerprint."""

    def __init__(self, fingerprint: str, dim: int, records: np.ndarray) -> None:
        self.fingerprint = fingerprint
        self.dim = dim
        self.records = records
        self.rows = {bytes(k): i for i, k in enumerate(records["key"])}

    def __len__(self) -> int:
        return len(self.records)

    def row(self, text: str) -> int | None:
        """The record of `text`, or None when it has no vector."""
        return self.rows.get(text_key(text))

    def dense(self, rows: np.ndarray | list[int]) -> np.ndarray:
        """The float32 vectors of `rows` (each near unit length)."""
        picked = np.asarray(rows, dtype=np.int64)
        dense = np.empty((len(picked), self.dim), dtype=np.float32)
        # In slices, so that a workspace's matrix costs its own size and no temporary copies.
        for at in range(0, len(picked), DENSE_SLICE):
            part = self.records[picked[at : at + DENSE_SLICE]]
            np.multiply(part["codes"], part["scale"][:, None], out=dense[at : at + DENSE_SLICE])
        return dense

    def products(self, query: np.ndarray) -> np.ndarray:
        """Every record's vector dotted with `query`, in record order.

        The same values, bit for bit, as `dense(all rows) @ query`: each vector is expanded to
        float32 as `dense` does, a slice at a time, so the float32 matrix (four times the
        int8 records) is never held.
        """
        count = len(self.records)
        out = np.empty(count, dtype=np.result_type(np.float32, query.dtype))
        block = np.empty((min(count, SCAN_SLICE), self.dim), dtype=np.float32)
        for at in range(0, count, SCAN_SLICE):
            part = self.records[at : at + SCAN_SLICE]
            dense = block[: len(part)]
            # The codes made floats, then scaled: what `np.multiply` does in one call, about
            # 15 % faster in two (the int8-to-float cast is most of a scan's time).
            np.copyto(dense, part["codes"])
            dense *= part["scale"][:, None]
            np.matmul(dense, query, out=out[at : at + len(part)])
        return out

    def to_bytes(self) -> bytes:
        header = json.dumps(
            {"fingerprint": self.fingerprint, "dim": self.dim, "count": len(self.records)},
            sort_keys=True,
        ).encode("utf-8")
        return MAGIC + struct.pack("<I", len(header)) + header + self.records.tobytes()

    @classmethod
    def empty(cls, fingerprint: str, dim: int) -> SentenceVectors:
        return cls(fingerprint, dim, np.zeros(0, dtype=_dtype(dim)))


def quantise(fingerprint: str, keys: list[bytes], vectors: np.ndarray) -> np.ndarray:
    """Sealed int8 records of `vectors` (one scale per row: its largest magnitude / 127)."""
    dim = vectors.shape[1] if vectors.ndim == 2 else 0
    out = np.zeros(len(keys), dtype=_dtype(dim))
    if not keys:
        return out
    peak = np.abs(vectors).max(axis=1)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    codes = np.clip(np.rint(vectors / scale[:, None]), -127, 127).astype(np.int8)
    out["key"] = np.frombuffer(b"".join(keys), dtype=f"V{KEY_BYTES}")
    out["scale"] = scale
    out["codes"] = codes
    secret = index_key()
    seals = [_seal(secret, fingerprint, record) for record in out]
    out["seal"] = np.frombuffer(b"".join(seals), dtype=f"V{SEAL_BYTES}")
    return out


def _seal(secret: bytes, fingerprint: str, record: np.void) -> bytes:
    message = (
        fingerprint.encode("utf-8")
        + b"\x1f"
        + bytes(record["key"])
        + record["scale"].tobytes()
        + record["codes"].tobytes()
    )
    return hmac.digest(secret, message, "sha256")[:SEAL_BYTES]


def read_vectors(root: Path, encoder: Encoder) -> tuple[SentenceVectors, int]:
    """The stored vectors whose seal verifies, and how many records failed it.

    A missing, unreadable, foreign or other-model file reads as empty.
    """
    empty = SentenceVectors.empty(encoder.fingerprint, encoder.dim)
    try:
        raw = read_app_file(cached_file(root, *_parts(encoder)), max_bytes=MAX_FILE_BYTES)
    except (OSError, WorkspaceError):
        return empty, 0
    parsed = _parse(raw, encoder)
    if parsed is None:
        return empty, 0
    secret = index_key()
    good = np.fromiter(
        (
            hmac.compare_digest(bytes(r["seal"]), _seal(secret, encoder.fingerprint, r))
            for r in parsed
        ),
        dtype=bool,
        count=len(parsed),
    )
    kept = parsed if good.all() else parsed[good]
    return SentenceVectors(encoder.fingerprint, encoder.dim, kept), int((~good).sum())


def _parse(raw: bytes, encoder: Encoder) -> np.ndarray | None:
    if not raw.startswith(MAGIC) or len(raw) < len(MAGIC) + 4:
        return None
    (size,) = struct.unpack_from("<I", raw, len(MAGIC))
    start = len(MAGIC) + 4
    try:
        header = json.loads(raw[start : start + size])
    except (ValueError, RecursionError):
        return None
    dtype = _dtype(encoder.dim)
    body = memoryview(raw)[start + size :]
    if (
        not isinstance(header, dict)
        or header.get("fingerprint") != encoder.fingerprint
        or header.get("dim") != encoder.dim
        or len(body) % dtype.itemsize
    ):
        return None
    # A read-only view of the file's bytes: records are never changed in place.
    return np.frombuffer(body, dtype=dtype)


def refresh(
    root: Path,
    notes: Iterable[Note],
    encoder: Encoder,
    *,
    writable: bool = True,
    progress: Progress | None = None,
) -> tuple[SentenceVectors, VectorStats]:
    """The vectors of every sentence of `notes`: stored ones kept, new ones encoded.

    Sentences no note holds any more are left out. The file is rewritten (atomically) only
    when something changed and `writable`; a refusal to write costs the next run time only.
    """
    started = time.perf_counter()
    stored, unsealed = read_vectors(root, encoder)
    wanted: dict[bytes, str] = {}
    for note in notes:
        for text in note_sentences(note):
            wanted.setdefault(text_key(text), text)
    kept = [stored.rows[k] for k in wanted if k in stored.rows]
    missing = sorted((k for k in wanted if k not in stored.rows), key=lambda k: len(wanted[k]))
    if not missing and not unsealed and len(kept) == len(stored):
        # Nothing to encode or drop (the usual open): the stored records are the answer.
        stats = VectorStats(0, len(kept), 0, 0, time.perf_counter() - started, False)
        return stored, stats
    fresh = []
    for at in range(0, len(missing), CHUNK):
        chunk = missing[at : at + CHUNK]
        encoded = _encoded(encoder, chunk, [wanted[k] for k in chunk])
        fresh.append(quantise(encoder.fingerprint, chunk, encoded))
        if progress is not None:
            progress(at + len(chunk), len(missing))
    joined = np.concatenate([stored.records[np.asarray(kept, dtype=np.int64)], *fresh])
    keys = [bytes(k) for k in joined["key"]]
    joined = joined[np.asarray(sorted(range(len(keys)), key=keys.__getitem__), dtype=np.int64)]
    vectors = SentenceVectors(encoder.fingerprint, encoder.dim, joined)
    removed = len(stored) - len(kept)
    changed = bool(missing or removed or unsealed)
    saved, notice = False, ""
    if changed and writable:
        try:
            write_atomic(cache_file(root, *_parts(encoder)), vectors.to_bytes(), durable=False)
            saved = True
        except (OSError, WorkspaceError) as exc:
            notice = f"sentence vectors kept in memory for this run: {exc}"
    stats = VectorStats(
        encoded=len(missing),
        kept=len(kept),
        removed=removed,
        unsealed=unsealed,
        seconds=time.perf_counter() - started,
        saved=saved,
        notice=notice,
    )
    return vectors, stats


def _encoded(encoder: Encoder, keys: list[bytes], texts: list[str]) -> np.ndarray:
    """The vectors of `texts`, from the memo where this process encoded them lately."""
    names = [(encoder.fingerprint, k) for k in keys]
    with _memo_lock:
        known = {name: _memo[name] for name in names if name in _memo}
    todo = [i for i, name in enumerate(names) if name not in known]
    out = np.zeros((len(texts), encoder.dim), dtype=np.float32)
    if todo:
        out[todo] = encoder.encode([texts[i] for i in todo])
    with _memo_lock:
        for i, name in enumerate(names):
            if name in known:
                out[i] = known[name]
            else:
                _memo[name] = out[i].copy()
            _memo.move_to_end(name)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    return out


def _parts(encoder: Encoder) -> tuple[str, str]:
    return (VECTORS_DIR, f"{encoder.name}.bin")
