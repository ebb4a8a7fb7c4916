"""Text out of a PDF, page by page, cleaned for quote checking: the reader behind `sources add`.

pypdf does the parsing (pure Python, BSD licence). Pages come back in order with their
labels (the printed page numbers, when the PDF declares them); the cleaning undoes what
typesetting does to words (ligature glyphs, hyphens at line ends) and never touches
digits or signs. A PDF that cannot give text gives a `PdfFailure` with a specific kind.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from pypdf import PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, PyPdfError

MAX_PDF_BYTES = 256 * 1024 * 1024
MAX_PAGES = 5000
# A page with fewer visible characters than this carries no usable text layer.
MIN_PAGE_CHARS = 20

_LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "Ꜳ": "AA"}
)
# A word split across lines: letter, hyphen (ASCII, soft or Unicode), line break, letter.
_SPLIT_WORD = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010][ \t]*\r?\n[ \t]*(?=([^\W\d_]))")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_TRAILING = re.compile(r"[ \t]+\n")


class PdfFailureKind(StrEnum):
    """Why a PDF gave no text."""

    ENCRYPTED = "encrypted"
    NO_TEXT = "no-text-layer"
    MALFORMED = "malformed"
    TOO_LARGE = "too-large"


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
    Form feeds and control characters go, so a page never splits in two.
    """
    text = unicodedata.normalize("NFC", text.translate(_LIGATURES))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _SPLIT_WORD.sub(lambda m: "" if m.group(1).islower() else m.group(0), text)
    text = _CONTROL.sub(" ", text).replace("\u00ad", "")
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
    pages = tuple(clean_page_text(page.extract_text() or "") for page in reader.pages)
    empty = tuple(n for n, text in enumerate(pages, start=1) if _visible(text) < MIN_PAGE_CHARS)
    if len(empty) == count:
        return PdfFailure(
            PdfFailureKind.NO_TEXT,
            f"no text layer on any of its {count} page(s): a scan or image-only PDF; "
            "run OCR on it (for example ocrmypdf) and add the result",
        )
    return PdfText(pages, _labels(reader, count), empty, _title(reader))


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
