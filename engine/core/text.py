"""Tokens, sentences and clause atoms of prose and claims, with offsets into the original text.

Text is folded before matching so that copying from a PDF does not break it, by the one
fold of `engine.core.fold` (NFKC, straight quotes, every minus look-alike as `-`, only the
soft hyphen dropped). Every offset reported here still points into the text as given.

Tokenisation rules, applied identically to prose and claims:

- A word starts with a letter and runs over letters and digits (`p53`, `covid`); an
  apostrophe between two of them stays inside (`don't`). Norms are case-folded. Every word
  counts: there is no stop-word list.
- Hyphens, dashes, slashes and underscores separate words: `long-term` is `long`, `term`.
- A number is an integer or decimal (`3.5`, `.05` → `0.05`); thousands groups are joined
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
import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass
from typing import NamedTuple

# Re-exported: callers read the format characters of a text through this module too.
from engine.core.controls import BIDI_CONTROLS as BIDI_CONTROLS
from engine.core.controls import bidi_controls as bidi_controls
from engine.core.controls import control_names as control_names
from engine.core.controls import format_controls as format_controls
from engine.core.controls import reveal as reveal
from engine.core.fold import clusters, fold_cluster
from engine.core.memo import TextMemo

# A run of non-ASCII characters, with the ASCII character before it so a combining mark
# composes with its base letter.
_NON_ASCII = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")

# The spaces a sign may stand apart from its number by: any (thin, no-break, a line break),
# but not a blank line. "− 1.2%" as PDF and LaTeX output write it is still -1.2%.
SIGN_GAP = r"[^\S\n]*(?:\n[^\S\n]*)?"
_TOKEN = re.compile(
    r"""
    (?P<number>
        (?P<sign>(?<!\w)(?:-{1,3}"""
    + SIGN_GAP
    + r"""|\+))?
        (?P<base>
            (?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?
          | (?<![\w.])\.\d+
        )
        (?:\^\(?(?P<exp>[-+]?\d+(?:\.\d+)?)\)?)?
    )
    (?P<percent>[ \t]*%)?
    (?P<marked>[-+](?![\w/+\-.])|/[-+](?!\w))?
  | (?P<word>[^\W\d_][^\W_]*(?:'[^\W_]+)*)(?P<marker>[-+]/[-+](?!\w)|\+|-(?!\w)|\([-+]\)(?!\w))?
  | (?P<prime>(?<=[\d%])'+)
  | (?P<symbol><=|>=|!=|\+/-|\+-|[-+]/[-+]|[\^_][-+](?!\d)|[<>≤≥=≠±≈×~∼≃+])
  | (?P<other>[^\s\w.,;:!?'"()\[\]{}/\\&*\#@|`^%\-\x00-\x1f\x7f])
    """,
    re.VERBOSE,
)
# Brackets, quotation marks and connectors: punctuation that says nothing by itself. Any
# other character that is not a letter, digit or plain punctuation (an arrow, a per-mille
# sign, a bidi control, a private-use glyph) is a token of its own, so nothing that shows,
# or that changes how text shows, is dropped from a comparison. `‹ ›` look like `< >`.
_QUIET = frozenset({"Ps", "Pe", "Pi", "Pf", "Pc"})
# A run of primes after a number (folded to apostrophes): minutes, seconds, feet, inches.
_PRIMES = {1: "′", 2: "″", 3: "‴"}
_SYMBOLS = {"<=": "≤", ">=": "≥", "!=": "≠", "+/-": "±", "+-": "±", "~": "≈", "∼": "≈", "≃": "≈"}

# A terminator run (with closing quotes or brackets) before whitespace, or a blank line.
_BREAK = re.compile(r"""[.!?]+["')\]]*(?=\s|\Z)|\n[ \t\r\f\v]*\n""")
_NEXT_CHAR = re.compile(r"\s*(\S?)")
_WORD_BEFORE = re.compile(r"(?<![\w.])\w+(?:\.\w+)*\Z")
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
# Section headings of structured abstracts: a leading run of these words, in capitals, is a
# sentence of its own. The list is closed so that a capitalised term (`HIV`) never counts.
_HEADING_WORDS = frozenset(
    """
    aim aims analyses analysis and background case clinical conclusion conclusions context
    criteria data design discussion eligibility evidence exposure exposures extraction
    findings funding goal goals hypothesis implications importance interpretation
    intervention interventions introduction limitations main materials measure measurement
    measurements measures method methodology methods objective objectives of outcome
    outcomes participants patients population practice presentation primary principal
    purpose question rationale registration relevance research result results review
    sample search secondary selection setting settings significance source sources strategy
    study subjects summary synthesis trial
    """.split()  # noqa: SIM905
)
_HEADING = re.compile(r"(?:[A-Z]+(?:[ ,/&:-]+|\Z))+")


@dataclass(frozen=True, slots=True)
class Token:
    """One word or number: its text as written, its norm, and `[start, end)` in the text."""

    text: str
    norm: str
    start: int
    end: int
    _: KW_ONLY
    is_number: bool = False


@dataclass(frozen=True, slots=True)
class Span:
    """A character range `[start, end)` of the original text."""

    start: int
    end: int


class _Folded:
    """The folded text and, when folding changed it, where each folded character came from."""

    __slots__ = ("ends", "starts", "text")

    def __init__(self, text: str, starts: list[int] | None, ends: list[int] | None):
        self.text = text
        self.starts = starts
        self.ends = ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def _fold(text: str) -> _Folded:
    if text.isascii():
        return _Folded(text, None, None)
    # Most folding keeps lengths (µ → μ, – → -); then offsets are the identity and no
    # map is built.
    parts = [
        (lo, hi, fold_cluster(text, lo, hi))
        for match in _NON_ASCII.finditer(text)
        for lo, hi in clusters(text, *match.span())
    ]
    if all(len(out) == hi - lo for lo, hi, out in parts):
        pieces: list[str] = []
        done = 0
        for lo, hi, out in parts:
            pieces += (text[done:lo], out)
            done = hi
        pieces.append(text[done:])
        return _Folded("".join(pieces), None, None)
    return _mapped_fold(text)


def _mapped_fold(text: str) -> _Folded:
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    done = 0
    for match in _NON_ASCII.finditer(text):
        first, last = match.span()
        parts.append(text[done:first])
        starts.extend(range(done, first))
        ends.extend(range(done + 1, first + 1))
        for lo, hi in clusters(text, first, last):
            out = fold_cluster(text, lo, hi)
            parts.append(out)
            if len(out) == hi - lo:
                starts.extend(range(lo, hi))
                ends.extend(range(lo + 1, hi + 1))
            else:  # composed or expanded: every output character stands for the cluster
                starts.extend([lo] * len(out))
                ends.extend([hi] * len(out))
        done = last
    parts.append(text[done:])
    starts.extend(range(done, len(text)))
    ends.extend(range(done + 1, len(text) + 1))
    return _Folded("".join(parts), starts, ends)


def _number_norm(digits: str, *, percent: bool, exponent: str | None = None) -> str:
    norm = digits.replace(",", "").removeprefix("+")
    if norm.startswith("."):
        norm = "0" + norm
    elif norm.startswith("-."):
        norm = "-0" + norm[1:]
    if exponent is not None:
        norm += "^" + exponent.removeprefix("+")
    return norm + "%" if percent else norm


def _norms(
    text: str, *, lowered: bool = False, cased: str | None = None
) -> Iterator[tuple[str, bool, int, int]]:
    """(norm, is_number, start, end) of each token of already-folded `text`.

    `lowered` says the caller already case-folded the whole text, which is cheaper; then
    `cased` is the same text before lowering, which a trailing minus marker is read from.
    """
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        word = match.group("word")
        if word is not None:
            norm = word if lowered else word.casefold()
            marker = match.group("marker")
            if marker in ("-", "(-)") and not _marker_word(
                (cased or text)[start : start + len(word)]
            ):
                marker = None  # a hyphen left by text extraction ("treat- ment")
            yield (norm + marker.strip("()") if marker else norm), False, start, end
            continue
        prime = match.group("prime")
        if prime is not None:
            yield _PRIMES.get(len(prime), prime), False, start, end
            continue
        symbol = match.group("symbol")
        if symbol is not None:
            yield _SYMBOLS.get(symbol, symbol), False, start, end
            continue
        other = match.group("other")
        if other is not None:
            if unicodedata.category(other) not in _QUIET or other in "‹›":
                yield other, False, start, end
            continue
        sign = match.group("sign") or ""
        if sign.startswith("-") and _digit_before(text, start):
            # A dash after a number is a range, not a sign (`5-10`, LaTeX's `5--10`).
            start += len(sign)
            sign = ""
        sign = sign.rstrip()  # a sign set apart by a space is still the number's sign
        percent = match.group("percent") is not None
        norm = _number_norm(
            sign + match.group("base"), percent=percent, exponent=match.group("exp")
        )
        yield norm + (match.group("marked") or ""), True, start, end


def _marker_word(word: str) -> bool:
    """Whether a word can carry a minus marker: one with a capital or a digit (ER, HER2)."""
    return any(ch.isupper() or ch.isdigit() for ch in word)


# Not the minus of a plus-minus (`+/-`, `+-`), which is a symbol of its own.
_SIGN_BEFORE = re.compile(rf"(?<![\w/+])-{{1,3}}{SIGN_GAP}\Z")
_MARKS_AFTER = re.compile(r"'+|[\^_][-+](?!\d)|[-+](?![\w+\-])")


def sign_start(text: str, at: int) -> int:
    """Where the sign of the number starting at `at` in folded `text` begins; `at` if unsigned.

    The one sign rule, for readers that cut text by offsets (the quote check): a dash
    (folded to `-`) before a number is its sign, glued or set apart by spaces, unless a
    word is glued to its left (`COVID-19`, a name) or a number precedes it (`5 - 10`, a
    range). Read where a cut would start at the number and drop the sign.
    """
    found = _SIGN_BEFORE.search(text, max(0, at - 24), at)
    if found is None or _digit_before(text, found.start()):
        return at
    return found.start()


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


def _tokens(folded: _Folded, original: str) -> Iterator[Token]:
    for norm, is_number, start, end in _norms(folded.text):
        lo, hi = folded.span(start, end)
        yield Token(original[lo:hi], norm, lo, hi, is_number=is_number)


def _digit_before(text: str, at: int) -> bool:
    """Whether a number (a digit or a percent sign) precedes `at`, spaces and tabs aside."""
    before = text[max(0, at - 32) : at].rstrip(" \t")
    return before[-1:].isdigit() or before[-1:] == "%"


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
        return tuple(norm for norm, _, _, _ in _norms(lowered, lowered=True, cased=folded))
    return tuple(norm for norm, _, _, _ in _norms(folded))


def same_text(text: str) -> str:
    """`text` as compared for being the same words: folded and its spacing collapsed.

    Case, punctuation, every digit, sign and symbol are kept: two texts with one key differ
    only in how a PDF or a keyboard wrote the same characters.
    """
    return " ".join(_fold(text).text.split())


def numbers(text: str) -> tuple[str, ...]:
    """The norms of the number tokens of `text`, in order."""
    return tuple(norm for norm, is_number, _, _ in _norms(_fold(text).text) if is_number)


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
    for match in _BREAK.finditer(flat):
        if match.group().startswith("\n"):
            cuts.append(match.start())
        elif _ends_sentence(flat, match.start(), match.group()):
            cuts.append(match.end())
    cuts.append(len(flat))
    spans = []
    for lo, hi in itertools.pairwise(cuts):
        piece = flat[lo:hi]
        stripped = piece.strip()
        if not stripped:
            continue
        start = lo + len(piece) - len(piece.lstrip())
        end = start + len(stripped)
        heading = _heading_end(flat, start, end)
        if heading:
            spans.append(Span(*folded.span(start, heading)))
            start = heading + len(flat[heading:end]) - len(flat[heading:end].lstrip(" ,/&:-"))
            # A dash before a number after the heading is that number's sign, not a separator.
            start = sign_start(flat, start) if flat[start : start + 1].isdigit() else start
        spans.append(Span(*folded.span(start, end)))
    return tuple(spans)


def _heading_end(text: str, start: int, end: int) -> int:
    """Where a leading heading of the sentence `text[start:end]` ends, or 0 for none."""
    found = _HEADING.match(text, start, end)
    if found is None:
        return 0
    last = 0
    for word in re.finditer(r"[A-Z]+", found.group()):
        if word.group().lower() not in _HEADING_WORDS:
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
    # The common case, cheaply: a plain lower-case word of four letters or more, then a
    # capital ("… disease. The"). No abbreviation or title is such a word.
    space = text.rfind(" ", max(0, at - 40), at)
    word = text[space + 1 : at]
    after = at + len(run) + 1
    if (
        len(word) > 3
        and word.isalpha()
        and word.islower()
        and word.isascii()
        and text[after - 1 : after] == " "
        and text[after : after + 1].isupper()
    ):
        return True
    following = _NEXT_CHAR.match(text, at + len(run))
    assert following is not None  # the pattern matches the empty string anywhere
    if _LOWER_WORD.match(text, following.start(1)):
        return False
    found = _WORD_BEFORE.search(text, max(0, at - 24), at)
    if found is None:
        return True
    if found.start() and text[found.start() - 1] not in _OPENERS:
        return True  # a unit or symbol-glued token: 37°C, µm2/ms
    word = found.group()
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


def one_line(text: object) -> str:
    """`text` with every run of white space, line breaks included, as one space."""
    return " ".join(str(text).split())


def shorten(text: object, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis when longer."""
    flat = one_line(text)
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


# A source is checked for every claim citing it: fold it once, by content, while it stays recent.
_fold_source = TextMemo(_fold, entries=4096, chars=2_000_000)
_TERMINATED = re.compile(r"""[.!?]+["')\]]*\Z""")


def whole_sentences_at(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` begins and ends where `sentences(text)` cuts, cheaply.

    A fast, local test that only ever says yes when the full split agrees: the span starts
    the text or follows a terminator that ends a sentence, and it ends with a terminator
    that ends one there. Anything else (a heading before it, folding that changes
    lengths) answers no, and the caller falls back to the full split.
    """
    if not 0 <= start < end <= len(text):
        return False
    folded = _fold_source(text)
    if folded.starts is not None:
        return False
    text = folded.text
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
