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
    mul,
    same_colour,
    unit_box,
    upright,
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
    sheet = _Sheet(reader, Canvas(_page_box(page)), set())
    _Stream(sheet, _dictionary(page.get("/Resources")), 0).run(page.get("/Contents"), _State())
    return sheet.canvas.out


@dataclass(frozen=True)
class _Sheet:
    """What every stream of one page shares: the reader, the canvas, the forms being drawn."""

    reader: PdfReader
    canvas: Canvas
    forms: set[int]


def _page_box(page: PageObject) -> Box:
    media, crop = page.mediabox, page.cropbox
    boxes = [tuple(float(v) for v in (b.left, b.bottom, b.right, b.top)) for b in (media, crop)]
    (a0, a1, a2, a3), (b0, b1, b2, b3) = boxes
    return (
        max(min(a0, a2), min(b0, b2)),
        max(min(a1, a3), min(b1, b3)),
        min(max(a0, a2), max(b0, b2)),
        min(max(a1, a3), max(b1, b3)),
    )


class _Stream:
    """One content stream (a page's or a form's) walked with its resources."""

    def __init__(self, sheet: _Sheet, resources: DictionaryObject, depth: int) -> None:
        self.sheet = sheet
        self.canvas = sheet.canvas
        self.resources = resources
        self.depth = depth
        self.fonts: dict[str, tuple[Font, float] | None] = {}
        self.path: list[tuple[float, float]] = []
        self.rect_only = True
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
            except (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError):
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
        elif op in ("m", "l"):
            self.path.append(apply(state.ctm, float(args[0]), float(args[1])))
            self.rect_only = False  # only `re` paths count as boxes that cover text
        elif op in ("c", "v", "y"):
            nums = [float(a) for a in args]
            self.path.extend(apply(state.ctm, nums[i], nums[i + 1]) for i in range(0, len(nums), 2))
            self.rect_only = False
        elif op == "re":
            x, y, w, h = (float(a) for a in args[:4])
            corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
            self.path.extend(apply(state.ctm, px, py) for px, py in corners)
            self.rect_only = self.rect_only and upright(state.ctm)
        elif op in ("W", "W*"):
            self.pending_clip = True
        elif op in _PAINT_OPS:
            return self.paint(op, state)
        elif op == "Do":
            self.draw(args, state)
        elif op == "INLINE IMAGE":
            self.canvas.painted(unit_box(state.ctm), None, image=True, covers=False)
        elif op == "sh":
            box = state.clip or self.canvas.page_box
            self.canvas.painted(box, None, image=True, covers=False)
        return state

    # -- paths -----------------------------------------------------------------------

    def paint(self, op: str, state: _State) -> _State:
        box = bounds(self.path)
        if box is not None and op not in ("S", "s", "n"):
            colour = state.fill if state.fill_space else None
            covers = self.rect_only and state.opaque and state.alpha >= 0.99
            self.canvas.painted(box, colour, image=False, covers=covers)
        if self.pending_clip:
            clip = box if box is not None else (0.0, 0.0, 0.0, 0.0)
            joined = clip if state.clip is None else clip_box(clip, state.clip)
            state = replace(state, clip=joined or (0.0, 0.0, 0.0, 0.0))
        self.path, self.rect_only, self.pending_clip = [], True, False
        return state

    def draw(self, args: list[Any], state: _State) -> None:
        xobjects = _resource(self.resources, "/XObject")
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
            space = _space_components(self.resources, args[0])
            black = _components([0.0] * space) if space else None
            if stroke:
                return replace(state, stroke=black, stroke_space=space)
            return replace(state, fill=black, fill_space=space)
        nums = [float(a) for a in args if isinstance(a, (int, float))]
        if op in ("sc", "scn", "SC", "SCN"):
            space = state.stroke_space if stroke else state.fill_space
            named = any(isinstance(a, NameObject) for a in args)
            value = None if named or not space or len(nums) != space else _components(nums)
        else:
            space = {"g": 1, "rg": 3, "k": 4}[op.lower()]
            value = _components(nums)
        if stroke:
            return replace(state, stroke=value, stroke_space=space)
        return replace(state, fill=value, fill_space=space)

    def ext_state(self, args: list[Any], state: _State) -> _State:
        states = _resource(self.resources, "/ExtGState")
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
            fonts = _resource(self.resources, "/Font")
            found = fonts.get(key) if fonts is not None else None
            found = found.get_object() if found is not None else None
            self.fonts[key] = None
            if isinstance(found, DictionaryObject):
                matrix = found.get("/FontMatrix") if found.get("/Subtype") == "/Type3" else None
                scale = abs(float(matrix[0])) if matrix is not None else 0.001
                self.fonts[key] = (Font.from_font_resource(found), scale or 0.001)
        return self.fonts[key]

    def show(self, data: Any, state: _State) -> None:
        if isinstance(data, str):
            data = data.encode("latin-1", "replace")
        if not isinstance(data, bytes) or state.font is None:
            return
        # The run's glyphs move along the text matrix's x axis only, so one matrix places all.
        m = mul(self.tm, state.ctm)
        a, b = m[0] * state.size * state.scale, m[1] * state.size * state.scale
        c, d = m[2] * state.size, m[3] * state.size
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
        for text, glyph_width, is_space in _decode(state.font, data):
            x, y = tx * m[0] + rise_x, tx * m[1] + rise_y
            advance = glyph_width * state.font_scale * state.size + state.char_space
            tx += (advance + (state.word_space if is_space else 0.0)) * state.scale
            ex, ey = tx * m[0] + rise_x, tx * m[1] + rise_y
            centre = ((x + ex) / 2 + up_x, (y + ey) / 2 + up_y)
            along, end = x * ux + y * uy, ex * ux + ey * uy
            glyph = Glyph(text, along, end, y * ux - x * uy, size, turn, centre)
            self.canvas.glyph(glyph, ink, run)
        self.tm = mul((1.0, 0.0, 0.0, 1.0, tx, 0.0), self.tm)


def _decode(font: Font, data: bytes) -> list[tuple[str, float, bool]]:
    """(text, width in glyph units, is a word space) for each code in `data`."""
    widths, cmap = font.character_widths, font.character_map
    default = widths.get("default", 500)
    if isinstance(font.encoding, str):
        try:
            chars = data.decode(font.encoding, "surrogatepass")
        except (UnicodeDecodeError, LookupError):
            chars = data.decode("latin-1")
        simple = len(chars) == len(data)
        return [
            (str(cmap.get(ch, ch)), widths.get(ch, default), simple and ch == " ") for ch in chars
        ]
    out = []
    for code in data:
        raw = chr(code)
        decoded = font.encoding.get(code, raw)
        out.append((str(cmap.get(decoded, decoded)), widths.get(raw, default), code == 32))
    return out


def _dictionary(value: Any) -> DictionaryObject:
    found = value.get_object() if value is not None else None
    return found if isinstance(found, DictionaryObject) else DictionaryObject()


def _resource(resources: DictionaryObject, kind: str) -> DictionaryObject | None:
    found = resources.get(kind)
    found = found.get_object() if found is not None else None
    return found if isinstance(found, DictionaryObject) else None


def _space_components(resources: DictionaryObject, name: Any) -> int:
    """Components of a colour space we can read as a colour (0: a pattern or unknown)."""
    known = {"/DeviceGray": 1, "/G": 1, "/DeviceRGB": 3, "/RGB": 3, "/DeviceCMYK": 4, "/CMYK": 4}
    if str(name) in known:
        return known[str(name)]
    spaces = _resource(resources, "/ColorSpace")
    found = spaces.get(name) if spaces is not None else None
    found = found.get_object() if found is not None else None
    if isinstance(found, ArrayObject) and found and found[0] == "/ICCBased":
        profile = found[1].get_object() if len(found) > 1 else None
        count = profile.get("/N") if isinstance(profile, StreamObject) else None
        return int(count) if count in (1, 3, 4) else 0
    return known.get(str(found), 0)


def _components(nums: list[float]) -> Colour:
    if len(nums) == 1:
        return (nums[0], nums[0], nums[0])
    if len(nums) == 3:
        return (nums[0], nums[1], nums[2])
    if len(nums) == 4:
        c, m, y, k = nums
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return None


def _matrix(args: list[Any]) -> Matrix:
    a, b, c, d, e, f = (float(x) for x in args[:6])
    return (a, b, c, d, e, f)


_TEXT_OPS = frozenset(
    ("BT", "ET", "Tf", "Td", "TD", "Tm", "T*", "Tc", "Tw", "Tz", "TL", "Tr", "Ts", "Tj", "TJ", "'")
) | {'"'}
_COLOUR_OPS = frozenset(("g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN"))
_PAINT_OPS = frozenset(("f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n"))
