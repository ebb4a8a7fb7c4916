"""Seals on the index's rows: a keyed hash that only this user's own indexing can produce.

The index is a cache of what the notes say; it must never be evidence. Every row it holds
(a note's term bag with its address, title and content hash, and every term's spelling) is
sealed with keyed BLAKE2b under a key kept outside the workspace, in the user's state folder.
A row whose seal does not verify (written by hand, by another user, or damaged) is ignored
and rebuilt from the note, so a tampered index can cost time, never grant an answer.

The key is `$SYNAPSE_STATE_DIR/index.key` (default `$XDG_STATE_HOME/synapse-review/` or
`~/.local/state/synapse-review/`), 32 random bytes created on first use with mode 0600.
When it cannot be created, a key for this process only is used and `key_notice` says so:
the index is then rebuilt on every run.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine.core.paths import state_dir
from engine.workspace.bm25 import BAG_DTYPE

KEY_BYTES = 32
SEAL_BYTES = 32
_lock = threading.Lock()
_cached: tuple[Path | None, bytes, str] | None = None


def index_key() -> bytes:
    """This user's sealing key, created on first use; a per-process key when it cannot be."""
    return _load()[1]


def key_notice() -> str:
    """Why the key lives only in this process (empty when it is stored)."""
    return _load()[2]


def seal_doc(key: bytes, fields: tuple[str, ...], bag: bytes) -> bytes:
    """The seal of one note's row: its identifying fields and its term bag.

    Keyed BLAKE2b, a MAC by design, in one call: an index of a large library checks a
    seal per row at open, so its cost is the open's.
    """
    # Each field followed by a unit separator: the same bytes as one f-string per field.
    data = ("\x1f".join(fields) + "\x1f").encode("utf-8", "surrogatepass") + bag
    return hashlib.blake2b(data, key=key, digest_size=SEAL_BYTES).digest()


def seal_term(key: bytes, term_id: int, term: str) -> bytes:
    """The seal of one vocabulary row: the term's id and spelling."""
    data = f"{term_id}\x1f{term}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, key=key, digest_size=SEAL_BYTES, person=b"term").digest()


def same(seal: object, expected: bytes) -> bool:
    """Whether a stored seal equals the expected one (constant time)."""
    return isinstance(seal, bytes) and hmac.compare_digest(seal, expected)


def _load() -> tuple[Path | None, bytes, str]:
    global _cached
    folder = state_dir()
    with _lock:
        if _cached is not None and _cached[0] == folder:
            return _cached
        try:
            key = _read_or_create(folder / "index.key")
            _cached = (folder, key, "")
        except OSError as exc:
            reason = exc.strerror or str(exc)
            notice = f"the index key cannot be kept in {folder} ({reason}); rebuilt each run"
            _cached = (folder, secrets.token_bytes(KEY_BYTES), notice)
        return _cached


def _read_or_create(path: Path) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            key = os.read(fd, KEY_BYTES + 1)
        finally:
            os.close(fd)
        if len(key) != KEY_BYTES:
            raise OSError(0, f"{path} is not a {KEY_BYTES}-byte key") from None
        return key
    key = secrets.token_bytes(KEY_BYTES)
    try:
        os.write(fd, key)
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


class Unsealed(Exception):
    """A vocabulary row this index did not write: the index is rebuilt."""


def all_within(bags: Sequence[bytes], n_terms: int) -> bool:
    """Whether every bag is whole and names only sealed terms (`within`), in one look over
    all of them, so the bag-by-bag `within` runs only when one does not."""
    size = BAG_DTYPE.itemsize
    return not any(len(bag) % size for bag in bags) and within(b"".join(bags), n_terms)


def within(raw: bytes, n_terms: int) -> bool:
    """Whether every term id of a bag names one of the `n_terms` sealed vocabulary rows."""
    if len(raw) % BAG_DTYPE.itemsize:
        return False
    ids = np.frombuffer(raw, BAG_DTYPE)["term"]
    return not len(ids) or (int(ids.min()) >= 0 and int(ids.max()) < n_terms)
