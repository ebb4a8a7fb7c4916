"""A minimal PDF writer for tests, benchmarks and the bundled example: text pages only.

Each page is a list of lines set in Helvetica (WinAnsi encoding, so Latin-1 text only).
Optional page labels (`/PageLabels`) and image-only pages (a picture and no text layer)
cover what the PDF importer must handle. It writes valid cross-reference tables, so any
reader opens the files; it is not a general PDF library.
"""

from __future__ import annotations

import textwrap
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.evaluation.pdf_tricks import assemble

LINE_HEIGHT = 14
TOP = 780
LEFT = 56
LINES_PER_PAGE = 50


def wrap_pages(paragraphs: Sequence[str], *, width: int = 88) -> list[list[str]]:
    """Paragraphs wrapped to lines and cut into pages of at most LINES_PER_PAGE lines."""
    lines: list[str] = []
    for paragraph in paragraphs:
        lines.extend(textwrap.wrap(paragraph, width=width) or [""])
        lines.append("")
    pages = [lines[i : i + LINES_PER_PAGE] for i in range(0, len(lines), LINES_PER_PAGE)]
    return pages or [[]]


def pdf_bytes(
    pages: Sequence[Sequence[str] | None],
    *,
    labels: Sequence[tuple[int, str, int]] = (),
    title: str | None = None,
) -> bytes:
    """A PDF of `pages` (a page None is image-only: a grey picture, no text).

    `labels` are page-label ranges `(first page index, style, start)`, style `D` (1, 2, 3),
    `r` (i, ii, iii) or `R`, as in the PDF's `/PageLabels` number tree.
    """
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")
    tree = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for lines in pages:
        if lines is None:
            image = add(_image_stream())
            content = _stream(b"q 480 0 0 640 56 100 cm /Im1 Do Q")
            resources = f"<< /XObject << /Im1 {image} 0 R >> >>".encode()
        else:
            content = _stream(_text_ops(lines))
            resources = f"<< /Font << /F1 {font} 0 R >> >>".encode()
        content_id = add(content)
        kids.append(
            add(
                f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 612 842] /Contents "
                f"{content_id} 0 R /Resources ".encode()
                + resources
                + b" >>"
            )
        )
    objects[tree - 1] = (
        f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>"
    ).encode()
    extra = b""
    if labels:
        nums = " ".join(f"{first} << /S /{style} /St {start} >>" for first, style, start in labels)
        extra = f" /PageLabels << /Nums [{nums}] >>".encode()
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R".encode() + extra + b" >>"
    info = add(b"<< /Title (" + _escape(title) + b") >>") if title else None
    return assemble(objects, catalog, info)


def write_pdf(path: str | Path, pages: Sequence[Sequence[str] | None], **options: Any) -> Path:
    """Write `pdf_bytes(pages, **options)` to `path` and return it."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(pdf_bytes(pages, **options))
    return target


def _text_ops(lines: Sequence[str]) -> bytes:
    ops = [b"BT /F1 11 Tf", f"{LINE_HEIGHT} TL {LEFT} {TOP} Td".encode()]
    for line in lines:
        ops.append(b"(" + _escape(line) + b") Tj T*")
    ops.append(b"ET")
    return b"\n".join(ops)


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _stream(data: bytes) -> bytes:
    packed = zlib.compress(data)
    return (
        f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
        + packed
        + b"\nendstream"
    )


def _image_stream() -> bytes:
    width, height = 8, 8
    pixels = zlib.compress(
        bytes((x * 31 + y * 17) % 256 for y in range(height) for x in range(width))
    )
    return (
        (
            f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace "
            f"/DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\n"
            "stream\n"
        ).encode()
        + pixels
        + b"\nendstream"
    )


def shared_stream_pdf_bytes(page_count: int, *, stream_bytes: int) -> bytes:
    """A "PDF bomb": `page_count` pages whose content is one shared stream.

    The stream is `stream_bytes` of text operators compressed into a few kilobytes, so the
    file is small while a reader that decodes and parses the stream once per page does
    `page_count` times that work.
    """
    unit = b"BT /F1 11 Tf 56 780 Td (Shared content stream, repeated.) Tj ET\n"
    ops = unit * max(1, stream_bytes // len(unit))
    objects: list[bytes] = [b"", b""]  # catalog, page tree
    font = len(objects) + 1
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.append(_stream(ops))
    content = len(objects)
    first = len(objects) + 1
    for _ in range(page_count):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents {content} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
    kids = " ".join(f"{n} 0 R" for n in range(first, first + page_count))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = f"<< /Type /Pages /Kids [{kids}] /Count {page_count} >>".encode()
    return assemble(objects, 1, None)
