"""What a page's resources say: its visible box, its fonts' codes as text and widths, its
colour spaces.

pypdf's `Font` (a private module of the pinned version) decodes a font resource the way
its own text extraction does: the encoding, the ToUnicode map, the glyph widths. Reading
glyphs one by one needs both the text of each code and how far it moves the pen.
"""

from __future__ import annotations

from typing import Any

from pypdf import PageObject
from pypdf.errors import PyPdfError
from pypdf.generic import ArrayObject, DictionaryObject, StreamObject
from pypdf.generic._font import Font

from engine.importers.canvas import Box


def load_font(fonts: DictionaryObject | None, name: str) -> tuple[Font, float] | None:
    """The font named `name` in a `/Font` resource and its glyph-space scale; None when it
    cannot be read (its text is then not read either, as pypdf's extraction shows it as
    replacement characters)."""
    found = fonts.get(name) if fonts is not None else None
    try:
        found = found.get_object() if found is not None else None
        if not isinstance(found, DictionaryObject):
            return None
        # A Type 3 font measures its glyphs in its own matrix; the others in thousandths.
        matrix = found.get("/FontMatrix") if found.get("/Subtype") == "/Type3" else None
        scale = abs(float(matrix[0])) if matrix is not None else 0.001
        return Font.from_font_resource(found), scale or 0.001
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def decode(font: Font, data: bytes) -> list[tuple[str, float, bool]]:
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


def page_box(page: PageObject) -> Box:
    """The visible page: the crop box within the media box."""
    media, crop = page.mediabox, page.cropbox
    boxes = [tuple(float(v) for v in (b.left, b.bottom, b.right, b.top)) for b in (media, crop)]
    (a0, a1, a2, a3), (b0, b1, b2, b3) = boxes
    return (
        max(min(a0, a2), min(b0, b2)),
        max(min(a1, a3), min(b1, b3)),
        min(max(a0, a2), max(b0, b2)),
        min(max(a1, a3), max(b1, b3)),
    )


def dictionary(value: Any) -> DictionaryObject:
    """`value` resolved as a dictionary; an empty one when it is not."""
    found = value.get_object() if value is not None else None
    return found if isinstance(found, DictionaryObject) else DictionaryObject()


def resource(resources: DictionaryObject, kind: str) -> DictionaryObject | None:
    """The `kind` dictionary (`/Font`, `/XObject` …) of `resources`, None when absent."""
    found = resources.get(kind)
    found = found.get_object() if found is not None else None
    return found if isinstance(found, DictionaryObject) else None


def colour_components(resources: DictionaryObject, name: Any) -> int:
    """Components of a colour space we can read as a colour (0: a pattern or unknown)."""
    known = {"/DeviceGray": 1, "/G": 1, "/DeviceRGB": 3, "/RGB": 3, "/DeviceCMYK": 4, "/CMYK": 4}
    if str(name) in known:
        return known[str(name)]
    spaces = resource(resources, "/ColorSpace")
    found = spaces.get(name) if spaces is not None else None
    found = found.get_object() if found is not None else None
    if isinstance(found, ArrayObject) and found and found[0] == "/ICCBased":
        profile = found[1].get_object() if len(found) > 1 else None
        count = profile.get("/N") if isinstance(profile, StreamObject) else None
        return int(count) if count in (1, 3, 4) else 0
    return known.get(str(found), 0)
