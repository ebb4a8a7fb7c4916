"""Search a workspace's library: papers by title, author or year, notes and passages by words.

Papers match when every word of the query is in their name, title, authors, year or
citekey. Notes and passages come from the search index (BM25), each named as a reader
knows it: a passage by its paper's name and page, a note by its title. The address stays
on each hit for tooltips and downloads, never as its name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.text.lines import shorten
from engine.workspace.index import Index
from engine.workspace.library import Paper, paper_name
from engine.workspace.notes import Store
from engine.workspace.passage_notes import PASSAGE_BOX, passage_place
from engine.workspace.source_texts import ABSTRACT_SUFFIX
from engine.workspace.stores import Workspace

MAX_HITS = 30
SNIPPET_CHARS = 320


@dataclass(frozen=True)
class Found:
    """A note or passage the search found: its name, where in its paper, and its text."""

    address: str  # for tooltips and downloads only
    name: str  # the paper's "Author Year" (a passage), or the note's title
    where: str  # "p. 12", "abstract", "practice", or ""
    text: str
    citekey: str = ""  # the paper it belongs to, when it belongs to one
    page: int | None = None  # its page position in the paper's text (for opening the PDF)


@dataclass(frozen=True)
class LibrarySearch:
    """What a query found: papers, passages of their text, and notes."""

    query: str
    papers: tuple[Paper, ...] = ()
    passages: tuple[Found, ...] = ()
    notes: tuple[Found, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.papers or self.passages or self.notes)


def search_library(
    workspace: Workspace,
    index: Index,
    papers: Sequence[Paper],
    query: str,
    *,
    k: int = MAX_HITS,
) -> LibrarySearch:
    """Papers whose names hold every word of `query`, and the best passages and notes."""
    words = query.casefold().split()
    if not words:
        return LibrarySearch(query)
    matched = tuple(p for p in papers if all(w in _haystack(p) for w in words))
    passages = []
    for hit in index.search(query, k=k, box=PASSAGE_BOX):
        note = workspace.note(hit.address)
        if note is None or not note.citekey:
            continue
        place = passage_place(note.address, note.title)
        page = note.quotes[0].page if note.quotes else None
        abstract = note.citekey.endswith(ABSTRACT_SUFFIX)
        passages.append(
            Found(
                note.address,
                paper_name(workspace, note.citekey, place.paper_title if place else ""),
                place.where if place else "",
                shorten(note.body, SNIPPET_CHARS),
                note.citekey.removesuffix(ABSTRACT_SUFFIX),
                None if abstract else page,
            )
        )
    notes = []
    for hit in index.search(query, k=k * 2):
        note = workspace.note(hit.address)
        if note is None or note.source == PASSAGE_BOX:
            continue
        where = "practice" if note.store is Store.PRACTICE else ""
        name = " ".join(note.title.split()) or note.id
        if note.citekey and note.store is Store.CANON:
            name = paper_name(workspace, note.citekey, name)
        notes.append(
            Found(
                note.address,
                name,
                where,
                shorten(note.body, SNIPPET_CHARS),
                (note.citekey or "").removesuffix(ABSTRACT_SUFFIX),
            )
        )
        if len(notes) >= k:
            break
    return LibrarySearch(query, matched[:k], tuple(passages), tuple(notes))


def _haystack(paper: Paper) -> str:
    return " ".join(
        [paper.name, paper.title, *paper.authors, str(paper.year or ""), paper.citekey]
    ).casefold()
