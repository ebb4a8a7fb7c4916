"""A page's furniture told from its prose by how the lines stand: headings, table rows,
captions and footnote marks.

The reader's eye does not read a heading, a table row or a caption into the sentence next
to it, nor a raised footnote digit into the word it follows. Each heading, row and caption
is set apart as a paragraph of its own (a blank line around it), so no sentence runs into
it, and passages leave such paragraphs out (`engine.text.sentences.is_furniture`). A raised
small digit after a word or a closing mark is a footnote mark and is dropped; one after a
digit, a single letter or a unit is an exponent and stays (10⁵, R², cm²).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.importers.canvas import Glyph
from engine.importers.page_layout import goes_on
from engine.text.sentences import CAPTION_START, ends_terminated

# A footnote mark is at most this share of the line's size, raised at least this share.
MARK_SIZE = 0.8
MARK_RISE = 0.2
_MARKS = frozenset("0123456789*†‡§¶,")
_CLOSERS = frozenset(".,;:)]\"'\u201d\u2019")
_UNITS = frozenset({"cm", "mm", "km", "nm", "dm", "µm", "μm", "ft", "in"})
# A gap this many sizes wide between two glyphs separates table cells, not words.
CELL_GAP = 1.5
# A heading is set larger than the body by this share, or is shorter than this share of
# the page's usual line; and has at most this many words.
HEADING_SIZE = 1.15
HEADING_WIDTH = 0.6
HEADING_WORDS = 12
CAPTION_LINES = 4


def unmarked(ordered: Sequence[Glyph]) -> list[Glyph]:
    """The glyphs of one line (in position order) without its footnote marks."""
    if not ordered:
        return []
    body = max(g.size for g in ordered)
    base = next(g.across for g in ordered if g.size >= 0.9 * body)
    raised = [
        g.size <= MARK_SIZE * body and g.across - base >= MARK_RISE * body and g.text in _MARKS
        for g in ordered
    ]
    out: list[Glyph] = []
    i = 0
    while i < len(ordered):
        if not raised[i]:
            out.append(ordered[i])
            i += 1
            continue
        j = i
        while j < len(ordered) and raised[j]:
            j += 1
        if not _marks_a_word(out):
            out.extend(ordered[i:j])
        i = j
    return out


def _marks_a_word(before: list[Glyph]) -> bool:
    """Whether raised digits after the glyphs `before` mark a footnote."""
    if not before:
        return False
    last = before[-1].text
    if last in _CLOSERS:
        return True
    word = ""
    for glyph in reversed(before):
        if not glyph.text.isalpha():
            break
        word = glyph.text + word
    return len(word) >= 2 and word.lower() not in _UNITS


@dataclass(frozen=True)
class LineShape:
    """One line's text and how it stands: its size, extent and table-cell count."""

    text: str
    size: float
    width: float
    cells: int
    edge: bool = False  # in the page's top or bottom band, where running lines sit

    @classmethod
    def of(cls, text: str, ordered: Sequence[Glyph], *, edge: bool = False) -> LineShape:
        inked = [g for g in ordered if not g.text.isspace()]
        size = max((g.size for g in inked), default=0.0)
        wide = sum(1 for a, b in itertools.pairwise(inked) if b.along - a.end >= CELL_GAP * size)
        width = inked[-1].end - inked[0].along if inked else 0.0
        return cls(text, size, width, wide + 1, edge)


def paragraphs(lines: Sequence[LineShape]) -> str:
    """The page's lines as text, each heading, table row and caption a paragraph of its own."""
    if not lines:
        return ""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.size, 1)] += len(line.text)
    body = sizes.most_common(1)[0][0]
    widths = sorted(line.width for line in lines if abs(line.size - body) <= 0.1 * body)
    usual = widths[int(0.9 * (len(widths) - 1))] if widths else 0.0
    parts: list[str] = []
    caption: LineShape | None = None
    left = 0
    apart = True  # the previous line ended a paragraph or a sentence
    for n, line in enumerate(lines):
        after = next((x.text for x in lines[n + 1 :] if not x.edge), "")
        if line.edge and not (apart and _heading(line, after, body, usual)):
            # A running line may be drawn anywhere among the others; it is judged (and
            # left out) across pages, so it neither ends nor opens a paragraph here.
            parts.extend([line.text, "\n"])
            continue
        if caption is not None and abs(line.size - caption.size) <= 0.05 * caption.size:
            left -= 1
            caption = None if ends_terminated(line.text) or not left else caption
            parts.extend([line.text, "\n" if caption else "\n\n"])
            apart = caption is None
            continue
        if caption is not None:
            parts.append("\n")
            caption, apart = None, True
        if apart and CAPTION_START.match(line.text):
            goes = not ends_terminated(line.text) and (
                abs(line.size - body) > 0.05 * body or line.width >= HEADING_WIDTH * usual
            )
            caption, left = (line, CAPTION_LINES - 1) if goes else (None, 0)
            parts.extend(["\n", line.text, "\n" if goes else "\n\n"])
            apart = not goes
            continue
        if _table_row(line) or (apart and _heading(line, after, body, usual)):
            parts.extend(["\n", line.text, "\n\n"])
            apart = True
            continue
        parts.extend([line.text, "\n"])
        apart = ends_terminated(line.text)
    return "".join(parts).strip()


def _table_row(line: LineShape) -> bool:
    words = len(line.text.split())
    return line.cells >= 3 and words <= 4 * line.cells


def _heading(line: LineShape, after: str, body: float, usual: float) -> bool:
    text = line.text.rstrip()
    if not after[:1].isupper() and not after[:1].isdigit():
        return False
    if len(text.split()) > HEADING_WORDS or text.endswith((".", "!", "?", ";", ",")):
        return False
    if goes_on(text):
        return False
    return line.size >= HEADING_SIZE * body or line.width < HEADING_WIDTH * usual
