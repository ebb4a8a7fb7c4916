"""A quoted sentence in its context: the sentences around it on its page, and its citation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.workspace.passages import prose_spans
from engine.workspace.references import cite
from engine.workspace.stores import Workspace

CONTEXT_CHARS = 400
PAGE_CHARS = 8000


@dataclass(frozen=True)
class InContext:
    """Where a restated sentence stands in its source: citation, page, and its neighbours."""

    address: str
    citation: str
    page: int
    before: str
    sentence: str
    after: str
    # The whole page as its lines stand (a heading on its own line, a blank line between
    # paragraphs), spaces within a line collapsed, cut at PAGE_CHARS.
    page_text: str = ""

    def page_parts(self) -> tuple[str, str, str] | None:
        """The page before the sentence, the sentence as the page has it, and the rest.

        The page keeps its line breaks and the sentence does not, so the sentence is found
        with any run of white space between its words. None when it is not on the page
        (the page was cut at PAGE_CHARS before it).
        """
        words = self.sentence.split()
        if not self.page_text or not words:
            return None
        found = re.search(r"\s+".join(map(re.escape, words)), self.page_text)
        if found is None:
            return None
        text = self.page_text
        return text[: found.start()], found.group(), text[found.end() :]

    def to_dict(self) -> dict[str, object]:
        return {
            "address": self.address,
            "citation": self.citation,
            "page": self.page,
            "before": self.before,
            "sentence": self.sentence,
            "after": self.after,
            "page_text": self.page_text,
        }


def in_context(
    workspace: Workspace, address: str, said: str, page: int | None = None
) -> InContext | None:
    """`said` found in the source text of the note at `address`, with the sentences around it.

    `page` (where the quote check found it) narrows the search to that page. None when the
    note names no source, the source is unreadable, or the text is not found within one
    sentence of it (whitespace aside).
    """
    note = workspace.note(address)
    if note is None or not note.citekey:
        return None
    text = workspace.source_text(note.citekey)
    if text is None:
        return None
    flat_said = " ".join(said.split())
    for number, chunk in enumerate(text.split("\f"), start=1):
        if page is not None and number != page:
            continue
        spans = prose_spans(chunk)  # a heading or a table row is no neighbour
        pieces = [" ".join(chunk[s.start : s.end].split()) for s in spans]
        for i, piece in enumerate(pieces):
            if flat_said and flat_said in piece:
                return InContext(
                    address,
                    cite(workspace, note, number) or note.citekey,
                    number,
                    _tail(pieces[max(0, i - 1) : i]),
                    piece,
                    _head(pieces[i + 1 : i + 2]),
                    _head([_page(chunk)], PAGE_CHARS),
                )
    return None


def _page(chunk: str) -> str:
    """The page's lines with their spaces collapsed; one blank line between paragraphs."""
    lines = [" ".join(line.split()) for line in chunk.strip().split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


def _tail(pieces: list[str]) -> str:
    text = " ".join(pieces)
    return text if len(text) <= CONTEXT_CHARS else "…" + text[-CONTEXT_CHARS:]


def _head(pieces: list[str], limit: int = CONTEXT_CHARS) -> str:
    text = " ".join(pieces)
    return text if len(text) <= limit else text[:limit] + "…"
