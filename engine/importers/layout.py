"""What page layout does to extracted text, undone across a whole document.

Two things typesetting leaves in a PDF's text layer that are not the author's words:

- *Line-end hyphenation.* "classi-" / "fication" (also written "clas -" / "sification",
  with a soft hyphen, or a Unicode hyphen) is one word split by the line; "long-" / "term"
  is a compound that happened to break at its own hyphen. The document decides: a split
  whose hyphenated form ("long-term") occurs elsewhere in it keeps its hyphen; otherwise,
  when the next line goes on in lower case, the halves join. A hyphen after a space joins
  only when the joined word occurs elsewhere in the document, since "results -" / "which"
  is a dash, not a split word.
- *Running headers and footers.* A first or last line repeated on most pages (a journal
  name, a running title, "Page 3 of 12") is not part of the text: it breaks a sentence that
  runs across the page. Lines are compared with their digits blanked, so page numbers do
  not make them differ.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

# A word split across lines: letters, an optional space, a hyphen (ASCII, soft or Unicode),
# the line break, and the letters the next line goes on with.
_SPLIT = re.compile(
    r"(?P<left>[^\W\d_]+)(?P<space>[ \t]?)[-\u00ad\u2010][ \t]*\r?\n[ \t]*(?P<right>[^\W\d_]+)"
)
_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_DIGITS = re.compile(r"\d+")
# A running line repeats on at least this share of pages, and on at least this many.
RUNNING_SHARE = 0.5
RUNNING_MIN_PAGES = 3


def undo_layout(pages: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The pages with running headers and footers removed and line-end splits rejoined.

    Returns the pages and how many running lines were removed.
    """
    kept, removed = strip_running_lines(pages)
    return rejoin_hyphenation(kept), removed


def rejoin_hyphenation(pages: Sequence[str]) -> tuple[str, ...]:
    """Each page with its line-end word splits joined, by what the whole document says.

    Splits right after a letter are settled first; a split after a space is settled
    against the words that gave, so "classi-" / "fication" elsewhere vouches for
    "clas -" / "sification".
    """
    seen = _vocabulary(pages)
    tight = tuple(_SPLIT.sub(lambda m: _join(m, seen, spaced=False), page) for page in pages)
    seen = _vocabulary(tight)
    return tuple(_SPLIT.sub(lambda m: _join(m, seen, spaced=True), page) for page in tight)


def _vocabulary(pages: Sequence[str]) -> Counter[str]:
    return Counter(w.lower() for page in pages for w in _WORDS.findall(_unsplit(page)))


def _unsplit(page: str) -> str:
    # Words as they stand elsewhere: the split fragments themselves are not evidence.
    return _SPLIT.sub(" ", page)


def _join(match: re.Match[str], seen: Counter[str], *, spaced: bool) -> str:
    left, right = str(match.group("left")), str(match.group("right"))
    whole = str(match.group(0))
    if not right[0].islower() or bool(match.group("space")) != spaced:
        return whole  # "COVID-" / "19", "Anglo-" / "Saxon", or the other pass
    compound = f"{left}-{right}".lower()
    joined = f"{left}{right}".lower()
    if seen[compound] and not seen[joined]:
        return f"{left}-{right}"
    if match.group("space") and not seen[joined]:
        return whole  # a dash at a line end, not a split word
    return f"{left}{right}"


def strip_running_lines(pages: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The pages without a first or last line that repeats on most pages; and how many went."""
    if len(pages) < RUNNING_MIN_PAGES:
        return tuple(pages), 0
    heads: Counter[str] = Counter()
    feet: Counter[str] = Counter()
    for page in pages:
        lines = _lines(page)
        if lines:
            heads[_shape(lines[0])] += 1
            feet[_shape(lines[-1])] += 1
    needed = max(RUNNING_MIN_PAGES, RUNNING_SHARE * len(pages))
    running_heads = {shape for shape, n in heads.items() if n >= needed and shape}
    running_feet = {shape for shape, n in feet.items() if n >= needed and shape}
    out, removed = [], 0
    for page in pages:
        lines = page.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is not None and _shape(lines[first]) in running_heads:
            lines[first] = ""
            removed += 1
        last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), None)
        if last is not None and _shape(lines[last]) in running_feet:
            lines[last] = ""
            removed += 1
        out.append("\n".join(lines).strip())
    return tuple(out), removed


def _lines(page: str) -> list[str]:
    return [line for line in page.split("\n") if line.strip()]


def _shape(line: str) -> str:
    return " ".join(_DIGITS.sub("#", line).split()).lower()
