"""A page's painted glyphs read as lines, each in the order a reader's eye goes along it.

Lines come out in the order the page draws them (so the columns of a two-column paper stay
apart, as they are drawn one after the other), but the glyphs of one line are ordered by
where they stand on it, never by when they were drawn: a "not" drawn after the rest of
its line still reads where it stands. A glyph drawn later on the baseline of an earlier
line, within that line's run, joins it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.importers.canvas import Glyph, PagePaint
from engine.importers.furniture import LineShape, paragraphs, unmarked

# A glyph is on a line when its baseline is within this share of the font size of it
# (superscripts and subscripts stay on their line; the next line is a full size away).
ACROSS = 0.5
# A glyph drawn later joins an earlier line when it stands within this many sizes of it.
REACH = 0.8
# A gap wider than this share of the font size between two glyphs, beyond the line's own
# letter spacing, is a word space.
WORD_GAP = 0.12
# A line's letter spacing is read from its gaps (the lower TRACKING_SHARE of them, most
# gaps being inside words) once it has at least TRACKING_GAPS of them.
TRACKING_SHARE = 0.4
TRACKING_GAPS = 6
# The top and bottom bands of a page, where running headers and footers sit: this share
# of its height.
BAND = 0.15
_BUCKET = 8.0


@dataclass
class _Line:
    turn: int
    across: float
    size: float
    lo: float
    hi: float
    glyphs: list[Glyph] = field(default_factory=list)

    def add(self, glyph: Glyph) -> None:
        self.glyphs.append(glyph)
        self.lo, self.hi = min(self.lo, glyph.along), max(self.hi, glyph.end)

    def holds(self, glyph: Glyph, *, reach: float | None) -> bool:
        size = max(self.size, glyph.size)
        if glyph.turn != self.turn or abs(glyph.across - self.across) > ACROSS * size:
            return False
        if reach is None:
            return True
        return self.lo - reach * size <= glyph.along and glyph.along <= self.hi + reach * size


@dataclass(frozen=True)
class PageLines:
    """A page's visible text, line by line, how many lines of hidden text it had, and the
    lines (as text) that sit in its top or bottom band."""

    text: str
    hidden_lines: int
    edges: frozenset[str] = frozenset()
    # Whether lines stand between the bands: only then can a band line drawn anywhere in
    # the page's order be a running line rather than the page's own text.
    bodied: bool = False


def read_page(paint: PagePaint) -> PageLines:
    """The visible glyphs of `paint` as text in reading order; hidden lines counted."""
    visible = [g for g, why in zip(paint.glyphs, paint.hidden, strict=True) if why is None]
    hidden = [
        g
        for g, why in zip(paint.glyphs, paint.hidden, strict=True)
        if why is not None and g.text.strip()
    ]
    shapes, edges = [], set()
    low, high = paint.box[1], paint.box[3]
    band = BAND * (high - low)
    drawn = lines_of(visible)
    between = [low + band < line.across < high - band for line in drawn]
    # A page's bands hold running lines wherever they were drawn only beside a body: on a
    # page whose every line sits in a band (a short note, five lines at the top), a line
    # repeated on other pages is its text; only its first and last lines may be running.
    body = any(line.turn == 0 and inside for line, inside in zip(drawn, between, strict=True))
    for line, inside in zip(drawn, between, strict=True):
        ordered = unmarked(sorted(line.glyphs, key=lambda g: g.along))
        text = _line_text(ordered)
        if not text:
            continue
        edge = line.turn == 0 and not inside
        shapes.append(LineShape.of(text, ordered, edge=edge))
        if edge:
            edges.add(" ".join(text.split()))
    if not body:
        # Only the first and last lines may be running there, so only they stand aside
        # while the page's headings and paragraphs are told.
        inner = slice(1, len(shapes) - 1)
        shapes[inner] = [replace(shape, edge=False) for shape in shapes[inner]]
    return PageLines(paragraphs(shapes), len(lines_of(hidden)), frozenset(edges), body)


def lines_of(glyphs: Sequence[Glyph]) -> list[_Line]:
    """Glyphs grouped into lines, lines in the order their first glyph was drawn."""
    lines: list[_Line] = []
    index: dict[tuple[int, int], list[_Line]] = {}
    current: _Line | None = None
    for glyph in glyphs:
        if current is not None and current.holds(glyph, reach=None):
            current.add(glyph)
            continue
        current = _earlier(index, glyph)
        if current is None:
            current = _Line(glyph.turn, glyph.across, glyph.size, glyph.along, glyph.end)
            lines.append(current)
            index.setdefault(_key(glyph.turn, glyph.across), []).append(current)
        current.add(glyph)
    return lines


def _earlier(index: dict[tuple[int, int], list[_Line]], glyph: Glyph) -> _Line | None:
    turn, bucket = _key(glyph.turn, glyph.across)
    for near in (bucket, bucket - 1, bucket + 1, bucket - 2, bucket + 2):
        for line in index.get((turn, near), ()):
            if line.holds(glyph, reach=REACH):
                return line
    return None


def _key(turn: int, across: float) -> tuple[int, int]:
    return turn, int(across // _BUCKET)


def _line_text(ordered: Sequence[Glyph]) -> str:
    """A line's glyphs as text, a space where a gap is wider than a word space.

    A letter-spaced line (tracking set for a heading, or a justified line spread letter by
    letter) has every gap inside its words widened alike: the gap a word space needs is
    measured above that line's own spacing, so "b y" reads "by".
    """
    glyphs: list[Glyph] = []
    for glyph in ordered:
        last = glyphs[-1] if glyphs else None
        if (
            last is not None
            and glyph.text == last.text
            and glyph.along - last.along < 0.1 * glyph.size
        ):
            continue  # the same glyph painted twice (a bold effect), read once
        glyphs.append(glyph)
    tracking = _tracking(glyphs)
    parts = [glyphs[0].text] if glyphs else []
    for last, glyph in itertools.pairwise(glyphs):
        gap = _gap(last, glyph)
        size = max(glyph.size, last.size)
        if gap is not None and gap > tracking * size + WORD_GAP * size:
            parts.append(" ")
        parts.append(glyph.text)
    return "".join(parts).strip()


def _tracking(glyphs: Sequence[Glyph]) -> float:
    """A line's letter spacing as a share of its font size (0 for a line set tight).

    Gaps beside a painted space are the space's own and are left out; a line with
    fewer than TRACKING_GAPS gaps is read as set tight.
    """
    gaps = sorted(
        gap / max(glyph.size, last.size, 1e-6)
        for last, glyph in itertools.pairwise(glyphs)
        if (gap := _gap(last, glyph)) is not None
    )
    if len(gaps) < TRACKING_GAPS:
        return 0.0
    return max(0.0, gaps[int(TRACKING_SHARE * (len(gaps) - 1))])


def _gap(last: Glyph, glyph: Glyph) -> float | None:
    """The room between two glyphs side by side; None beside a painted space, whose own
    width is the word space."""
    if glyph.text.isspace() or last.text.isspace():
        return None
    return glyph.along - last.end
