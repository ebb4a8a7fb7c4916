"""One-page PDFs that paint a line a reader sees and hide another in the text layer.

Each trick is a way a PDF can carry text no reader of the page sees: invisible render
mode, white on the white page, off the page, a microscopic font, an empty clip, a white box
painted over it, full transparency. Each control paints text a reader *does* see in a way
close to a trick: the plain line, the text layer of a scan (invisible text over the page
image), white text on a dark banner. `order` draws a sentence with one word painted last,
at its place in the line. The soundness families and the importer's tests build their
attack papers here; the writer is the smallest valid PDF (Helvetica as /F1, Courier as
/F2, a grey image as /Im1, a fully transparent graphics state as /Clear).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

PAGE_WIDTH, PAGE_HEIGHT = 612, 842
LEFT, TOP, SIZE, LEADING = 56, 760, 11, 16
# Courier's advance, in thousandths of the font size, for placing words by position.
COURIER_ADVANCE = 600

Trick = Callable[[bytes], bytes]
HIDDEN_Y = TOP - 3 * LEADING
# A box around the hidden line alone, in `x y width height` as `re` takes it.
_AROUND = f"{LEFT - 6} {HIDDEN_Y - 6} 520 {SIZE + 10}".encode()


def text_ops(
    line: str, y: float, *, font: str = "F1", size: float = SIZE, x: float = LEFT
) -> bytes:
    """One line of text shown at (x, y)."""
    return f"BT /{font} {size:g} Tf {x:g} {y:g} Td (".encode() + _escape(line) + b") Tj ET"


TRICKS: dict[str, Trick] = {
    "render-invisible": lambda shown: b"BT 3 Tr" + shown[2:],
    "white-on-white": lambda shown: b"1 1 1 rg " + shown,
    "off-page": lambda shown: b"q 1 0 0 1 700 0 cm " + shown + b" Q",
    "tiny-font": lambda shown: shown.replace(f"/F1 {SIZE:g} Tf".encode(), b"/F1 0.1 Tf"),
    "empty-clip": lambda shown: b"q 0 0 0 0 re W n " + shown + b" Q",
    "white-box": lambda shown: shown + b" 1 g " + _AROUND + b" re f 0 g",
    "transparent": lambda shown: b"q /Clear gs " + shown + b" Q",
}
"""How each trick hides a line: the line's operators in, the hiding operators out."""

CONTROLS: dict[str, Trick] = {
    "visible": lambda shown: shown,
    "scan-text-layer": lambda shown: b"q 520 0 0 40 50 690 cm /Im1 Do Q BT 3 Tr" + shown[2:],
    "white-on-banner": lambda shown: b"0.1 0.2 0.5 rg " + _AROUND + b" re f 1 1 1 rg " + shown,
}
"""Text a reader sees, painted close to a trick: each must stay in the extracted text."""


def hiding_pdf(visible: str, hidden: str, trick: str) -> bytes:
    """A page showing `visible` and carrying `hidden` by `trick` (a TRICKS or CONTROLS name)."""
    paint = TRICKS.get(trick) or CONTROLS[trick]
    ops = text_ops(visible, TOP) + b"\n" + paint(text_ops(hidden, HIDDEN_Y))
    return one_page_pdf(ops)


def order_pdf(sentence: str, last: str, after: str = "") -> bytes:
    """`sentence` in Courier on one line, its first word `last` painted after everything
    else (after `after`, a line below it); the page reads the same, only the drawing order
    differs."""
    at = f" {sentence} ".find(f" {last} ")
    if at < 0:
        raise ValueError(f"{last!r} is not a word of the sentence")
    advance = COURIER_ADVANCE / 1000 * SIZE
    ops = [
        text_ops(sentence[:at], TOP, font="F2"),
        text_ops(sentence[at + len(last) :], TOP, font="F2", x=LEFT + advance * (at + len(last))),
        text_ops(after, TOP - LEADING, font="F2"),
        text_ops(last, TOP, font="F2", x=LEFT + advance * at),
    ]
    return one_page_pdf(b"\n".join(ops))


def one_page_pdf(ops: bytes) -> bytes:
    """A valid one-page PDF drawing the content operators `ops`."""
    return pages_pdf([ops])


def pages_pdf(pages: list[bytes]) -> bytes:
    """A valid PDF whose pages draw the content operators given, one entry a page."""
    pixels = zlib.compress(bytes((x * 31 + y * 17) % 256 for y in range(8) for x in range(8)))
    count = len(pages)
    kids = " ".join(f"{6 + 2 * n} 0 R" for n in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
        (
            "<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n"
        ).encode()
        + pixels
        + b"\nendstream",
    ]
    for n, ops in enumerate(pages):
        packed = zlib.compress(ops)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] "
            f"/Contents {7 + 2 * n} 0 R /Resources << /Font << /F1 3 0 R /F2 4 0 R >> "
            "/XObject << /Im1 5 0 R >> /ExtGState << /Clear << /ca 0 /CA 0 >> >> >> >>".encode()
        )
        objects.append(
            f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
            + packed
            + b"\nendstream"
        )
    return assemble(objects)


def assemble(objects: list[bytes], root: int = 1, info: int | None = None) -> bytes:
    """A PDF file of numbered `objects` (object 1 first), its cross-reference and trailer."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    trailer = f"<< /Size {len(objects) + 1} /Root {root} 0 R"
    if info is not None:
        trailer += f" /Info {info} 0 R"
    out += f"trailer\n{trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
