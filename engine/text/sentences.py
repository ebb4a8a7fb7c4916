"""The one sentence splitter: the sentences of prose, notes and sources, as spans or texts.

Text is folded first (`engine.text.fold`), so a sentence ends alike however a PDF wrote its
punctuation; every span reported still points into the text as given.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from engine.text.fold import Folded, local_cut
from engine.text.fold import fold_text as _fold
from engine.text.lexicon import ABSTRACT_HEADING_WORDS
from engine.text.memo import TextMemo
from engine.text.numbers import sign_start
from engine.text.scan import matches_from, positions
from engine.text.tokens import tokens

# A terminator run (with closing quotes or brackets) before whitespace, or a blank line.
_BREAK = re.compile(r"""[.!?]+["')\]]*(?=\s|\Z)|\n[ \t\r\f\v]*\n""")
_NEXT_CHAR = re.compile(r"\s*(\S?)")
_ABBREVIATIONS = frozenset(
    {
        "al", "approx", "ca", "cf", "dept", "e.g", "eq", "eqs", "esp", "et", "fig", "figs",
        "i.e", "ref", "refs", "resp", "sec", "viz", "vs",
    }
)  # fmt: skip
# Titles abbreviate only when written as titles (`Dr.`, `Ms.`): `ms.` is milliseconds.
_TITLES = frozenset({"dr", "jr", "mr", "mrs", "ms", "prof", "sr", "st"})
# Abbreviations that also end sentences; they end one before a capital.
_BEFORE_CAPITAL = frozenset({"co", "corp", "etc", "inc", "ltd", "sp", "spp"})
# Abbreviations that are also ordinary words; they only abbreviate before a number.
_BEFORE_NUMBER = frozenset({"no", "nos", "p", "pp", "vol"})
# A plain lower-case word after a period continues the sentence (`P. falciparum`,
# `An. gambiae`, a URL's `embl. html`); gene-like starts (`p53`, `mRNA`, `β-catenin`) do not.
_LOWER_WORD = re.compile(r"[a-z]+(?![\w\-])")
_OPENERS = " \t\n\r\f\v([{\"'"
_TITLE_WORD = re.compile(r"[A-Z][a-z]+\b")
_HEADING = re.compile(r"(?:[A-Z]+(?:[ ,/&:-]+|\Z))+")
# A figure or table caption's opening: "Figure 2:", "Fig. 3.", "Table 1 |", "Table S2."
CAPTION_START = re.compile(r"\s*(?:Fig(?:ure)?\.?|Table|Tab\.)\s*S?[0-9IVX]+[a-z]?\s*[.:|]")
_ENDED = re.compile(r"""[.!?]+["')\]\u201d\u2019]*\Z""")
# A paragraph of at most this many words that ends no sentence is a heading, a table row
# or a page's furniture, not prose.
FURNITURE_WORDS = 12


@dataclass(frozen=True, slots=True)
class Span:
    """A character range `[start, end)` of the original text."""

    start: int
    end: int


def sentences(text: str) -> tuple[Span, ...]:
    """The sentences of `text` as whitespace-trimmed spans, in order.

    A sentence ends at `.`, `!` or `?` followed by whitespace, or at a blank line. A period
    after a decimal, a curated abbreviation (`e.g.`, `et al.`, `Fig.`, `vs.`, `No. 5`), a
    title (`Dr.`), an initial (`J.`, `P. falciparum`) or in an ellipsis does not end one,
    nor does one followed by a plain lower-case word; `etc.` and `spp.` do before a capital.
    A period after a token holding digits or glued to a symbol (`PI3K.`, `E2F.`, `37°C.`,
    `µm2/ms.`) ends one. A leading structured-abstract heading (`RESULTS`, `MAIN OUTCOME
    MEASURES`) before a capitalised word is a sentence of its own.
    """
    folded = _fold(text)
    flat = folded.text
    cuts = [0]
    for match in _breaks(flat):
        if match.group().startswith("\n"):
            cuts.append(match.start())
        elif _ends_sentence(flat, match.start(), match.group()):
            cuts.append(match.end())
    cuts.append(len(flat))
    spans = []
    for lo, hi in itertools.pairwise(cuts):
        # The piece's white space is walked over at its edges, not stripped off copies.
        start, end = lo, hi
        while start < end and flat[start].isspace():
            start += 1
        while end > start and flat[end - 1].isspace():
            end -= 1
        if start == end:
            continue
        heading = _heading_end(flat, start, end)
        if heading:
            spans.append(Span(*folded.span(start, heading)))
            start = heading + len(flat[heading:end]) - len(flat[heading:end].lstrip(" ,/&:-"))
            # A dash before a number after the heading is that number's sign, not a separator.
            start = sign_start(flat, start) if flat[start : start + 1].isdigit() else start
        spans.append(Span(*folded.span(start, end)))
    return tuple(spans)


def _breaks(text: str) -> Iterator[re.Match[str]]:
    """The matches `_BREAK.finditer(text)` yields, tried only where one can start.

    A regex scan steps through every character; a break starts only at a terminator or a
    line break, found by `str.find` in C, so the pattern is matched there, left to right.
    """
    return matches_from(_BREAK, text, sorted(positions(text, ".!?\n")))


def _heading_end(text: str, start: int, end: int) -> int:
    """Where a leading heading of the sentence `text[start:end]` ends, or 0 for none."""
    found = _HEADING.match(text, start, end)
    if found is None:
        return 0
    last = 0
    for word in re.finditer(r"[A-Z]+", found.group()):
        if word.group().lower() not in ABSTRACT_HEADING_WORDS:
            break
        last = start + word.end()
    rest = text[last:end].lstrip(" ,/&:-")
    if not last or not rest or not (rest[0].isdigit() or rest[:2].istitle()):
        return 0
    return last


def _ends_sentence(text: str, at: int, run: str) -> bool:
    terminators = run.rstrip("\"')]")
    if "!" in terminators or "?" in terminators:
        return True
    if len(terminators) > 1:
        return False  # an ellipsis
    # The common case, cheaply: a plain lower-case word of four letters or more that is no
    # abbreviation, then a capital ("… disease. The"; "approx. The" goes the long way) or
    # the end of the text (where an abbreviation of `_BEFORE_CAPITAL` does not end one).
    space = text.rfind(" ", max(0, at - 40), at)
    word = text[space + 1 : at]
    after = at + len(run) + 1
    if (
        len(word) > 3
        and word.isalpha()
        and word.islower()
        and word.isascii()
        and word not in _ABBREVIATIONS
    ):
        if text[after - 1 : after] == " " and text[after : after + 1].isupper():
            return True
        if after - 1 == len(text) and word not in _BEFORE_CAPITAL:
            return True
    following = _NEXT_CHAR.match(text, at + len(run))
    assert following is not None  # the pattern matches the empty string anywhere
    if _LOWER_WORD.match(text, following.start(1)):
        return False
    start = _word_start(text, at)
    if start < 0:
        return True
    if start and text[start - 1] not in _OPENERS:
        return True  # a unit or symbol-glued token: 37°C, µm2/ms
    word = text[start:at]
    lowered = word.lower()
    next_char = following.group(1)
    if lowered in _BEFORE_CAPITAL:
        return next_char.isupper()
    # An abbreviation is written in small letters (`cf.`, `vs.`) or as a title (`Fig.`); in
    # capitals it is an acronym ending its sentence ("… both PF and CF. In a …").
    acronym = len(word) > 1 and word.isupper()
    if (lowered in _ABBREVIATIONS and not acronym) or (lowered in _TITLES and word.istitle()):
        return False
    if lowered in _BEFORE_NUMBER:
        return not next_char.isdigit()
    if "." in word and all(len(part) == 1 and part.isalpha() for part in word.split(".")):
        # A dotted initialism (`U.S.`) continues its sentence, but a small-letter one other
        # than `e.g.` and `i.e.` ends it before a capitalised word ("… 2 h p.i. The …").
        return word.islower() and _TITLE_WORD.match(text, at + len(run) + 1) is not None
    return not (len(word) == 1 and word.isupper())


def _word_start(text: str, at: int) -> int:
    """Where the word ending at `at` starts (dotted like `e.g` or `U.S`), or -1 for none.

    The word is letters, digits and underscores with single inner periods, begins within
    24 characters of `at`, and follows neither a word character nor a period. Walked back
    by hand: a regex anchored at the window's end is tried from every start in it.
    """
    floor = max(0, at - 25)  # one past the reach tells a longer word from one that fits
    start = at
    while start > floor and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    if start == floor and floor and (text[floor - 1].isalnum() or text[floor - 1] in "_."):
        return -1
    word = text[start:at]
    if start < at - 24 or not word or word[0] == "." or word[-1] == "." or ".." in word:
        return -1
    return start


def ends_terminated(text: str) -> bool:
    """Whether `text` ends with a sentence's terminator (closing quotes or brackets after)."""
    return _ENDED.search(text.rstrip()) is not None


def is_furniture(paragraph: str) -> bool:
    """Whether a paragraph (text between blank lines) is no prose: a caption, or a few
    words in which no sentence ends (a heading, a table row, a page number).

    A short paragraph holding a whole sentence is prose even when a stray line follows it
    ("Sleep helped recall." and then "Page 2"): only the stray part is no sentence.
    """
    if CAPTION_START.match(paragraph):
        return True
    if len(paragraph.split()) > FURNITURE_WORDS:
        return False
    return not any(ends_terminated(paragraph[s.start : s.end]) for s in sentences(paragraph))


# A source is checked for every claim citing it: fold it once, by content, while it stays recent.
_fold_source = TextMemo(_fold, entries=4096, chars=2_000_000)
_TERMINATED = re.compile(r"""[.!?]+["')\]]*\Z""")


def whole_sentences_at(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` begins and ends where `sentences(text)` cuts, cheaply.

    A fast, local test that only ever says yes when the full split agrees: the span starts
    the text or follows a terminator that ends a sentence, and it ends with a terminator
    that ends one there. Where folding changed lengths (a ligature, an ellipsis) the span
    is read where it folded to, which the full split maps back to exactly these ends. Anything
    else (a heading before it, an end inside a folded character) answers no, and the caller
    falls back to the full split. Text outside ASCII is folded only in a window around the
    span where what the test reads lies inside it (see `_in_window`).
    """
    if not 0 <= start < end <= len(text):
        return False
    if text.isascii():  # ASCII text folds to itself: nothing to fold or to keep
        return _whole_at(text, start, end)
    found = _in_window(text, start, end)
    if found is not None:
        return found
    folded = _fold_source(text)
    if folded.starts is not None:
        ends = _folded_ends(folded, start, end)
        if ends is None:
            return False
        start, end = ends
    return _whole_at(folded.text, start, end)


def _whole_at(text: str, start: int, end: int) -> bool:
    """The local test on folded `text`: a terminator ending a sentence before and at the end."""
    if text[end : end + 1].strip() or text[start : start + 1].isspace():
        return False
    run = _TERMINATED.search(text, max(0, end - 12), end)
    if run is None or not _ends_sentence(text, run.start(), run.group()):
        return False
    before = text[:start].rstrip()
    if not before:
        return True
    if len(before) == start:
        return False  # glued to what precedes it
    run = _TERMINATED.search(before, max(0, len(before) - 12))
    return run is not None and _ends_sentence(text, run.start(), run.group())


# What the test reads behind a terminator (a word, a space 40 characters back) and the
# room a window keeps before its span, in folded characters.
_READ_BEHIND = 64


def _in_window(text: str, start: int, end: int) -> bool | None:
    """The local test read in a window of `text` folded alone, or None when it cannot be.

    The fold is local at `local_cut`, so the window's fold is a piece of the whole fold.
    The window must hold what the test reads: behind the span, text that is not white
    space for `_READ_BEHIND` characters (or the text's start); after it, the white space
    and the word of letters the terminator's test reads on to, and the character after.
    """
    first = local_cut(text, start - _READ_BEHIND - 16, -1)
    last = local_cut(text, end + _READ_BEHIND, 1)
    if first is None or last is None:
        return None
    folded = _fold(text[first:last])
    start, end = start - first, end - first
    if folded.starts is not None:
        ends = _folded_ends(folded, start, end)
        if ends is None:
            return None
        start, end = ends
    window = folded.text
    if first and len(window[:start].rstrip()) < _READ_BEHIND:
        return None
    if last < len(text) and not _read_ends_inside(window, end):
        return None
    return _whole_at(window, start, end)


def _read_ends_inside(window: str, at: int) -> bool:
    """Whether what a terminator's test reads from `at` on (white space, then a word of ASCII
    letters, then one character) ends inside `window`."""
    while at < len(window) and window[at].isspace():
        at += 1
    while at < len(window) and window[at].isascii() and window[at].isalpha():
        at += 1
    return at < len(window)


def _folded_ends(folded: Folded, start: int, end: int) -> tuple[int, int] | None:
    """Where `[start, end)` of the text as given lies in its fold, or None when an end falls
    inside a character the fold rewrote (the split could not cut there)."""
    starts, ends = folded.starts, folded.ends
    assert starts is not None and ends is not None
    first = bisect_left(starts, start)
    last = bisect_left(starts, end)
    if first >= len(starts) or starts[first] != start or not last or ends[last - 1] != end:
        return None
    return first, last


@lru_cache(maxsize=1024)
def sentence_texts(text: str) -> tuple[str, ...]:
    """The texts of `sentences(text)`, verbatim, in order."""
    return tuple(text[span.start : span.end] for span in sentences(text))


@lru_cache(maxsize=8192)
def sentences_of(text: str) -> tuple[str, ...]:
    """The sentences of a note as the reasoner restates and alignment compares them.

    A heading or a first title line stands alone, and fragments of fewer than three
    tokens are left out.
    """
    out = []
    for span in sentences(text):
        piece = text[span.start : span.end]
        head, newline, rest = piece.partition("\n")
        titled = newline and (span.start == 0 or head.lstrip().startswith("#"))
        for part in (head, rest) if titled else (piece,):
            part = part.strip().lstrip("#").strip()
            if len(tokens(part)) >= 3:
                out.append(part)
    return tuple(out)
