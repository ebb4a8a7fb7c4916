"""Text out of a PDF, page by page, cleaned for quote checking: the reader behind `sources add`.

pypdf does the parsing (pure Python, BSD licence); `engine.importers.paint` judges each
glyph as the page paints it, so only text a reader sees is kept (the lines of hidden text
left out are counted per page), and `engine.importers.glyph_lines` reads each line in the order
its glyphs stand. Pages come back in order with their labels (the printed page numbers,
when the PDF declares them); the cleaning undoes what typesetting does to words (ligature
glyphs, hyphens at line ends) and never touches digits or signs. A PDF that cannot give
text gives a `PdfFailure` with a specific kind.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from pypdf import PageObject, PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, PyPdfError
from pypdf.generic import IndirectObject, StreamObject

from engine.importers.glyph_lines import PageLines, read_page
from engine.importers.page_layout import rejoin_hyphenation, undo_layout
from engine.importers.paint import paint_page

MAX_PDF_BYTES = 256 * 1024 * 1024
MAX_PAGES = 5000
# Decoded drawing operators, each page counting every stream it draws (a stream shared by
# many pages counts once per page: that is the work a reader does). pypdf parses operators
# at about 1 MB/s here, so these bound the work of one page and of one PDF.
MAX_PAGE_CONTENT_BYTES = 8 * 1024 * 1024
MAX_CONTENT_BYTES = 100 * 1024 * 1024
# A page with fewer visible characters than this carries no usable text layer.
MIN_PAGE_CHARS = 20

_LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "Ꜳ": "AA"}
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_TRAILING = re.compile(r"[ \t]+\n")
# A "!" standing alone between spaces or line ends is a symbol font's bullet that maps its
# glyph to "!" (Wingdings, Symbol): the page shows a bullet, and read as an exclamation it
# ends a sentence where the page has none ("divided into five titles: !"). An exclamation
# a writer typed sits against its word.
_SYMBOL_BULLET = re.compile(r"(?<!\S)!(?!\S)")


class PdfFailureKind(StrEnum):
    """Why a PDF gave no text."""

    ENCRYPTED = "encrypted"
    NO_TEXT = "no-text-layer"
    MALFORMED = "malformed"
    TOO_LARGE = "too-large"
    TOO_SLOW = "too-slow"
    CRASHED = "reader-failed"


@dataclass(frozen=True)
class PdfFailure:
    """A PDF that gave no usable text, with a message a person can act on."""

    kind: PdfFailureKind
    message: str


@dataclass(frozen=True)
class PdfText:
    """The cleaned text of each page, the page labels, and pages that had no text layer."""

    pages: tuple[str, ...]
    labels: tuple[str, ...]
    empty_pages: tuple[int, ...] = ()
    title: str | None = None
    oversized_pages: tuple[int, ...] = ()  # pages drawing too much to read; left blank
    running_lines: int = 0  # repeated headers and footers left out of the text
    hidden_lines: tuple[int, ...] = ()  # per page: lines of text a reader does not see

    @property
    def hidden_pages(self) -> tuple[tuple[int, int], ...]:
        """(page number, lines of hidden text left out) for each page that had some."""
        return tuple((n, count) for n, count in enumerate(self.hidden_lines, start=1) if count)

    @property
    def fulltext(self) -> str:
        """The pages joined by form feeds, as `sources/<citekey>.txt` holds them."""
        return "\f".join(self.pages) + "\n"

    @property
    def custom_labels(self) -> bool:
        """True when some page's printed label is not its position (1, 2, 3 …)."""
        return any(label != str(n) for n, label in enumerate(self.labels, start=1))


def clean_page_text(text: str) -> str:
    """One page's extracted text with ligatures expanded and line-end hyphenation undone.

    A hyphen at a line end joins the two halves only when the next line goes on in lower
    case ("treat-\\nment" → "treatment"); "COVID-\\n19" and "Anglo-\\nSaxon" keep theirs.
    Form feeds and control characters go, so a page never splits in two. A whole PDF is
    cleaned with `engine.importers.page_layout`, which also reads the rest of the document.
    """
    return rejoin_hyphenation([_normalised(text)])[0].replace("\u00ad", "")


def _normalised(text: str) -> str:
    """Ligatures expanded, line breaks and control characters made plain; splits kept."""
    text = unicodedata.normalize("NFC", text.translate(_LIGATURES))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _SYMBOL_BULLET.sub("•", _CONTROL.sub(" ", text))
    return _TRAILING.sub("\n", text).strip()


def extract_pdf(
    data: bytes, *, max_pages: int = MAX_PAGES, max_bytes: int = MAX_PDF_BYTES
) -> PdfText | PdfFailure:
    """The text of the PDF in `data`, or why there is none; never raises for a bad file."""
    if len(data) > max_bytes:
        return PdfFailure(
            PdfFailureKind.TOO_LARGE,
            f"file is {len(data):,} bytes, over the {max_bytes:,}-byte limit for one PDF",
        )
    if not data.lstrip()[:5].startswith(b"%PDF"):
        return PdfFailure(PdfFailureKind.MALFORMED, "not a PDF (no %PDF header)")
    # pypdf logs every repair it makes; the outcome is reported here instead.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        return _read(PdfReader(io.BytesIO(data), strict=False), max_pages=max_pages)
    except (FileNotDecryptedError, DependencyError):
        return _encrypted()
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        return PdfFailure(PdfFailureKind.MALFORMED, f"cannot be parsed: {_short(exc)}")
    except RecursionError:
        return PdfFailure(PdfFailureKind.MALFORMED, "cannot be parsed: objects nest too deeply")


def _read(reader: PdfReader, *, max_pages: int) -> PdfText | PdfFailure:
    if reader.is_encrypted and not reader.decrypt(""):
        return _encrypted()
    count = len(reader.pages)
    if count == 0:
        return PdfFailure(PdfFailureKind.MALFORMED, "has no pages")
    if count > max_pages:
        return PdfFailure(
            PdfFailureKind.TOO_LARGE, f"has {count:,} pages, over the {max_pages:,}-page limit"
        )
    load = content_load(reader)
    if sum(load.sizes) > MAX_CONTENT_BYTES:
        shared = f" (one content stream is drawn by {load.most_shared:,} pages)"
        return PdfFailure(
            PdfFailureKind.TOO_LARGE,
            f"its pages draw {sum(load.sizes) / 1e6:,.0f} MB of decoded content"
            f"{shared if load.most_shared > 1 else ''}, over the "
            f"{MAX_CONTENT_BYTES // 1024**2} MB limit for one PDF",
        )
    oversized = tuple(n for n, size in enumerate(load.sizes, 1) if size > MAX_PAGE_CONTENT_BYTES)
    read = tuple(
        PageLines("", 0) if n in oversized else read_page(paint_page(page, reader))
        for n, page in enumerate(reader.pages, start=1)
    )
    raw = tuple(_normalised(page.text) for page in read)
    edges = [frozenset(" ".join(_normalised(line).split()) for line in p.edges) for p in read]
    bodied = [p.bodied for p in read]
    laid_out, running = undo_layout(raw, edges, bodied)
    pages = tuple(page.replace("\u00ad", "") for page in laid_out)
    empty = tuple(
        n
        for n, text in enumerate(pages, start=1)
        if _visible(text) < MIN_PAGE_CHARS and n not in oversized
    )
    if len(empty) + len(oversized) == count:
        return PdfFailure(
            PdfFailureKind.NO_TEXT,
            f"no text layer on any of its {count} page(s): a scan or image-only PDF; "
            "run OCR on it (for example ocrmypdf) and add the result",
        )
    hidden = tuple(page.hidden_lines for page in read)
    return PdfText(pages, _labels(reader, count), empty, _title(reader), oversized, running, hidden)


@dataclass(frozen=True)
class ContentLoad:
    """Decoded bytes each page draws, and how many pages draw the most shared stream."""

    sizes: tuple[int, ...]
    most_shared: int


def content_load(reader: PdfReader) -> ContentLoad:
    """What each page of `reader` draws: its content streams and the forms it names.

    Each stream is decoded once (pypdf keeps the result for the text extraction); a stream
    that cannot be decoded counts as empty, and extraction reports the page.
    """
    decoded: dict[object, int] = {}
    uses: dict[object, int] = {}
    sizes = []
    for page in reader.pages:
        total = 0
        for key, stream in _drawn(page):
            if key not in decoded:
                decoded[key] = _decoded_size(stream)
            uses[key] = uses.get(key, 0) + 1
            total += decoded[key]
        sizes.append(total)
    return ContentLoad(tuple(sizes), max(uses.values(), default=0))


def _drawn(page: PageObject) -> list[tuple[tuple[int, int] | int, StreamObject]]:
    """(identity, stream) of the content streams and form XObjects a page draws."""
    found = []
    contents = page.get("/Contents")
    items = contents.get_object() if contents is not None else None
    refs = list(items) if isinstance(items, list) else [contents] if contents is not None else []
    resources = page.get("/Resources")
    resources = resources.get_object() if resources is not None else None
    xobjects = resources.get("/XObject") if isinstance(resources, dict) else None
    xobjects = xobjects.get_object() if xobjects is not None else None
    if isinstance(xobjects, dict):
        refs.extend(xobjects.values())
    for ref in refs:
        stream = ref.get_object() if ref is not None else None
        if not isinstance(stream, StreamObject):
            continue
        if stream.get("/Subtype") == "/Image":
            continue  # an image is never parsed as operators
        key = (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else id(stream)
        found.append((key, stream))
    return found


def _decoded_size(stream: StreamObject) -> int:
    try:
        return len(stream.get_data())
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return 0


def _encrypted() -> PdfFailure:
    return PdfFailure(
        PdfFailureKind.ENCRYPTED,
        "is encrypted with a password: save an unprotected copy and add that",
    )


def _labels(reader: PdfReader, count: int) -> tuple[str, ...]:
    try:
        labels = [str(label) for label in reader.page_labels]
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        labels = []
    if len(labels) != count:
        return tuple(str(n) for n in range(1, count + 1))
    return tuple(labels)


def _title(reader: PdfReader) -> str | None:
    try:
        title = reader.metadata.title if reader.metadata is not None else None
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return " ".join(title.split()) if isinstance(title, str) and title.strip() else None


def _visible(text: str) -> int:
    return sum(1 for char in text if not char.isspace())


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return (text[:160] + "…" if len(text) > 160 else text) or type(exc).__name__
