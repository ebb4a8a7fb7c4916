"""The passage notes of a workspace, named at open and made a source at a time when read.

A passage is a canon note of the reserved box `~passages` (`zk:~passages:<key>~p<page>~<n>`):
its body is a few sentences of one page of a source, each a quote of the source with its
page, and its citekey is the source's. A library of 20,000 pages holds about 165,000 of them;
making them all takes seconds, and a question reads a few dozen. So `PassageNotes` knows
every passage's address from its source's layout (`engine.workspace.passage_cache.Layout`)
and makes a source's notes the first time one of them is read.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from engine.workspace.notes import FileStamp, Note, NoteKind, Quote, Store
from engine.workspace.passage_cache import Layout
from engine.workspace.source_texts import ABSTRACT_SUFFIX, SourceText, paper_key

PASSAGE_BOX = "~passages"
PASSAGE_SENTENCES = 3
PASSAGE_CHARS = 900
# Built once: a large library makes hundreds of thousands of passages and quotes.
_PASSAGE_PREFIX = f"{Store.CANON.value}:{PASSAGE_BOX}:"
_QUOTE_IDS = tuple(f"s{i}" for i in range(PASSAGE_SENTENCES))


@dataclass(frozen=True, eq=False)  # numpy arrays: compared by identity
class LaidSource:
    """One source with its sentences (n × 3: start, end, page) and its passages' layout."""

    source: SourceText
    spans: np.ndarray
    layout: Layout
    addresses: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        key = self.source.key
        pages = self.layout.pages.tolist()
        named = tuple(f"{_PASSAGE_PREFIX}{key}~p{page}~{n}" for n, page in enumerate(pages, 1))
        object.__setattr__(self, "addresses", named)

    def notes(self) -> list[Note]:
        """The source's passage notes, in the layout's order."""
        kept = self.spans[self.layout.kept].tolist()
        out, at = [], 0
        for n, count in enumerate(self.layout.counts.tolist(), start=1):
            out.append(_passage(self.source, kept[at : at + count], n))
            at += count
        return out


@dataclass(frozen=True)
class PassageSummary:
    """A source's passages counted: how many, the last page they quote, the source's title."""

    key: str
    count: int
    last_page: int
    title: str


class PassageNotes(Mapping[str, Note]):
    """The passage notes of a workspace's sources, by address, made per source when read.

    Safe to read from several threads: a source is made once, under a lock.
    """

    def __init__(self, sources: Sequence[LaidSource] = ()):
        self._sources = tuple(sources)
        self._owner = {a: i for i, s in enumerate(self._sources) for a in s.addresses}
        self._made: dict[str, Note] = {}
        self._done: set[int] = set()
        self._lock = threading.Lock()

    def __getitem__(self, address: str) -> Note:
        note = self._made.get(address)
        if note is not None:
            return note
        at = self._owner[address]  # KeyError: not a passage of this workspace
        with self._lock:
            if at not in self._done:
                self._made.update((n.address, n) for n in self._sources[at].notes())
                self._done.add(at)
        return self._made[address]

    def __contains__(self, address: object) -> bool:
        return address in self._owner

    def __iter__(self) -> Iterator[str]:
        return iter(self._owner)

    def __len__(self) -> int:
        return len(self._owner)

    def stamped(self) -> Iterator[tuple[str, FileStamp, str]]:
        """Each passage's address, stamp and path, without making a note: a passage's stamp
        is its source file's, so it changes exactly when its source does."""
        for laid in self._sources:
            stamp, path = laid.source.stamp, f"sources/{laid.source.key}.txt"
            yield from zip(laid.addresses, repeat(stamp), repeat(path))

    def laid(self) -> tuple[LaidSource, ...]:
        """The sources whose passages these are, in key order."""
        return self._sources

    def summaries(self) -> list[PassageSummary]:
        """What each source's passages amount to, in the order of their addresses, without
        making a note."""
        out = [
            PassageSummary(
                s.source.key, len(s.addresses), int(s.layout.pages.max()), s.source.title
            )
            for s in self._sources
            if s.addresses
        ]
        first = {s.source.key: s.addresses[0] for s in self._sources if s.addresses}
        return sorted(out, key=lambda summary: first[summary.key])

    def made(self) -> int:
        """How many sources have had their notes made (for tests and measurements)."""
        return len(self._done)


def _quote_ids(count: int) -> Sequence[str]:
    """The ids of a passage's `count` quotes, s0, s1, …: made once for the usual few."""
    return _QUOTE_IDS if count <= len(_QUOTE_IDS) else [f"s{i}" for i in range(count)]


def _passage(source: SourceText, run: list[list[int]], n: int) -> Note:
    page = run[0][2]
    label = source.labels[page - 1] if 0 < page <= len(source.labels) else str(page)
    where = "abstract" if source.key.endswith(ABSTRACT_SUFFIX) else f"p. {label}"
    note_id = f"{source.key}~p{page}~{n}"
    said = [source.text[start:end] for start, end, _ in run]
    paper = paper_key(source.key)
    return Note(
        address=_PASSAGE_PREFIX + note_id,
        store=Store.CANON,
        source=PASSAGE_BOX,
        id=note_id,
        type=NoteKind.SOURCE,
        title=f"{source.title} ({paper}, {where})" if source.title else f"{paper}, {where}",
        # One split of the sentences joined: the same words as each one's, one space apart.
        body=" ".join(" ".join(said).split()),
        path=f"sources/{source.key}.txt",
        citekey=source.key,
        quotes=tuple(map(Quote, _quote_ids(len(said)), said, repeat(page))),
        # The source file's own stamp: a passage changes exactly when its source does.
        stamp=source.stamp,
    )


@dataclass(frozen=True)
class PassagePlace:
    """Where a passage sits: its paper (key and title) and its page, as a reader cites it."""

    paper: str
    paper_title: str
    where: str  # "p. 12", or "abstract"


def passage_place(address: str, title: str) -> PassagePlace | None:
    """The paper and page of the passage at `address` (titled `title`), else None."""
    if not address.startswith(_PASSAGE_PREFIX) or "~p" not in address:
        return None
    key = address[len(_PASSAGE_PREFIX) :].rsplit("~p", 1)[0]
    paper = paper_key(key)
    # The title is written by `_passage`: "<paper title> (<paper>, <where>)" or "<paper>, <where>".
    head, _, tail = title.rpartition(f" ({paper}, ")
    if head and tail.endswith(")"):
        return PassagePlace(paper, head, tail[:-1])
    _, _, where = title.partition(f"{paper}, ")
    return PassagePlace(paper, paper, where or "")
