"""The ranking view kept beside the index, so a new process's first question need not build it.

Building the view reads every row of the index, checks its seal and lays the postings out:
about two seconds at 20,000 pages, paid by every new process's first question. Once built
from sealed rows, the view is written to this user's cache folder (`ranking.view`) under a
digest of what the docs table holds (`rows_digest`: each row's address, content hash and
id) and sealed as a whole with the index's key. A process whose index holds the same rows
reads it back in a fraction of a second; any other digest, a seal that fails or a damaged
file is ignored and the view is built from the rows again. A row tampered with after the
view was saved changes nothing it ranks by: the view holds the sealed row it was built
from, and a note whose text changes is indexed again, which changes the digest.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from dataclasses import astuple
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.errors import WorkspaceError
from engine.workspace.atomic import AppFile, read_app_buffer, write_atomic
from engine.workspace.bm25 import Bm25Params, Postings
from engine.workspace.index_rows import RankingView, read_view, rows_digest
from engine.workspace.index_seal import SEAL_BYTES, index_key, same

VIEW_FILE = "ranking.view"
MAX_VIEW_BYTES = 2 * 1024 * 1024 * 1024
_MAGIC = b"synapse-ranking-view-1\n"
_ARRAYS = ("indptr", "docs", "weights", "stores", "sources")


def kept_or_built(
    db: sqlite3.Connection, folder: Path | None, params: Bm25Params, *, digest: str | None = None
) -> tuple[RankingView, frozenset[str]]:
    """The ranking view of the index `db`: the one kept in `folder` (the index's cache folder;
    None for an index in memory) when it serves these rows, else built from the sealed rows
    (`read_view`) and kept there; with the addresses of the rows whose seal failed.

    `digest` is the table's `rows_digest` when the caller has it. Run inside a read
    transaction. A view that cannot be kept is only built again next time.
    """
    if folder is None:  # nowhere to keep it
        return read_view(db, params)
    file = AppFile(folder, (VIEW_FILE,))
    key = index_key()
    digest = digest or rows_digest(db)
    saved = load_view(file, digest, key, params)
    if saved is not None:
        return saved, frozenset()
    view, unsealed = read_view(db, params)
    if not unsealed:  # a row to index again changes the digest
        with contextlib.suppress(OSError, WorkspaceError):
            save_view(file, view, digest=digest, key=key, params=params)
    return view, unsealed


def save_view(
    file: AppFile, view: RankingView, *, digest: str, key: bytes, params: Bm25Params
) -> None:
    """Write `view`, built with `params` from the rows `digest` names, sealed with `key`.

    Raises OSError or WorkspaceError when it cannot be written; the caller goes on without.
    """
    postings = view.postings
    arrays = {
        "indptr": postings.indptr.astype("<i8"),
        "docs": postings.docs.astype("<i4"),
        "weights": postings.weights.astype("<f4"),
        "stores": view.stores.astype("<i1"),
        "sources": view.sources.astype("<i4"),
    }
    header = {
        "digest": digest,
        "n_docs": postings.n_docs,
        "params": astuple(params),
        "arrays": [[name, arrays[name].dtype.str, len(arrays[name])] for name in _ARRAYS],
        "addresses": view.addresses,
        "titles": view.titles,
        "source_codes": view.source_codes,
        "vocabulary": view.vocabulary,
    }
    head = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    body = b"".join(
        [_MAGIC, len(head).to_bytes(8, "little"), head, *(a.tobytes() for a in arrays.values())]
    )
    write_atomic(file, body + _seal(key, body), durable=False)


def load_view(file: AppFile, digest: str, key: bytes, params: Bm25Params) -> RankingView | None:
    """The saved view when it was built from the rows `digest` names with `params` and its
    seal verifies with `key`; None otherwise (absent, stale, tampered or damaged)."""
    try:
        data = read_app_buffer(file, max_bytes=MAX_VIEW_BYTES)
    except (OSError, WorkspaceError):
        return None
    if len(data) < len(_MAGIC) + SEAL_BYTES:
        return None
    body, seal = data[:-SEAL_BYTES], bytes(data[-SEAL_BYTES:])
    if bytes(body[: len(_MAGIC)]) != _MAGIC or not same(seal, _seal(key, body)):
        return None
    try:
        return _parse(body, digest, params)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None


def _parse(body: memoryview, digest: str, params: Bm25Params) -> RankingView | None:
    at = len(_MAGIC)
    size = int.from_bytes(body[at : at + 8], "little")
    header: dict[str, Any] = json.loads(bytes(body[at + 8 : at + 8 + size]))
    if header["digest"] != digest or list(header["params"]) != list(astuple(params)):
        return None
    at += 8 + size
    arrays = {}
    for name, dtype, length in header["arrays"]:
        kind = np.dtype(dtype)
        end = at + kind.itemsize * int(length)
        if end > len(body):
            return None
        arrays[name] = np.frombuffer(body, dtype=kind, count=int(length), offset=at)
        at = end
    n_docs = int(header["n_docs"])
    addresses, titles = list(header["addresses"]), list(header["titles"])
    if at != len(body) or not (len(addresses) == len(titles) == n_docs == len(arrays["stores"])):
        return None
    # Read-only views of the file's bytes where the dtype is the machine's already.
    postings = Postings(
        arrays["indptr"].astype(np.int64, copy=False),
        arrays["docs"].astype(np.int32, copy=False),
        arrays["weights"].astype(np.float32, copy=False),
        n_docs,
    )
    return RankingView(
        postings=postings,
        addresses=addresses,
        titles=titles,
        stores=arrays["stores"].astype(np.int8, copy=False),
        sources=arrays["sources"].astype(np.int32, copy=False),
        source_codes=dict(header["source_codes"]),
        vocabulary=dict(header["vocabulary"]),
    )


def _seal(key: bytes, body: bytes | memoryview) -> bytes:
    return hashlib.blake2b(body, key=key, digest_size=SEAL_BYTES, person=b"view").digest()
