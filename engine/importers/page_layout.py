"""What page layout does to extracted text, undone across a whole document.

Two things typesetting leaves in a PDF's text layer that are not the author's words, each
undone only where undoing cannot change what the text says:

- *Line-end hyphenation.* "classi-" / "fication" (also written "clas -" / "sification",
  with a soft hyphen, or a Unicode hyphen) is one word split by the line; "long-" / "term"
  is a compound that happened to break at its own hyphen; "adults-" / "not for children"
  is two words and a dash. The document decides: a split whose hyphenated form
  ("long-term") occurs elsewhere in it keeps its hyphen; the halves join when the joined
  word occurs elsewhere in it, or when the right half is a fragment (it never stands
  alone as a word in the document and is no negation: not, no, non-, un- on a word …).
  Otherwise both words stay, on one line when the right one carries a negation, so that
  nothing downstream joins them either. A hyphen after a space joins only when the joined
  word occurs elsewhere in the document, since "results -" / "which" is a dash.
- *Running headers and footers.* A first or last line repeated on most pages (a journal
  name, a running title, "Page 3 of 12") is not part of the text: it breaks a sentence that
  runs across the page. Lines are compared with their digits blanked, so page numbers do
  not make them differ. A line goes only when it sits in the page's top or bottom band
  (when the extraction knows where lines sit) and does not begin a sentence that goes on
  in the next line ("We found no evidence that" opening three pages is the text).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from engine.text.lexicon import LINE_END_NEGATING_PREFIXES, LINE_END_NEGATIONS

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
# A line that ends with one of these, or with a comma or a colon, goes on in the next.
_GOES_ON = frozenset(
    {"a", "an", "the", "that", "which", "who", "whom", "whose", "whether", "if", "than"}
    | {"and", "or", "but", "nor", "of", "in", "on", "at", "to", "for", "with", "without"}
    | {"by", "from", "as", "into", "onto", "upon", "about", "between", "among", "against"}
    | {"during", "under", "over", "is", "are", "was", "were", "be", "been", "being", "has"}
    | {"have", "had", "not", "no", "its", "their", "our", "his", "her", "this", "these"}
    | {"those", "such"}
)
_LAST_WORD = re.compile(r"([^\W\d_]+)\W*\Z")


def undo_layout(
    pages: Sequence[str],
    edges: Sequence[frozenset[str]] | None = None,
    bodied: Sequence[bool] | None = None,
) -> tuple[tuple[str, ...], int]:
    """The pages with running headers and footers removed and line-end splits rejoined.

    `edges` holds, per page, the lines (as text) that sit in its top or bottom band; None
    when unknown, and then a page's first and last lines are taken to be there. `bodied`
    says, per page, whether lines stand between its bands (see `strip_running_lines`).
    Returns the pages and how many running lines were removed.
    """
    kept, removed = strip_running_lines(pages, edges, bodied)
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
    if seen[joined]:
        return f"{left}{right}"
    if match.group("space"):
        return whole  # a dash at a line end, not a split word
    if _negating(left, right, seen):
        # Two words, and the right one says "not": never one word, here or downstream.
        return f"{left}- {right}"
    if seen[right.lower()]:
        return whole  # the right half is a word of its own in this document
    return f"{left}{right}"


def _negating(left: str, right: str, seen: Counter[str]) -> bool:
    """True when `right` is a negation, or a word a negating prefix makes: the prefix on a
    word the document has ("un" + "safe"), after a word of its own ("adults")."""
    word = right.lower()
    if word in LINE_END_NEGATIONS:
        return True
    prefix = next((p for p in LINE_END_NEGATING_PREFIXES if word.startswith(p)), None)
    if prefix is None:
        return False
    stem = word[len(prefix) :]
    return bool(seen[left.lower()]) or (len(stem) >= 3 and bool(seen[stem]))


def strip_running_lines(
    pages: Sequence[str],
    edges: Sequence[frozenset[str]] | None = None,
    bodied: Sequence[bool] | None = None,
) -> tuple[tuple[str, ...], int]:
    """The pages without a first or last line that repeats on most pages; and how many went.

    A line goes only when it sits in its page's top or bottom band (`edges`, per page, the
    lines there; None: the first and last lines are) and does not go on in the next line.
    On a page with lines between its bands (`bodied`), a band line that repeats in the
    bands of most such pages goes wherever the page drew it (a footer drawn between two
    paragraphs); a page all of whose lines sit in a band keeps all but its first and last.
    """
    if len(pages) < RUNNING_MIN_PAGES:
        return tuple(pages), 0
    heads: Counter[str] = Counter()
    feet: Counter[str] = Counter()
    for n, page in enumerate(pages):
        lines = _lines(page)
        if lines and _at_edge(lines[0], edges, n):
            heads[_shape(lines[0])] += 1
        if lines and _at_edge(lines[-1], edges, n):
            feet[_shape(lines[-1])] += 1
    needed = max(RUNNING_MIN_PAGES, RUNNING_SHARE * len(pages))
    running_heads = {shape for shape, n in heads.items() if n >= needed and shape}
    running_feet = {shape for shape, n in feet.items() if n >= needed and shape}
    out, removed = [], 0
    for n, page in enumerate(pages):
        lines = page.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is not None and _running(lines[first], running_heads, edges, n):
            lines[first] = ""
            removed += 1
        last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), None)
        if last is not None and _running(lines[last], running_feet, edges, n):
            lines[last] = ""
            removed += 1
        out.append("\n".join(lines).strip())
    if edges is None or bodied is None:
        return tuple(out), removed
    banded, more = _strip_banded(out, edges, bodied, needed)
    return banded, removed + more


def _strip_banded(
    pages: Sequence[str], edges: Sequence[frozenset[str]], bodied: Sequence[bool], needed: float
) -> tuple[tuple[str, ...], int]:
    """The pages without any band line that repeats in the bands of most bodied pages.

    Where the extraction knows the bands, a running line is found wherever the page drew
    it (a footer drawn between two paragraphs is read between them), but only on pages
    with lines between the bands: a short page's lines are its text.
    """
    body = [n < len(bodied) and bodied[n] for n in range(len(pages))]
    seen: Counter[str] = Counter()
    for n, page in enumerate(pages):
        if body[n]:
            seen.update({_shape(line) for line in _lines(page) if _at_edge(line, edges, n)})
    running = {shape for shape, count in seen.items() if count >= needed and shape}
    out, removed = [], 0
    for n, page in enumerate(pages):
        lines = page.split("\n")
        kept = [line for line in lines if not (body[n] and _running(line, running, edges, n))]
        removed += len(lines) - len(kept)  # a running shape is never blank
        out.append("\n".join(kept).strip())
    return tuple(out), removed


def _running(
    line: str, shapes: set[str], edges: Sequence[frozenset[str]] | None, page: int
) -> bool:
    return _shape(line) in shapes and _at_edge(line, edges, page) and not goes_on(line)


def _at_edge(line: str, edges: Sequence[frozenset[str]] | None, page: int) -> bool:
    if edges is None:
        return True
    return page < len(edges) and " ".join(line.split()) in edges[page]


def goes_on(line: str) -> bool:
    """True when `line` stops mid-sentence: it ends with a comma, a colon or a word like
    "that", "of", "the", "not" that a sentence never ends on."""
    stripped = line.rstrip()
    if stripped.endswith((",", ":", ";", "-", "\u2013", "\u2014")):
        return True
    found = _LAST_WORD.search(stripped)
    return (
        found is not None
        and not stripped.endswith((".", "?", "!"))
        and (found.group(1).lower() in _GOES_ON)
    )


def _lines(page: str) -> list[str]:
    return [line for line in page.split("\n") if line.strip()]


def _shape(line: str) -> str:
    return " ".join(_DIGITS.sub("#", line).split()).lower()
