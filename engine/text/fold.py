"""The one Unicode fold: how a character, or a letter with its combining marks, is compared.

Both the tokenizer (`engine.text.tokens`) and the quote matcher (`engine.core.quote`) fold
text through `fold_cluster` before comparing it; each keeps its own map from folded
offsets back to the text as written. Text is compared as it is displayed:

- NFKC first (ligatures, full-width forms, `…` → `...`), applied to a base character
  together with its combining marks, so `é` and `e` + U+0301 compare alike;
- curly single quotes, primes and the modifier apostrophe become `'`, curly double quotes
  `"`; other quotation marks (`‚ « » ‹ ›` and the grave accent) look different and stay;
- every minus or dash look-alike (`MINUS_LIKE`) becomes `-`, so a sign written with any of
  them counts, and a sign dropped or flipped is a mismatch rather than an invisible one;
- a superscript digit or sign keeps its exponent apart from the base: `10⁻³` is `10^-3`,
  never the range `10-3` nor `103`; a superscript or subscript sign after a word stays a
  sign of its own (`ER⁻` is `ER^-`, `x₋` is `x_-`), never dropped;
- only the soft hyphen folds away. Every other character that shows, or changes how text
  shows (an arrow, `‰`, a private-use glyph, a zero-width character, a bidi control), is
  kept as it is, to be compared like a letter.

Case is not folded here: each caller folds case its own way.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

# Every character that displays as a minus or a dash: Unicode's dash punctuation (Pd) and
# the signs drawn like one (modifier minus, heavy minus, line extensions, box rules).
MINUS_LIKE = (
    "\u058a\u05be\u1400\u1806\u2010\u2011\u2012\u2013\u2014\u2015\u2e17\u2e1a\u2e3a\u2e3b"
    "\u2e40\u2e5d\u301c\u3030\u30a0\ufe31\ufe32\ufe58\ufe63\uff0d"
    "\u02d7\u2043\u2212\u2796\u23af\u2500\u2501\u2574\u2576\u208b"
)
SOFT_HYPHEN = "\u00ad"
# Applied after NFKC, which leaves these alone.
_TABLE = str.maketrans(
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
        # A soft hyphen only marks where a word may break: it displays as nothing, or as a
        # hyphen at a line end. Every other format character stays.
        SOFT_HYPHEN: "",
    }
    | dict.fromkeys(map(ord, MINUS_LIKE), "-")
)
# Only the minus look-alikes, for readers that fold nothing else (figures in prose).
SIGNS = str.maketrans(dict.fromkeys(MINUS_LIKE, "-"))
SUPERSCRIPT = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-", strict=True))
# A subscript sign is lowered, as a superscript one is raised: `x₋` is `x_-`, never `x-`.
SUBSCRIPT = {"\u208a": "+", "\u208b": "-"}


def fold_cluster(text: str, lo: int, hi: int) -> str:
    """The fold of the cluster `text[lo:hi]`: a base character and the marks that follow it.

    A superscript opens its exponent with `^` unless it continues one (`10⁻³` → `10^-3`).
    """
    raised = SUPERSCRIPT.get(text[lo])
    if raised is not None and hi == lo + 1:
        return raised if lo and text[lo - 1] in SUPERSCRIPT else "^" + raised
    lowered = SUBSCRIPT.get(text[lo])
    if lowered is not None and hi == lo + 1:
        return "_" + lowered
    return fold_alone(text[lo:hi])


@lru_cache(maxsize=4096)
def fold_alone(cluster: str) -> str:
    """The fold of a cluster read without the character before it (no superscript rule)."""
    return unicodedata.normalize("NFKC", cluster).translate(_TABLE)


def clusters(text: str, first: int, last: int) -> Iterator[tuple[int, int]]:
    """The clusters of `text[first:last]`: base characters with the combining marks after them."""
    lo = first
    for i in range(first + 1, last):
        if not unicodedata.combining(text[i]):
            yield lo, i
            lo = i
    yield lo, last


# A run of non-ASCII characters, with the ASCII character before it so a combining mark
# composes with its base letter.
_NON_ASCII = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")
# A run of ASCII characters: cut out, what is left is the text's wide characters.
ASCII_RUNS = re.compile(r"[\x00-\x7f]+")


class Folded:
    """The folded text and, when folding changed it, where each folded character came from.

    `starts` and `ends` are None when folding kept every length: offsets are the identity.
    """

    __slots__ = ("ends", "starts", "text")

    def __init__(self, text: str, starts: list[int] | None, ends: list[int] | None):
        self.text = text
        self.starts = starts
        self.ends = ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of `text` as given that the folded `[start, end)` stands for."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def fold_text(text: str) -> Folded:
    """`text` folded cluster by cluster, with the map from folded offsets back to `text`."""
    if text.isascii():
        return Folded(text, None, None)
    # Text with no combining mark and no raised or lowered sign folds character by character:
    # one translation in C, where most text spent its time cluster by cluster.
    wide = wide_chars(text)
    if not any(unicodedata.combining(c) or c in SUPERSCRIPT or c in SUBSCRIPT for c in wide):
        table = {char: fold_alone(char) for char in wide}
        if all(len(out) == 1 for out in table.values()):
            return Folded(replace_each(text, table), None, None)
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
        return Folded("".join(pieces), None, None)
    return _mapped_fold(text)


# How far `local_cut` walks for a place to cut.
_CUT_REACH = 200


def local_cut(text: str, at: int, step: int) -> int | None:
    """The nearest place from `at`, walking by `step` (-1 or 1), where a fold may cut `text`.

    A place between two ASCII letters or digits, or an end of the text: no cluster, white
    space run, line-break hyphen, superscript or final sigma reaches over it, so the fold
    of the text is the folds of its two sides joined (this fold's and the quote fold's).
    None when no such place is within reach.
    """
    for _ in range(_CUT_REACH):
        if at <= 0:
            return 0
        if at >= len(text):
            return len(text)
        before, after = text[at - 1], text[at]
        if before.isascii() and after.isascii() and before.isalnum() and after.isalnum():
            return at
        at += step
    return None


def wide_chars(text: str) -> set[str]:
    """The characters of `text` outside ASCII, each once (its ASCII runs cut out in C)."""
    return set(ASCII_RUNS.sub("", text))


def replace_each(text: str, table: dict[str, str]) -> str:
    """`text` with each character of `table` replaced by its fold, as one translation would.

    A text holds a few distinct wide characters, and one `str.replace` each runs in C at
    memory speed, where `str.translate` with a dict looks up every character of the text
    (five times slower on an abstract). Replacing one after another equals translating at
    once only while no fold yields a character that is itself replaced: otherwise translate.
    """
    changed = {char: out for char, out in table.items() if out != char}
    if any(out in changed for out in changed.values()):
        return text.translate({ord(char): out for char, out in changed.items()})
    for char, out in changed.items():
        text = text.replace(char, out)
    return text


def _mapped_fold(text: str) -> Folded:
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
    return Folded("".join(parts), starts, ends)


def ascii_fold(text: str) -> str:
    """`text` in ASCII letters alone: accents dropped (`é` → `e`), anything else left out.

    For names that must be plain ASCII (citekeys, file names), never for comparing text:
    a sign or a symbol dropped here would change what the text says.
    """
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def same_text(text: str) -> str:
    """`text` as compared for being the same words: folded and its spacing collapsed.

    Case, punctuation, every digit, sign and symbol are kept: two texts with one key differ
    only in how a PDF or a keyboard wrote the same characters.
    """
    return " ".join(fold_text(text).text.split())
