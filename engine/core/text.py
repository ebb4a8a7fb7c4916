"""Tokens, sentences and clause atoms of prose and claims, with offsets into the original text.

Text is folded before matching so that copying from a PDF does not break it: Unicode NFKC
(ligatures, full-width digits, `…` → `...`), curly quotes and primes become straight
quotes, the minus sign and Unicode hyphens become `-`, soft hyphens and zero-width
characters disappear. Every offset reported here still points into the text as given.

Tokenisation rules, applied identically to prose and claims:

- A word starts with a letter and runs over letters and digits (`p53`, `covid`); an
  apostrophe between two of them stays inside (`don't`). Norms are case-folded. Every word
  counts: there is no stop-word list.
- Hyphens, dashes, slashes and underscores separate words: `long-term` is `long`, `term`.
- A number is an integer or decimal (`3.5`, `.05` → `0.05`); thousands groups are joined
  (`1,000` → `1000`); a trailing percent sign joins it with or without a space (`12%` and
  `12 %` → `12%`); `-5` keeps its sign and `+5` reads as `5`. A dash between two numbers
  is a range, never a sign (`5-10` and `5 - 10` → `5`, `10`). Digits glued to letters
  after a number split off (`5mg` → `5`, `mg`).
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass

# Applied after NFKC, which leaves these alone.
_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2010": "-",
        "\u2212": "-",
        "\u00ad": "",
        "\u200b": "",
        "\u200c": "",
        "\u200d": "",
        "\u2060": "",
        "\ufeff": "",
    }
)
# A run of non-ASCII characters, with the ASCII character before it so a combining mark
# composes with its base letter.
_NON_ASCII = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")

_TOKEN = re.compile(
    r"""
    (?P<number>
        (?P<sign>(?<!\w)[-+])?
        (?:
            (?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?
          | (?<![\w.])\.\d+
        )
    )
    (?P<percent>[ \t]*%)?
  | (?P<word>[^\W\d_][^\W_]*(?:'[^\W_]+)*)
    """,
    re.VERBOSE,
)

# A terminator run (with closing quotes or brackets) before whitespace, or a blank line.
_BREAK = re.compile(r"""[.!?]+["')\]]*(?=\s|\Z)|\n[ \t\r\f\v]*\n""")
_NEXT_CHAR = re.compile(r"\s*(\S?)")
_WORD_BEFORE = re.compile(r"(?<![A-Za-z.])[A-Za-z]+(?:\.[A-Za-z]+)*\Z")
_ABBREVIATIONS = frozenset(
    {
        "al", "approx", "ca", "cf", "dept", "dr", "e.g", "eq", "eqs", "esp", "et",
        "etc", "fig", "figs", "i.e", "jr", "mr", "mrs", "ms", "prof", "ref", "refs",
        "resp", "sec", "sr", "st", "viz", "vs",
    }
)  # fmt: skip
# Abbreviations that are also ordinary words; they only abbreviate before a number.
_BEFORE_NUMBER = frozenset({"no", "nos", "p", "pp", "vol"})

_CONNECTIVE = re.compile(
    r"\s*;\s*"
    r"|,\s*(?:and|but|while|whereas|yet|although|though)\b\s*"
    r"|(?<=\S)\s+(?:while|whereas)\b\s*",
    re.IGNORECASE,
)


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
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    done = 0
    for match in _NON_ASCII.finditer(text):
        first, last = match.span()
        parts.append(text[done:first])
        starts.extend(range(done, first))
        ends.extend(range(done + 1, first + 1))
        for lo, hi in _clusters(text, first, last):
            out = unicodedata.normalize("NFKC", text[lo:hi]).translate(_FOLD)
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


def _clusters(text: str, first: int, last: int) -> Iterator[tuple[int, int]]:
    """Base characters with the combining marks that follow them."""
    lo = first
    for i in range(first + 1, last):
        if not unicodedata.combining(text[i]):
            yield lo, i
            lo = i
    yield lo, last


def _number_norm(digits: str, *, percent: bool) -> str:
    norm = digits.replace(",", "").removeprefix("+")
    if norm.startswith("."):
        norm = "0" + norm
    elif norm.startswith("-."):
        norm = "-0" + norm[1:]
    return norm + "%" if percent else norm


def _norms(text: str, *, lowered: bool = False) -> Iterator[tuple[str, bool, int, int]]:
    """(norm, is_number, start, end) of each token of already-folded `text`.

    `lowered` says the caller already case-folded the whole text, which is cheaper.
    """
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        word = match.group("word")
        if word is not None:
            yield (word if lowered else word.casefold()), False, start, end
            continue
        digits = match.group("number")
        if match.group("sign") == "-" and _digit_before(text, start):
            # A dash after a number is a range, not a sign.
            digits = digits[1:]
            start += 1
        yield _number_norm(digits, percent=match.group("percent") is not None), True, start, end


def _tokens(folded: _Folded, original: str) -> Iterator[Token]:
    for norm, is_number, start, end in _norms(folded.text):
        lo, hi = folded.span(start, end)
        yield Token(original[lo:hi], norm, lo, hi, is_number=is_number)


def _digit_before(text: str, at: int) -> bool:
    """Whether a digit precedes `at`, spaces and tabs aside."""
    before = text[max(0, at - 32) : at].rstrip(" \t")
    return before[-1:].isdigit()


def tokens(text: str) -> tuple[Token, ...]:
    """The words and numbers of `text` in order; see the module docstring for the rules."""
    return tuple(_tokens(_fold(text), text))


@functools.lru_cache(maxsize=8192)
def word_sequence(text: str) -> tuple[str, ...]:
    """The norms of every token of `text`, in order: the sequence matching compares."""
    # The hot path of matching: norms only, no offsets mapped back to the original.
    folded = _fold(text).text
    if folded.isascii():
        return tuple(norm for norm, _, _, _ in _norms(folded.lower(), lowered=True))
    return tuple(norm for norm, _, _, _ in _norms(folded))


def numbers(text: str) -> tuple[str, ...]:
    """The norms of the number tokens of `text`, in order."""
    return tuple(norm for norm, is_number, _, _ in _norms(_fold(text).text) if is_number)


def sentences(text: str) -> tuple[Span, ...]:
    """The sentences of `text` as whitespace-trimmed spans, in order.

    A sentence ends at `.`, `!` or `?` followed by whitespace, or at a blank line. A period
    after a decimal, a curated abbreviation (`e.g.`, `et al.`, `Fig.`, `vs.`, `No. 5`), an
    initial (`J.`) or in an ellipsis does not end one; `etc.` does before a capital.
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
        spans.append(Span(*folded.span(start, start + len(stripped))))
    return tuple(spans)


def _ends_sentence(text: str, at: int, run: str) -> bool:
    terminators = run.rstrip("\"')]")
    if "!" in terminators or "?" in terminators:
        return True
    if len(terminators) > 1:
        return False  # an ellipsis
    found = _WORD_BEFORE.search(text, max(0, at - 24), at)
    if found is None:
        return True
    word = found.group()
    lowered = word.lower()
    following = _NEXT_CHAR.match(text, at + len(run)).group(1)
    if lowered == "etc":
        return following.isupper()
    if lowered in _ABBREVIATIONS:
        return False
    if lowered in _BEFORE_NUMBER:
        return not following.isdigit()
    if "." in word and all(len(part) == 1 for part in word.split(".")):
        return False  # dotted initialism such as U.S.
    return not (len(word) == 1 and word.isupper())


def clause_atoms(text: str) -> tuple[str, ...]:
    """The atomic facts of a claim, in order; a single-fact claim is its own one atom.

    A claim splits at sentence ends, at `;`, at a comma before and / but / while / whereas
    / yet / although / though, and at a mid-sentence while / whereas; the connective and
    separator belong to neither side.
    """
    atoms = []
    for span in sentences(text):
        for piece in _CONNECTIVE.split(text[span.start : span.end]):
            piece = piece.strip()
            if piece:
                atoms.append(piece)
    return tuple(atoms)


def extractively_licensed(claim_text: str, source_text: str) -> bool:
    """Whether the claim's words occur, in order and contiguously, among the source's words.

    An empty claim is never licensed. Matching is by whole token, so `rise` is not found
    inside `sunrise`.
    """
    claim = word_sequence(claim_text)
    if not claim:
        return False
    # Token norms never contain the separator, so a substring hit is a token-aligned run.
    return _joined(claim) in _joined(word_sequence(source_text))


def one_line(text: object) -> str:
    """`text` with every run of white space, line breaks included, as one space."""
    return " ".join(str(text).split())


def shorten(text: object, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis when longer."""
    flat = one_line(text)
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def _joined(sequence: tuple[str, ...]) -> str:
    return "\x1f" + "\x1f".join(sequence) + "\x1f"
