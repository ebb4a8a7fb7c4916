"""The passages' cache: each source's sentence offsets and passage layout, kept per user.

Splitting a source into sentences is the slow part of making passages (about 1.4 MB of text
a second), so the offsets are kept in this user's cache folder for the workspace
(`passages.json`, `engine.workspace.caches`) by the source's content hash. Beside them, each
source's layout (which sentences its passages keep, and each passage's page and size) is
kept under a digest of what decided it, so opening a library names every passage without
reading a sentence: the notes of a source are made when something first reads one of them.

Only offsets and counts are kept, packed as little-endian 32-bit integers (base64), and
decoded when a source is read; the text always comes from the source file as it is now.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.errors import WorkspaceError
from engine.workspace.atomic import read_app_file, write_atomic
from engine.workspace.caches import PASSAGES_FILE, cache_file, cached_file

MAX_CACHE_BYTES = 256 * 1024 * 1024
_CACHE_VERSION = 5
_INT = np.dtype("<i4")


@dataclass(frozen=True, eq=False)  # numpy arrays: compared by identity
class Layout:
    """Which sentences of a source its passages keep, and each passage's page and size.

    `kept` indexes the source's sentences; passage n (1-based) is the next `counts[n-1]` kept
    sentences, all on page `pages[n-1]`.
    """

    kept: np.ndarray
    pages: np.ndarray
    counts: np.ndarray

    def fits(self, spans: np.ndarray, size: int) -> bool:
        """Whether this layout and the sentence offsets `spans` (n × 3: start, end, page)
        describe a text of `size` characters consistently: a cache that does not is ignored."""
        n = len(spans)
        if len(self.pages) != len(self.counts) or int(self.counts.sum()) != len(self.kept):
            return False
        if not offsets_fit(spans, size):
            return False
        if not len(self.kept):
            return True
        if int(self.kept.min()) < 0 or int(self.kept.max()) >= n or (self.counts < 1).any():
            return False
        kept_pages = spans[self.kept, 2]
        return bool((kept_pages == np.repeat(self.pages, self.counts)).all())


@dataclass
class PassageCache:
    """Sentence offsets and passage layouts per source key and content hash."""

    # Key -> (content hash, sentences as an n × 3 array of start, end, page).
    spans: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict)
    # Key -> (content hash, digest of what decided it, layout).
    layouts: dict[str, tuple[str, str, Layout]] = field(default_factory=dict)
    # Key -> (content hash, digest of its notes' texts, whether the source says more than
    # they do): the look reads the whole text, about a second a reopen at 20,000 pages.
    beyond: dict[str, tuple[str, str, bool]] = field(default_factory=dict)
    changed: bool = False

    @classmethod
    def read(cls, root: Path) -> PassageCache:
        """The saved cache; an absent, unreadable or foreign file is an empty cache."""
        try:
            raw = read_app_file(cached_file(root, PASSAGES_FILE), max_bytes=MAX_CACHE_BYTES)
            data = json.loads(raw)
        except (OSError, ValueError, WorkspaceError, RecursionError):
            return cls()
        if not isinstance(data, dict) or data.get("version") != _CACHE_VERSION:
            return cls()
        cache = cls()
        sources = data.get("sources")
        for key, entry in (sources if isinstance(sources, dict) else {}).items():
            with contextlib.suppress(TypeError, ValueError, KeyError, AttributeError):
                cache._take(key, entry)
        return cache

    def _take(self, key: str, entry: dict[str, Any]) -> None:
        sha = str(entry["sha"])
        if "spans" in entry:  # a source its notes quote in full was never split
            self.spans[key] = (sha, unpack(entry["spans"]).reshape(-1, 3))
        if "layout" in entry:
            digest, kept, pages, counts = entry["layout"]
            self.layouts[key] = (
                sha,
                str(digest),
                Layout(unpack(kept), unpack(pages), unpack(counts)),
            )
        if "beyond" in entry:
            digest, more = entry["beyond"]
            if isinstance(more, bool):
                self.beyond[key] = (sha, str(digest), more)

    def says_more(self, key: str, sha: str, digest: str) -> bool | None:
        """The cached answer to whether source `key` (hash `sha`) says more than its notes'
        texts (digest `digest`), or None when it must be looked at."""
        cached = self.beyond.get(key)
        return cached[2] if cached is not None and cached[:2] == (sha, digest) else None

    def said_more(self, key: str, sha: str, digest: str, more: bool) -> None:
        self.beyond[key] = (sha, digest, more)
        self.changed = True

    def sentences(self, key: str, sha: str, size: int) -> np.ndarray | None:
        """The cached sentences of source `key` when its hash matches and they fit."""
        cached = self.spans.get(key)
        if cached is None or cached[0] != sha:
            return None
        return cached[1] if offsets_fit(cached[1], size) else None

    def split(self, key: str, sha: str, found: np.ndarray) -> None:
        self.spans[key] = (sha, found)
        self.changed = True

    def layout(self, key: str, sha: str, digest: str) -> Layout | None:
        """The cached layout of source `key` when its hash and the digest of what decided it
        match (its fit to the text is the caller's to check)."""
        cached = self.layouts.get(key)
        return cached[2] if cached is not None and cached[:2] == (sha, digest) else None

    def laid_out(self, key: str, sha: str, digest: str, layout: Layout) -> None:
        self.layouts[key] = (sha, digest, layout)
        self.changed = True

    def save(self, root: Path, keys: Iterable[str]) -> None:
        """Write the entries of `keys` (the sources present) when anything changed.

        Raises WorkspaceError or OSError when the cache cannot be written; the caller
        goes on without a cache.
        """
        keep = set(keys)
        if not self.changed and keep >= set(self.spans) | set(self.beyond):
            return
        sources: dict[str, dict[str, Any]] = {}
        for key, (sha, found) in sorted(self.spans.items()):
            if key in keep:
                sources[key] = {"sha": sha, "spans": pack(found)}
        for key, (sha, digest, more) in sorted(self.beyond.items()):
            if key in keep and sources.setdefault(key, {"sha": sha})["sha"] == sha:
                sources[key]["beyond"] = [digest, more]
        for key, (sha, digest, layout) in sorted(self.layouts.items()):
            entry = sources.get(key)
            if entry is not None and entry["sha"] == sha and "spans" in entry:
                parts = (layout.kept, layout.pages, layout.counts)
                entry["layout"] = [digest, *map(pack, parts)]
        payload = json.dumps({"version": _CACHE_VERSION, "sources": sources}, separators=(",", ":"))
        write_atomic(cache_file(root, PASSAGES_FILE), payload, durable=False)
        self.changed = False


def offsets_fit(spans: np.ndarray, size: int) -> bool:
    """Whether sentence offsets (n × 3: start, end, page) each cut a non-empty piece out of
    a text of `size` characters."""
    return not len(spans) or (
        bool((spans[:, 0] >= 0).all())
        and bool((spans[:, 0] < spans[:, 1]).all())
        and int(spans[:, 1].max()) <= size
    )


def pack(values: np.ndarray) -> str:
    """Integers as base64 of little-endian 32-bit words."""
    return base64.b64encode(np.ascontiguousarray(values, dtype=_INT).tobytes()).decode("ascii")


def unpack(text: object) -> np.ndarray:
    """The integers `pack` wrote (read-only); raises ValueError on anything else."""
    if not isinstance(text, str):
        raise ValueError("not packed integers")
    try:
        raw = base64.b64decode(text, validate=True)
    except binascii.Error as exc:
        raise ValueError(str(exc)) from None
    if len(raw) % _INT.itemsize:
        raise ValueError("not packed integers")
    return np.frombuffer(raw, dtype=_INT).astype(np.int64)


def digest_texts(texts: Iterable[str]) -> str:
    """A digest of texts in their order (a source's notes' texts)."""
    joined = "\x1e".join(texts)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()
