"""The one tokeniser and its named views: for licensing (`tokens`) and for ranking.

The licensing view (`tokens`, `token_spans`, `word_sequence`) keeps every meaning-bearing
token with its offsets; the ranking view (`ranking_tokens`, `term_counts`, `surface_words`)
is the coarse cut the index stores and coverage counts, stop words dropped and plurals
folded. The rules below are the licensing view's.

Text is folded before matching so that copying from a PDF does not break it, by the one
fold of `engine.text.fold` (NFKC, straight quotes, every minus look-alike as `-`, only the
soft hyphen dropped). Every offset reported here still points into the text as given.

Tokenisation rules, applied identically to prose and claims:

- A word starts with a letter and runs over letters and digits (`p53`, `covid`); an
  apostrophe between two of them stays inside (`don't`). Norms are case-folded. Every word
  counts: there is no stop-word list.
- Hyphens, dashes, slashes and underscores separate words: `long-term` is `long`, `term`.
- A number (its grammar, norm and sign rule are the number reader's, `engine.text.numbers`)
  is an integer or decimal (`3.5`, `.05` → `0.05`); thousands groups are joined
  (`1,000` → `1000`); a trailing percent sign joins it with or without a space (`12%` and
  `12 %` → `12%`); `-5` keeps its sign whatever dash writes it (hyphen, U+2012–U+2015,
  U+2212) and `+5` reads as `5`. A dash between two numbers is a range, never a sign
  (`5-10`, `5 - 10` and `5%-10%` → `5`, `10`). Digits glued to letters after a number split
  off (`5mg` → `5`, `mg`).
- An exponent stays with its base: `10⁻³` and `10^-3` → `10^-3`, which is neither `10^3`,
  `10-3` (a range) nor `103`.
- Comparators and other meaning-bearing signs are tokens of their own: `< > ≤ ≥ = ≠ ± ≈ ×`
  (`<=` → `≤`, `>=` → `≥`, `!=` → `≠`, `+/-` → `±`, `~` → `≈`).
- A marker's trailing sign stays on the word: `ER+`, `HER2−`, `Aire(+)` → `er+`, `her2-`,
  `aire+`; `ER-positive` is still `er`, `positive`. A trailing minus marks only a word with
  a capital or a digit, so the extraction split `treat- ment` stays `treat`, `ment`; a
  number keeps one too (`CD4+3−` → `cd4+`, `3-`), and genotypes keep theirs (`Nlrp3−/−`
  → `nlrp3-/-`, `Casp-1/−` → `casp`, `1/-`). A `+` that is neither a sign nor a marker
  is a token (`.48+.76` is a sum, not the range `.48-.76`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass
from typing import NamedTuple

from engine.text.fold import Folded, wide_chars
from engine.text.fold import fold_text as _fold
from engine.text.lexicon import STOP_WORDS
from engine.text.numbers import NUMBER_PATTERN, number_norm, range_dash
from engine.text.stems import plural_fold

# A word is tried first: no other alternative can start at a letter.
TOKEN_ALTERNATIVES = (
    r"""
    (?P<word>[^\W\d_][^\W_]*(?:'[^\W_]+)*)(?P<marker>[-+]/[-+](?!\w)|\+|-(?!\w)|\([-+]\)(?!\w))?
  | (?P<number>"""
    + NUMBER_PATTERN
    + r""")
    (?P<percent>[ \t]*%)?
    (?P<marked>[-+](?![\w/+\-.])|/[-+](?!\w))?
  | (?P<prime>(?<=[\d%])'+)
  | (?P<symbol><=|>=|!=|\+/-|\+-|[-+]/[-+]|[\^_][-+](?!\d)|[<>≤≥=≠±≈×~∼≃+])
  | (?P<other>[^\s\w.,;:!?'"()\[\]{}/\\&*\#@|`^%\-\x00-\x1f\x7f])
    """
)
# No token starts at white space or at punctuation that is never one: the look-ahead lets
# the scan pass those at once instead of trying every alternative there (twice as fast).
_NEVER_FIRST = r"""(?![\s,;:?"()\[\]{}/\\&*\#@|`%])"""
_TOKEN = re.compile(f"{_NEVER_FIRST}(?:{TOKEN_ALTERNATIVES})", re.VERBOSE)
# Brackets, quotation marks and connectors: punctuation that says nothing by itself. Any
# other character that is not a letter, digit or plain punctuation (an arrow, a per-mille
# sign, a bidi control, a private-use glyph) is a token of its own, so nothing that shows,
# or that changes how text shows, is dropped from a comparison. `‹ ›` look like `< >`.
_QUIET = frozenset({"Ps", "Pe", "Pi", "Pf", "Pc"})
# A run of primes after a number (folded to apostrophes): minutes, seconds, feet, inches.
_PRIMES = {1: "′", 2: "″", 3: "‴"}
_SYMBOLS = {"<=": "≤", ">=": "≥", "!=": "≠", "+/-": "±", "+-": "±", "~": "≈", "∼": "≈", "≃": "≈"}


@dataclass(frozen=True, slots=True)
class Token:
    """One word or number: its text as written, its norm, and `[start, end)` in the text."""

    text: str
    norm: str
    start: int
    end: int
    _: KW_ONLY
    is_number: bool = False


def _norms(
    text: str, *, lowered: bool = False, cased: str | None = None
) -> Iterator[tuple[str, bool, int, int]]:
    """(norm, is_number, start, end) of each token of already-folded `text`.

    `lowered` says the caller already case-folded the whole text, which is cheaper; then
    `cased` is the same text before lowering, which a trailing minus marker is read from.
    """
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "word":  # a word without a marker, the commonest token
            word = match.group()
            yield (word if lowered else word.casefold()), False, match.start(), match.end()
        elif (found := _token_of(match, text, lowered, cased)) is not None:
            yield found


def _norm_sequence(text: str, *, lowered: bool = False, cased: str | None = None) -> list[str]:
    """The norms alone of `_norms(text, ...)`, built without their offsets."""
    out = []
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "word":
            out.append(match.group() if lowered else match.group().casefold())
        elif (found := _token_of(match, text, lowered, cased)) is not None:
            out.append(found[0])
    return out


def _token_of(
    match: re.Match[str], text: str, lowered: bool, cased: str | None
) -> tuple[str, bool, int, int] | None:
    """The token one match of `_TOKEN` reads as, or None for quiet punctuation."""
    start, end = match.span()
    word = match.group("word")
    if word is not None:
        norm = word if lowered else word.casefold()
        marker = match.group("marker")
        if marker in ("-", "(-)") and not _marker_word((cased or text)[start : start + len(word)]):
            marker = None  # a hyphen left by text extraction ("treat- ment")
        return (norm + marker.strip("()") if marker else norm), False, start, end
    prime = match.group("prime")
    if prime is not None:
        return _PRIMES.get(len(prime), prime), False, start, end
    symbol = match.group("symbol")
    if symbol is not None:
        return _SYMBOLS.get(symbol, symbol), False, start, end
    other = match.group("other")
    if other is not None:
        if unicodedata.category(other) not in _QUIET or other in "‹›":
            return other, False, start, end
        return None
    sign = match.group("sign") or ""
    if range_dash(text, start, sign):
        # A dash after a number is a range, not a sign (`5-10`, LaTeX's `5--10`).
        start += len(sign)
        sign = ""
    percent = match.group("percent") is not None
    norm = number_norm(sign, match.group("base"), percent=percent, exponent=match.group("exp"))
    return norm + (match.group("marked") or ""), True, start, end


def _marker_word(word: str) -> bool:
    """Whether a word can carry a minus marker: one with a capital or a digit (ER, HER2)."""
    return any(ch.isupper() or ch.isdigit() for ch in word)


_MARKS_AFTER = re.compile(r"'+|[\^_][-+](?!\d)|[-+](?![\w+\-])")


def marks_end(text: str, end: int) -> int:
    """Where the marks glued after the token ending at `end` in folded `text` end.

    Primes (folded to apostrophes) after a number, a raised or lowered sign (`^-`, `_+`)
    and a trailing `+`/`-` marker belong to what they follow (`40″`, `ER⁻`, `ER+`): a cut
    at `end` would drop them.
    """
    if not 0 < end < len(text):
        return end
    found = _MARKS_AFTER.match(text, end)
    if found is None or (found.group().startswith("'") and not text[end - 1].isdigit()):
        return end
    return found.end()


def _tokens(folded: Folded, original: str) -> Iterator[Token]:
    for norm, is_number, start, end in _norms(folded.text):
        lo, hi = folded.span(start, end)
        yield Token(original[lo:hi], norm, lo, hi, is_number=is_number)


class TokenSpan(NamedTuple):
    """A token's norm, whether it is a number, and `[start, end)` in the text as given."""

    norm: str
    is_number: bool
    start: int
    end: int


def token_spans(text: str) -> list[TokenSpan]:
    """The tokens of `text` as light tuples: the same tokens as `tokens`, cheaper to build."""
    folded = _fold(text)
    if folded.starts is None and folded.text.isascii():
        flat = folded.text
        return [TokenSpan(*t) for t in _norms(flat.lower(), lowered=True, cased=flat)]
    return [TokenSpan(n, num, *folded.span(a, b)) for n, num, a, b in _norms(folded.text)]


def tokens(text: str) -> tuple[Token, ...]:
    """The words and numbers of `text` in order; see the module docstring for the rules."""
    return tuple(_tokens(_fold(text), text))


@functools.lru_cache(maxsize=8192)
def word_sequence(text: str) -> tuple[str, ...]:
    """The norms of every token of `text`, in order: the sequence matching compares."""
    # The hot path of matching: norms only, no offsets mapped back to the original.
    folded = _fold(text).text
    if folded.isascii():
        lowered = folded.lower()
        return tuple(_norm_sequence(lowered, lowered=True, cased=folded))
    return tuple(_norm_sequence(folded))


# A minus glued after a word, bare or bracketed (`IgD-`, `Aire(-)`): the one token whose
# reading asks whether the word had a capital. A dash set apart by a space is no marker.
# (Its literal first lets a search skip to each dash; a bracketed minus is looked for apart.)
_MINUS_AFTER_WORD = re.compile(r"-(?<=[^\W_]-)(?!\w)")


def reads_as_lowered(text: str, lowered: str) -> bool:
    """Whether `lowered` has the word sequence of `text` because it is `text` lower-cased.

    Shown without tokenising either (a sentence takes tens of microseconds): the fold of
    `text`, lower-cased, is the fold of `lowered` but for runs of spaces and tabs written as
    one space; lower-casing changed only ASCII letters, every other character being its own
    lower case (so no token boundary moved and each word's case-folded norm is the same);
    and no minus follows a word, the one reading that asks for a capital (`IgD-` is a
    marker, `igd-` a stray hyphen). False says nothing: compare the word sequences then.
    """
    folded = _fold(text).text
    if "(-)" in folded or _MINUS_AFTER_WORD.search(folded) is not None:
        return False
    low, target = folded.lower(), _fold(lowered).text
    if low != target and not _spaced_alike(low, target):
        return False
    return folded.isascii() or all(char.lower() == char for char in wide_chars(folded))


# Runs of spaces and tabs a quote's fold writes as one space; any other white space.
_BLANK_RUN = re.compile(r"[ \t]{2,}|\t")
_OTHER_SPACE = re.compile(r"[^\S \t]")
# A token reads past white space only where the number reader looks back for a digit
# before a dash (32 characters): a run shorter than that reads alike as one space.
_LONGEST_RUN = 24


def _spaced_alike(text: str, spaced: str) -> bool:
    """Whether `spaced` is `text` with each run of spaces and tabs written as one space, no
    run long enough to change how a number is read and no other white space in `text`."""
    if _OTHER_SPACE.search(text) is not None:
        return False
    runs = _BLANK_RUN.findall(text)
    return (
        bool(runs) and max(map(len, runs)) <= _LONGEST_RUN and _BLANK_RUN.sub(" ", text) == spaced
    )


_RANKING_RUN = re.compile(r"[^\W_]+")
# word -> ranking term ("" for a stop word); bounded so a long-lived process stays small.
_FOLDED: dict[str, str] = {}
_FOLD_CACHE_SIZE = 200_000


def plain_words(text: str) -> list[str]:
    """The ranking view's words: lower-cased alphanumeric runs of `text`, in order.

    Coarser than `tokens`: no fold, a decimal or an apostrophe splits a run (`3.5` is `3`, `5`).
    """
    return _RANKING_RUN.findall(text.lower())


def ranking_tokens(text: str) -> list[str]:
    """The ranking view: `plain_words` with stop words dropped and plurals folded.

    What the index ranks and coverage counts; the index stores it, so it stays as it is.
    """
    return [plural_fold(word) for word in plain_words(text) if word not in STOP_WORDS]


def surface_words(text: str) -> dict[str, str]:
    """Each ranking token of `text` -> the word as written there first.

    Matching goes by the token ("enzymes'" is `enzyme`); words for people show the surface
    form the writer typed ("enzymes"), never the folded or stemmed one.
    """
    out: dict[str, str] = {}
    for raw in _RANKING_RUN.findall(text):
        lowered = raw.lower()
        if lowered in STOP_WORDS:
            continue
        out.setdefault(plural_fold(lowered), raw)
    return out


def term_counts(text: str) -> dict[str, int]:
    """How often each ranking token occurs in `text` (the same tokens as `ranking_tokens`)."""
    counts: dict[str, int] = {}
    # Count raw words first, so stop words and folding are looked at once per distinct word.
    for word, count in Counter(plain_words(text)).items():
        term = _FOLDED.get(word)
        if term is None:
            term = "" if word in STOP_WORDS else plural_fold(word)
            if len(_FOLDED) < _FOLD_CACHE_SIZE:
                _FOLDED[word] = term
        if term:
            counts[term] = counts.get(term, 0) + count
    return counts
