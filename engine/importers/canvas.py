"""The page as painted so far: what lies under each point, and the judgement of each glyph.

A glyph is hidden from a reader when it is too small, off the page, clipped away, painted
invisibly (unless over an image: the text layer of a scan), transparent, in the colour of
what lies under it (the bare page is white), or covered by an opaque box painted later.
Geometry is in device space (the page's default user space); boxes are bounding boxes, so
a clip or a fill is read no tighter than its bounds: text is dropped only when surely unseen.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in device space
Colour = tuple[float, float, float] | None  # RGB; None: a pattern or a space we cannot read
Point = tuple[float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
WHITE: Colour = (1.0, 1.0, 1.0)
# Below this effective size (points) a glyph is not text a reader can read.
MIN_SIZE = 3.0
# Colours closer than this (largest RGB difference) are the same to a reader's eye.
SAME_COLOUR = 0.12
# Fill opacity below this leaves a glyph unseen.
MIN_ALPHA = 0.1
_GRID = 24


class Hidden(StrEnum):
    """Why a glyph is not seen on the page."""

    INVISIBLE = "invisible"
    SAME_COLOUR = "same-colour"
    OFF_PAGE = "off-page"
    TINY = "tiny"
    CLIPPED = "clipped"
    COVERED = "covered"
    TRANSPARENT = "transparent"


@dataclass(frozen=True, slots=True)
class Glyph:
    """One painted glyph: its text, its run along the line, its baseline and effective size.

    `along` and `across` are device coordinates turned so that the text runs along the
    first; `turn` is the text's direction in degrees, so lines are built per direction.
    """

    text: str
    along: float
    end: float
    across: float
    size: float
    turn: int
    centre: Point


@dataclass(frozen=True, slots=True)
class Ink:
    """How one text run is painted: its size, render mode, colour, opacity and clip."""

    size: float
    mode: int
    colour: Colour
    alpha: float
    clip: Box | None
    on_white: bool  # the colour is the bare page's


@dataclass
class PagePaint:
    """The glyphs a page paints, in drawing order, and why each hidden one is hidden."""

    box: Box = (0.0, 0.0, 612.0, 792.0)  # the visible page: crop box within media box
    glyphs: list[Glyph] = field(default_factory=list)
    hidden: list[Hidden | None] = field(default_factory=list)


class Canvas:
    """What one page has painted so far, in a coarse grid, and the glyphs judged on it."""

    def __init__(self, page_box: Box) -> None:
        self.page_box = page_box
        self.out = PagePaint(page_box)
        x0, y0, x1, y1 = page_box
        self.cell_w = max((x1 - x0) / _GRID, 1.0)
        self.cell_h = max((y1 - y0) / _GRID, 1.0)
        # What is painted under each grid cell, latest last: (box, colour, is_image).
        self.regions: dict[tuple[int, int], list[tuple[Box, Colour, bool]]] = {}
        self.glyph_cells: dict[tuple[int, int], list[int]] = {}

    def painted(self, box: Box, colour: Colour, *, image: bool, covers: bool) -> None:
        """Record a fill or image; an opaque box hides the glyphs painted under it before."""
        inside = clip_box(box, self.page_box)
        if inside is None:
            return
        for key in self._cells(inside):
            self.regions.setdefault(key, []).append((inside, colour, image))
            if not covers:
                continue
            for index in self.glyph_cells.get(key, ()):
                glyph = self.out.glyphs[index]
                if self.out.hidden[index] is None and _covers(inside, glyph):
                    self.out.hidden[index] = Hidden.COVERED

    def glyph(self, glyph: Glyph, ink: Ink, run: Hidden | None) -> None:
        """Add `glyph`, painted with `ink`; `run` is the judgement its whole run already had."""
        cell = self._cell(glyph.centre)
        hidden = run if run is not None else self._judge(glyph.centre, cell, ink)
        self.out.hidden.append(hidden)
        if hidden is None:
            self.glyph_cells.setdefault(cell, []).append(len(self.out.glyphs))
        self.out.glyphs.append(glyph)

    @staticmethod
    def judge_run(ink: Ink) -> Hidden | None:
        """What hides every glyph of a run, whatever lies under it; None: judge each glyph."""
        if ink.size < MIN_SIZE:
            return Hidden.TINY
        if ink.mode not in (3, 7) and ink.alpha < MIN_ALPHA:
            return Hidden.TRANSPARENT
        return None

    def _judge(self, centre: Point, cell: tuple[int, int], ink: Ink) -> Hidden | None:
        if not inside(centre, self.page_box):
            return Hidden.OFF_PAGE
        if ink.clip is not None and not inside(centre, ink.clip):
            return Hidden.CLIPPED
        below = self._under(centre, cell)
        if below is not None and below[1]:
            return None  # over an image, even invisible text is the page's (a scan's OCR)
        if ink.mode in (3, 7):
            return Hidden.INVISIBLE
        same = ink.on_white if below is None else same_colour(ink.colour, below[0])
        return Hidden.SAME_COLOUR if same else None

    def _under(self, point: Point, cell: tuple[int, int]) -> tuple[Colour, bool] | None:
        """What was last painted under `point`: (colour, is_image), None for the bare page."""
        for box, colour, image in reversed(self.regions.get(cell, ())):
            if inside(point, box):
                return colour, image
        return None

    def _cells(self, box: Box) -> Iterator[tuple[int, int]]:
        i0, j0 = self._cell((box[0], box[1]))
        i1, j1 = self._cell((box[2], box[3]))
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                yield i, j

    def _cell(self, point: Point) -> tuple[int, int]:
        i = int((point[0] - self.page_box[0]) // self.cell_w)
        j = int((point[1] - self.page_box[1]) // self.cell_h)
        last = _GRID - 1
        return (0 if i < 0 else last if i > last else i), (0 if j < 0 else last if j > last else j)


def same_colour(one: Colour, two: Colour) -> bool:
    """True when a reader cannot tell the two colours apart (unknown colours differ)."""
    if one is None or two is None:
        return False
    return max(abs(a - b) for a, b in zip(one, two, strict=True)) < SAME_COLOUR


def _covers(box: Box, glyph: Glyph) -> bool:
    # A thin rule through a line (strikethrough, a table rule) leaves its glyphs readable.
    wide = box[2] - box[0] >= 0.5 * glyph.size
    return wide and box[3] - box[1] >= 0.5 * glyph.size and inside(glyph.centre, box)


def inside(point: Point, box: Box) -> bool:
    """True when `point` lies in `box` (edges included)."""
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def clip_box(one: Box, two: Box) -> Box | None:
    """The overlap of two boxes, None when they do not meet."""
    box = (max(one[0], two[0]), max(one[1], two[1]), min(one[2], two[2]), min(one[3], two[3]))
    return box if box[0] <= box[2] and box[1] <= box[3] else None


def bounds(points: list[Point]) -> Box | None:
    """The bounding box of `points`, None for none."""
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def unit_box(ctm: Matrix) -> Box:
    """Where the unit square (an image's space) lands under `ctm`."""
    corners = [apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
    return bounds(corners) or (0.0, 0.0, 0.0, 0.0)


def upright(m: Matrix) -> bool:
    """True when `m` keeps boxes axis-aligned (no skew or free rotation)."""
    return (abs(m[1]) < 1e-6 and abs(m[2]) < 1e-6) or (abs(m[0]) < 1e-6 and abs(m[3]) < 1e-6)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m × n, as PDF composes a transform applied first (m) with one applied after (n)."""
    return (
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    """The point (x, y) transformed by `m`."""
    return (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])


def within(inner: Box, outer: Box) -> bool:
    """True when `inner` lies wholly in `outer`."""
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def is_box(points: list[tuple[float, float]]) -> bool:
    """True for four corners (the first maybe repeated) on two x and two y values."""
    corners = points[:-1] if len(points) == 5 and points[0] == points[-1] else points
    xs, ys = {round(p[0], 2) for p in corners}, {round(p[1], 2) for p in corners}
    return len(corners) == 4 and len(xs) == 2 and len(ys) == 2


def rgb(nums: list[float]) -> Colour:
    """A gray, RGB or CMYK colour (by its number of components) as RGB; None otherwise."""
    if len(nums) == 1:
        return (nums[0], nums[0], nums[0])
    if len(nums) == 3:
        return (nums[0], nums[1], nums[2])
    if len(nums) == 4:
        c, m, y, k = nums
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return None
