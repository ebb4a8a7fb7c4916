"""What a PDF page paints: every glyph, where it lands, and whether a reader can see it.

A PDF's text layer holds glyphs no reader sees: invisible text (render mode 3 or 7), text
in the colour of what lies under it, text off the page, text too small to read, text
clipped away, text covered by an opaque box painted later. Extraction that trusts the text
layer lets such text ground an answer the page does not give, so each glyph is judged the
way the page is painted. One exception: a scanned, OCR'd page lays invisible text over the
page image, and that text *is* what the reader sees, so invisible text over an image stays.

Why our own interpreter over pypdf's parsed operations: pypdf (BSD, already the reader here)
parses the content stream and decodes fonts, but its text visitor reports runs without
render mode, colour or clip, and after it has merged them in drawing order. pdfminer.six
(MIT) gives per-character colour and size but neither render mode nor clip nor what is
painted later, so it would need the same interpreter on top, plus a second parser in the
worker's time budget. Walking `ContentStream.operations` here keeps one parser and sees
every operator. Fonts are decoded with pypdf's `Font` (pinned version), as its extractor does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from pypdf import PageObject, PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, NameObject, StreamObject
from pypdf.generic._font import Font

from engine.importers.canvas import (
    IDENTITY,
    WHITE,
    Box,
    Canvas,
    Colour,
    Glyph,
    Ink,
    Matrix,
    PagePaint,
    apply,
    bounds,
    clip_box,
    is_box,
    mul,
    rgb,
    same_colour,
    unit_box,
    upright,
    within,
)
from engine.importers.resources import (
    colour_components,
    decode,
    dictionary,
    load_font,
    page_box,
    resource,
)

MAX_FORM_DEPTH = 8


@dataclass(frozen=True)
class _State:
    ctm: Matrix = IDENTITY
    fill: Colour = (0.0, 0.0, 0.0)
    stroke: Colour = (0.0, 0.0, 0.0)
    fill_space: int = 1
    stroke_space: int = 1
    alpha: float = 1.0
    opaque: bool = True
    clip: Box | None = None
    font: Font | None = None
    font_scale: float = 0.001
    size: float = 0.0
    char_space: float = 0.0
    word_space: float = 0.0
    scale: float = 1.0
    leading: float = 0.0
    mode: int = 0
    rise: float = 0.0


def paint_page(page: PageObject, reader: PdfReader) -> PagePaint:
    """Every glyph `page` paints, each judged visible or hidden (with the reason)."""
    sheet = _Sheet(reader, Canvas(page_box(page)), set())
    _Stream(sheet, dictionary(page.get("/Resources")), 0).run(page.get("/Contents"), _State())
    return sheet.canvas.out


@dataclass(frozen=True)
class _Sheet:
    """What every stream of one page shares: the reader, the canvas, the forms being drawn."""

    reader: PdfReader
    canvas: Canvas
    forms: set[int]


class _Stream:
    """One content stream (a page's or a form's) walked with its resources."""

    def __init__(self, sheet: _Sheet, resources: DictionaryObject, depth: int) -> None:
        self.sheet = sheet
        self.canvas = sheet.canvas
        self.resources = resources
        self.depth = depth
        self.fonts: dict[str, tuple[Font, float] | None] = {}
        # The current path as subpaths of device points, and which of them are `re` boxes.
        self.subpaths: list[list[tuple[float, float]]] = []
        self.boxes: list[bool] = []
        self.curved = False
        self.pending_clip = False
        self.tm = self.tlm = IDENTITY

    def run(self, contents: Any, state: _State) -> None:
        """Walk `contents` (a stream, an array of streams or a reference) from `state`."""
        target = contents.get_object() if contents is not None else None
        if isinstance(target, ContentStream):
            stream = target
        elif isinstance(target, (ArrayObject, StreamObject)):
            stream = ContentStream(target, self.sheet.reader, "bytes")
        else:
            return
        stack: list[_State] = []
        for operands, operator in stream.operations:
            op = operator.decode("latin-1") if isinstance(operator, bytes) else str(operator)
            try:
                state = self.step(op, operands, state, stack)
            except (PyPdfError, TypeError, ValueError, IndexError, KeyError, AttributeError):
                continue  # a malformed operator paints nothing; the rest of the page still counts

    def step(self, op: str, args: list[Any], state: _State, stack: list[_State]) -> _State:
        if op in _TEXT_OPS:
            return self.text(op, args, state)
        if op == "q":
            stack.append(state)
        elif op == "Q":
            return stack.pop() if stack else state
        elif op == "cm":
            return replace(state, ctm=mul(_matrix(args), state.ctm))
        elif op in _COLOUR_OPS:
            return self.colour(op, args, state)
        elif op == "gs":
            return self.ext_state(args, state)
        elif op == "m":
            self.subpaths.append([apply(state.ctm, float(args[0]), float(args[1]))])
            self.boxes.append(False)
        elif op == "l" and self.subpaths:
            self.subpaths[-1].append(apply(state.ctm, float(args[0]), float(args[1])))
        elif op in ("c", "v", "y") and self.subpaths:
            nums = [float(a) for a in args]
            points = (apply(state.ctm, nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2))
            self.subpaths[-1].extend(points)
            self.curved = True
        elif op == "re":
            x, y, w, h = (float(a) for a in args[:4])
            corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
            self.subpaths.append([apply(state.ctm, px, py) for px, py in corners])
            self.boxes.append(upright(state.ctm))
        elif op in ("W", "W*"):
            self.pending_clip = True
        elif op in _PAINT_OPS:
            return self.paint(op, state)
        elif op == "Do":
            self.draw(args, state)
        elif op == "INLINE IMAGE":
            self.canvas.painted(unit_box(state.ctm), None, image=True, covers=False)
        elif op == "sh":
            # A shading fills the clip with changing colours: a background, not a scan.
            box = state.clip or self.canvas.page_box
            self.canvas.painted(box, None, image=False, covers=False)
        return state

    # -- paths -----------------------------------------------------------------------

    def paint(self, op: str, state: _State) -> _State:
        if op not in ("S", "s", "n"):
            colour = state.fill if state.fill_space else None
            opaque = state.opaque and state.alpha >= 0.99
            for box, exact in self.filled():
                self.canvas.painted(box, colour, image=False, covers=exact and opaque)
        if self.pending_clip:
            clip = bounds([p for sub in self.subpaths for p in sub]) or (0.0, 0.0, 0.0, 0.0)
            joined = clip if state.clip is None else clip_box(clip, state.clip)
            state = replace(state, clip=joined or (0.0, 0.0, 0.0, 0.0))
        self.subpaths, self.boxes, self.curved, self.pending_clip = [], [], False, False
        return state

    def filled(self) -> list[tuple[Box, bool]]:
        """The regions a fill of the current path paints: (box, is exactly that box).

        Each `re` box is its own region, and so is one drawn as a closed four-cornered
        outline; a single other shape counts by its bounds but covers nothing; several
        shapes in one fill (a frame, a ring) are too unlike their bounds to count at all.
        """
        if all(self.boxes):
            boxes = [box for sub in self.subpaths if (box := bounds(sub)) is not None]
            # Frames are a few boxes; a chart's hundred bars in one fill are not nested.
            nested = len(boxes) <= 16 and any(
                within(one, two) for one in boxes for two in boxes if one is not two
            )
            if nested:
                return []  # a box inside a box: a frame, its inside left unpainted
            return [(box, True) for box in boxes]
        if len(self.subpaths) != 1:
            return []
        box = bounds(self.subpaths[0])
        if box is None:
            return []
        return [(box, not self.curved and is_box(self.subpaths[0]))]

    def draw(self, args: list[Any], state: _State) -> None:
        xobjects = resource(self.resources, "/XObject")
        target = xobjects.get(args[0]) if xobjects is not None else None
        stream = target.get_object() if target is not None else None
        if not isinstance(stream, StreamObject):
            return
        if stream.get("/Subtype") == "/Image":
            self.canvas.painted(unit_box(state.ctm), None, image=True, covers=False)
            return
        key = id(stream)  # pypdf resolves a reference to one object, so a cycle repeats it
        if self.depth >= MAX_FORM_DEPTH or key in self.sheet.forms:
            return
        self.sheet.forms.add(key)
        try:
            matrix = stream.get("/Matrix")
            ctm = mul(_matrix(list(matrix)), state.ctm) if matrix is not None else state.ctm
            form = _Stream(self.sheet, self._form_resources(stream), self.depth + 1)
            form.run(stream, replace(state, ctm=ctm))
        finally:
            self.sheet.forms.discard(key)

    def _form_resources(self, stream: StreamObject) -> DictionaryObject:
        own = stream.get("/Resources")
        own = own.get_object() if own is not None else None
        return own if isinstance(own, DictionaryObject) else self.resources

    # -- colour and state ------------------------------------------------------------

    def colour(self, op: str, args: list[Any], state: _State) -> _State:
        stroke = op.isupper() or op in ("SC", "SCN", "CS")
        if op in ("cs", "CS"):
            space = colour_components(self.resources, args[0])
            black = rgb([0.0] * space) if space else None
            if stroke:
                return replace(state, stroke=black, stroke_space=space)
            return replace(state, fill=black, fill_space=space)
        nums = [float(a) for a in args if isinstance(a, (int, float))]
        if op in ("sc", "scn", "SC", "SCN"):
            space = state.stroke_space if stroke else state.fill_space
            named = any(isinstance(a, NameObject) for a in args)
            value = None if named or not space or len(nums) != space else rgb(nums)
        else:
            space = {"g": 1, "rg": 3, "k": 4}[op.lower()]
            value = rgb(nums)
        if stroke:
            return replace(state, stroke=value, stroke_space=space)
        return replace(state, fill=value, fill_space=space)

    def ext_state(self, args: list[Any], state: _State) -> _State:
        states = resource(self.resources, "/ExtGState")
        found = states.get(args[0]) if states is not None else None
        found = found.get_object() if found is not None else None
        if not isinstance(found, DictionaryObject):
            return state
        alpha = found.get("/ca")
        blend = found.get("/BM")
        if isinstance(blend, ArrayObject):
            blend = blend[0] if blend else None
        masked = found.get("/SMask") not in (None, "/None")
        opaque = blend in (None, "/Normal", "/Compatible") and not masked
        if isinstance(alpha, (int, float)):
            state = replace(state, alpha=float(alpha))
        return replace(state, opaque=opaque)

    # -- text ------------------------------------------------------------------------

    def text(self, op: str, args: list[Any], state: _State) -> _State:
        if op == "BT":
            self.tm = self.tlm = IDENTITY
        elif op == "Tf":
            font = self.font(args[0])
            size = float(args[1])
            return replace(
                state,
                font=font[0] if font else None,
                font_scale=font[1] if font else 0.001,
                size=size,
            )
        elif op in ("Td", "TD"):
            tx, ty = float(args[0]), float(args[1])
            self.tm = self.tlm = mul((1.0, 0.0, 0.0, 1.0, tx, ty), self.tlm)
            if op == "TD":
                return replace(state, leading=-ty)
        elif op == "Tm":
            self.tm = self.tlm = _matrix(args)
        elif op == "T*":
            self.next_line(state)
        elif op == "Tc":
            return replace(state, char_space=float(args[0]))
        elif op == "Tw":
            return replace(state, word_space=float(args[0]))
        elif op == "Tz":
            return replace(state, scale=float(args[0]) / 100.0)
        elif op == "TL":
            return replace(state, leading=float(args[0]))
        elif op == "Tr":
            return replace(state, mode=int(args[0]))
        elif op == "Ts":
            return replace(state, rise=float(args[0]))
        elif op == "Tj":
            self.show(args[0], state)
        elif op == "'":
            self.next_line(state)
            self.show(args[0], state)
        elif op == '"':
            state = replace(state, word_space=float(args[0]), char_space=float(args[1]))
            self.next_line(state)
            self.show(args[2], state)
        elif op == "TJ":
            for item in args[0]:
                if isinstance(item, (int, float)):
                    shift = -float(item) / 1000.0 * state.size * state.scale
                    self.tm = mul((1.0, 0.0, 0.0, 1.0, shift, 0.0), self.tm)
                else:
                    self.show(item, state)
        return state

    def next_line(self, state: _State) -> None:
        self.tm = self.tlm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -state.leading), self.tlm)

    def font(self, name: Any) -> tuple[Font, float] | None:
        key = str(name)
        if key not in self.fonts:
            self.fonts[key] = load_font(resource(self.resources, "/Font"), key)
        return self.fonts[key]

    def show(self, data: Any, state: _State) -> None:
        if isinstance(data, str):
            data = data.encode("latin-1", "replace")
        if not isinstance(data, bytes) or state.font is None:
            return
        # The run's glyphs move along the text matrix's x axis only, so one matrix places all.
        m = mul(self.tm, state.ctm)
        # A Type 3 font's own matrix scales its glyphs as much as the font size does.
        em = state.size * state.font_scale * 1000
        a, b = m[0] * em * state.scale, m[1] * em * state.scale
        c, d = m[2] * em, m[3] * em
        width, height = math.hypot(a, b), math.hypot(c, d)
        size = min(height, width) if state.scale < 1 else height
        ux, uy = (a / width, b / width) if width else (1.0, 0.0)
        turn = round(math.degrees(math.atan2(uy, ux))) % 360
        colour = state.stroke if state.mode in (1, 5) else state.fill
        ink = Ink(size, state.mode, colour, state.alpha, state.clip, same_colour(colour, WHITE))
        run = Canvas.judge_run(ink)
        rise_x, rise_y = state.rise * m[2] + m[4], state.rise * m[3] + m[5]
        up_x, up_y = 0.3 * c, 0.3 * d
        tx = 0.0
        for text, glyph_width, is_space in decode(state.font, data):
            x, y = tx * m[0] + rise_x, tx * m[1] + rise_y
            advance = glyph_width * state.font_scale * state.size + state.char_space
            tx += (advance + (state.word_space if is_space else 0.0)) * state.scale
            ex, ey = tx * m[0] + rise_x, tx * m[1] + rise_y
            centre = ((x + ex) / 2 + up_x, (y + ey) / 2 + up_y)
            along, end = x * ux + y * uy, ex * ux + ey * uy
            glyph = Glyph(text, along, end, y * ux - x * uy, size, turn, centre)
            self.canvas.glyph(glyph, ink, run)
        self.tm = mul((1.0, 0.0, 0.0, 1.0, tx, 0.0), self.tm)


def _matrix(args: list[Any]) -> Matrix:
    a, b, c, d, e, f = (float(x) for x in args[:6])
    return (a, b, c, d, e, f)


_TEXT_OPS = frozenset(
    ("BT", "ET", "Tf", "Td", "TD", "Tm", "T*", "Tc", "Tw", "Tz", "TL", "Tr", "Ts", "Tj", "TJ", "'")
) | {'"'}
_COLOUR_OPS = frozenset(("g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN"))
_PAINT_OPS = frozenset(("f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n"))
