"""The fold a quote and its source are compared in, with the map back to the source.

Both sides are case folded, put through the one character fold (`engine.text.fold`), white
space runs read as one space, and a hyphen at a line end joins the word it splits. The
breakpoints map every folded offset back to the text as given, so a match reports the
source's own span.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import NamedTuple

from engine.text.fold import (
    MINUS_LIKE,
    SOFT_HYPHEN,
    SUPERSCRIPT,
    fold_cluster,
    replace_each,
    wide_chars,
)
from engine.text.memo import TextMemo
from engine.text.scan import matches_from, positions

_BREAKS = "\r\n\f\v\x85\u2028\u2029"
_HYPHENS = f"-{SOFT_HYPHEN}{MINUS_LIKE}"
# The look-ahead lets a scan pass every other character at once.
_EDITS = (
    rf"(?=[\s{re.escape(_HYPHENS)}])"
    rf"(?:(?P<hy>[{_HYPHENS}])[^\S{_BREAKS}]*[{_BREAKS}]\s*|(?P<ws>\s{{2,}}|[^\S ]))"
)


class Folded(NamedTuple):
    """Normalised text plus breakpoints mapping its offsets back to the original.

    A named tuple, not a frozen dataclass: quotes and windows are folded several times a
    route, and a tuple is built in a third of the time.
    """

    text: str
    norm_marks: list[int]
    orig_marks: list[int]

    def original(self, pos: int) -> int:
        i = bisect_right(self.norm_marks, pos) - 1
        out = self.orig_marks[i] + pos - self.norm_marks[i]
        # Inside an expanded character (a ligature) stay at the next breakpoint.
        return min(out, self.orig_marks[i + 1]) if i + 1 < len(self.orig_marks) else out


def fold(text: str) -> Folded:
    """The text as compared: the one character fold, case folded, whitespace runs as one
    space, and a hyphen at a line end joining the word it splits."""
    # str.lower does the bulk in C; the characters the fold changes, combining marks with
    # their base, whitespace runs and line-break hyphens are rewritten by one regex pass
    # that records breakpoints.
    lowered = text.lower()
    if text.isascii() and _one_line(text):
        # Plain ASCII on one line with single spaces (most quotes, many sources): nothing
        # but case to fold, and no offset moves.
        return Folded(lowered, [0], [0])
    base = lowered if len(lowered) == len(text) else text
    # Lowered ASCII holds nothing the character fold changes and no combining mark: only
    # the other characters of a lowered text are looked at.
    chars = wide_chars(base) if base is lowered else set(base)
    odd = {char: _fold_char(char) for char in chars if not char.isspace()}
    odd = {char: folded for char, folded in odd.items() if folded != char}
    marks = "".join(re.escape(char) for char in chars if unicodedata.combining(char))
    simple = base is lowered and not marks
    if simple and all(len(out) == 1 for out in odd.values()) and _one_line(base):
        # Wide characters folding one for one, and no white space to rewrite: no offset
        # moves, and each character is replaced in C.
        return Folded(replace_each(base, odd), [0], [0])
    if simple:
        # Then every character the fold changes is outside ASCII: one compiled pattern,
        # tried only where an edit or such a character can start (`_scan`), finds them all,
        # where a pattern built for this text's own set would cost a compile for nearly
        # every new source.
        pattern: str | re.Pattern[str] = _EDITS_OR_WIDE if odd else _EDITS_ONLY
    else:
        # The edits rewrite only white space other than one space between words; most texts
        # have none, and leaving their alternative out leaves the same matches. Every white
        # space but the plain space is unprintable, so two quick scans find any.
        edits = not _one_line(base)
        alternatives = [_EDITS] if edits else []
        alternatives += [rf"(?P<cluster>\S[{marks}]+)"] if marks else []
        alternatives += ["(?P<odd>[" + "".join(map(re.escape, odd)) + "])"] if odd else []
        pattern = "|".join(alternatives)
    pieces: list[str] = []
    norm_marks, orig_marks = [0], [0]
    last = size = 0
    if isinstance(pattern, re.Pattern):
        found: Iterable[re.Match[str]] = _scan(pattern, base, [*odd, *_spaced(chars)])
    else:
        found = re.finditer(pattern, base) if pattern else ()
    for m in found:
        start, end = m.span()
        if m.lastgroup == "odd" and m.group() not in odd:
            continue  # a wide character the fold keeps as it is
        if m.lastgroup == "hy":  # treat-\nment joins into one word; COVID-\n19 keeps its hyphen
            letters = base[start - 1 : start].isalpha() and base[end : end + 1].isalpha()
            replacement = "" if letters or base[start] == SOFT_HYPHEN else "-"
        elif m.lastgroup == "ws":
            replacement = " "
        elif m.lastgroup == "cluster" or base[start] in SUPERSCRIPT:
            replacement = fold_cluster(base, start, end).casefold()
        else:
            replacement = odd[m.group()]
        pieces += (base[last:start], replacement)
        size += start - last + len(replacement)
        last = end
        if len(replacement) != end - start:
            norm_marks.append(size)
            orig_marks.append(end)
    pieces.append(base[last:])
    return Folded("".join(pieces), norm_marks, orig_marks)


_EDITS_ONLY = re.compile(_EDITS)
_EDITS_OR_WIDE = re.compile(
    rf"(?=[\s{re.escape(_HYPHENS)}\x80-\U0010ffff])(?:{_EDITS}|(?P<odd>[^\x00-\x7f]))"
)


def _one_line(text: str) -> bool:
    """Whether no edit applies: no white space but single plain spaces (so no line break)."""
    # Every white space but the plain space is unprintable.
    return "  " not in text and text.isprintable()


# ASCII white space other than the plain space: an edit can start at any of them.
_ASCII_SPACES = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _spaced(chars: Iterable[str]) -> list[str]:
    """The wide characters among `chars` an edit can start at: white space and hyphens."""
    return [char for char in chars if char.isspace() or char in _HYPHENS]


def _scan(pattern: re.Pattern[str], text: str, wide: list[str]) -> Iterator[re.Match[str]]:
    """The matches `pattern.finditer(text)` yields, tried only where one can start.

    A regex scan steps through every character of a source; the few places an edit or a
    wide character can start are found by `str.find` in C instead (a run of white space
    holding more than one space, a break or a wide space, the hyphen before it, and each
    wide character in `wide`), and the pattern is matched there, left to right as a scan
    would. An edit consumes its whole run of white space, so it starts at a run's first
    character or at the hyphen before it.
    """
    raw = set(positions(text, (*wide, *(c for c in _ASCII_SPACES if c in text), "  ")))
    starts: list[int] = []
    done = 0  # every position before this is already among the starts, or no start
    for at in sorted(raw):
        if at < done:
            continue
        if not text[at].isspace():
            starts.append(at)
            done = at + 1
            continue
        first = at
        while first > done and text[first - 1].isspace():
            first -= 1
        if first and text[first - 1] in _HYPHENS:
            starts.append(first - 1)
        starts.append(first)
        done = at + 1
        while done < len(text) and text[done].isspace():
            done += 1
    return matches_from(pattern, text, starts)


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    return fold_cluster(char, 0, 1).casefold()


# Sources are folded once and reused by content while they stay among the recently checked.
fold_cached = TextMemo(fold, entries=4096, chars=2_000_000)
