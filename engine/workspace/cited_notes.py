"""What a citation opens: a cited note's name as a reader knows it, and its text with the quote.

A cited address is named "Author Year" when the workspace's references know its source
(`references.bib`, CSL JSON, Zotero), else by its note's title, else by the address itself.
Opening it gives the note's text, or the abstract, with every sentence the answer quoted
from it marked, and, when the note has a source text, the page the quote was found on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.workspace.in_context import InContext, in_context
from engine.workspace.references import (
    cite,
    hidden_lines,
    load_references,
    note_paper_title,
    paper_label,
)
from engine.workspace.source_texts import ABSTRACT_SUFFIX
from engine.workspace.stores import Workspace

MAX_EVIDENCE_CHARS = 20_000


class EvidenceKind(StrEnum):
    """What a citation opens."""

    NOTE = "note"  # a note's own text (a practice entry, a hand-written canon note)
    ABSTRACT = "abstract"  # a paper's abstract
    SOURCE = "source"  # a note with a source full text: the page the quote is on
    UNKNOWN = "unknown"  # an address the workspace does not hold (an audited payload's)


@dataclass(frozen=True)
class Piece:
    """A stretch of shown text, and whether the answer quoted it."""

    text: str
    quoted: bool = False


@dataclass(frozen=True)
class Evidence:
    """One cited address: how to name it, what it opens, and its text with the quotes marked."""

    address: str
    label: str  # "Jegadeesh & Titman 1993", else the note's title, else the address
    title: str
    kind: EvidenceKind
    citation: str = ""  # "Author Year, p. N" where the quote was found, else the label
    pieces: tuple[Piece, ...] = ()  # the note's text, quoted sentences marked
    context: InContext | None = None  # the quote on its page of the source text
    hidden: int = 0  # lines of hidden text the PDF had on that page, left out of its text

    @property
    def found(self) -> bool:
        """Whether any quoted sentence is marked in the note's text or found on a page."""
        return self.context is not None or any(p.quoted for p in self.pieces)


def cite_label(workspace: Workspace, address: str) -> str:
    """A cited address as a reader knows it: "Author Year", a paper's or note's title; the
    address only for one the workspace does not hold."""
    note = workspace.note(address)
    if note is None:
        return address
    if note.citekey:
        return paper_label(workspace.root, note.citekey, note_paper_title(note))
    return " ".join(note.title.split()) or address


def _has_reference(workspace: Workspace, citekey: str | None) -> bool:
    if not citekey:
        return False
    reference = load_references(workspace.root).get(citekey.removesuffix(ABSTRACT_SUFFIX))
    return reference is not None and bool(reference.authors or reference.year)


def evidence(
    workspace: Workspace, address: str, quoted: Sequence[str] = (), page: int | None = None
) -> Evidence:
    """What the citation of `address` opens, with each `quoted` sentence marked where found."""
    note = workspace.note(address)
    if note is None:
        return Evidence(address, address, "", EvidenceKind.UNKNOWN)
    label = cite_label(workspace, address)
    title = " ".join(note.title.split())
    pieces = mark(note.body[:MAX_EVIDENCE_CHARS], quoted)
    context = None
    for sentence in quoted:
        context = in_context(workspace, address, sentence, page)
        if context is not None:
            break
    if note.citekey and note.citekey.endswith(ABSTRACT_SUFFIX):
        kind = EvidenceKind.ABSTRACT
    elif context is not None:
        kind = EvidenceKind.SOURCE
    elif note.citekey:
        kind = EvidenceKind.ABSTRACT
    else:
        kind = EvidenceKind.NOTE
    where = context.page if context is not None else page
    if _has_reference(workspace, note.citekey):
        citation = context.citation if context else (cite(workspace, note, page) or label)
    else:  # no references entry: the note's name, not its bare citekey
        citation = f"{label}, p. {where}" if where is not None and note.citekey else label
    hidden = (
        hidden_lines(workspace.root, note.citekey, context.page)
        if context is not None and note.citekey
        else 0
    )
    return Evidence(address, label, title, kind, citation, pieces, context, hidden)


def mark(text: str, quoted: Sequence[str]) -> tuple[Piece, ...]:
    """`text` (whitespace collapsed) cut into pieces, each quoted sentence found marked."""
    flat = " ".join(text.split())
    spans: list[tuple[int, int]] = []
    for sentence in quoted:
        said = " ".join(sentence.split())
        at = flat.find(said) if said else -1
        if at < 0:
            at = flat.lower().find(said.lower()) if said else -1
        if at >= 0:
            spans.append((at, at + len(said)))
    pieces: list[Piece] = []
    cursor = 0
    for start, end in sorted(spans):
        if start < cursor:  # overlapping quotes: extend the last mark
            start = cursor
        if start > cursor:
            pieces.append(Piece(flat[cursor:start]))
        if end > start:
            pieces.append(Piece(flat[start:end], quoted=True))
        cursor = max(cursor, end)
    if cursor < len(flat):
        pieces.append(Piece(flat[cursor:]))
    return tuple(pieces)
