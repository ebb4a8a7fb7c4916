"""Regex matches found only where they can start, those places found by `str.find` in C.

A regex scan steps through every character of a text; when a pattern can start only at a few
known characters, finding those with `str.find` and matching there, left to right, yields
exactly what `finditer` would, several times faster on a page of prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator


def positions(text: str, needles: Iterable[str]) -> list[int]:
    """Every position in `text` where one of `needles` (strings) occurs, in no set order."""
    out: list[int] = []
    for needle in needles:
        at = text.find(needle)
        while at >= 0:
            out.append(at)
            at = text.find(needle, at + 1)
    return out


def matches_from(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """The matches `pattern.finditer(text)` yields, given every place one can start.

    `starts` must be in order and hold every position a match can start at (extra ones are
    harmless); a match's end is passed over as a scan would.
    """
    last = 0
    for at in starts:
        if at >= last and (match := pattern.match(text, at)) is not None:
            yield match
            last = match.end()
