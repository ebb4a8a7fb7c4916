"""Spelling help for question coverage: a typo's unique correction, an acronym spelled out.

Both only widen what counts as *mentioning* a question word; neither touches what a quote
must match. A correction applies only to a word no canon note contains, so it can never
stand in for a word the corpus has; it must be unique and pass the quote check's
typo test, so it never turns a word into its opposite or drops a negation.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from itertools import pairwise

from engine.core.typos import typo_of
from engine.reading.asked import Acronym, acronyms_of, initials

__all__ = ["Acronym", "acronyms_of", "correction", "joins", "spells_out", "split_compound"]

# Never corrected, nor a correction: negations (typo_of refuses opposite meanings).
_FIXED = frozenset(
    ["not", "no", "nor", "never", "without", "none", "neither", "cannot", "absent", "lack"]
)


def correction(word: str, known: Callable[[str], bool], *, min_length: int = 7) -> str | None:
    """The one corpus word a single edit (Damerau) away from `word`, when `word` is unknown.

    None unless `word` is all letters, at least `min_length` long, unknown to `known`, and
    exactly one known word is one insertion, deletion, substitution or swap of neighbours
    away and differs from it by a typo that cannot change the meaning.
    """
    if len(word) < min_length or not word.isalpha() or not word.isascii() or word in _FIXED:
        return None
    if known(word):
        return None
    found = {c for c in dict.fromkeys(_edits(word)) if c != word and known(c)}
    found = {c for c in found if c not in _FIXED and typo_of(word, c) and typo_of(c, word)}
    return next(iter(found)) if len(found) == 1 else None


def split_compound(
    word: str, known: Callable[[str], bool], *, min_length: int = 8
) -> tuple[str, str] | None:
    """The two corpus words an unknown run-together word is made of ("panicprone").

    None unless `word` is all letters, at least `min_length` long, unknown to `known`, and
    exactly one split leaves two known parts of at least three letters each.
    """
    if len(word) < min_length or not word.isalpha() or not word.isascii() or known(word):
        return None
    splits = [
        (word[:i], word[i:]) for i in range(3, len(word) - 2) if known(word[:i]) and known(word[i:])
    ]
    return splits[0] if len(splits) == 1 else None


def joins(parts: tuple[str, str], words: list[str]) -> bool:
    """Whether the two parts of a compound follow each other in `words` ("panic-prone")."""
    first, second = parts
    return any(a == first and b == second for a, b in pairwise(words))


def spells_out(acronym: Acronym, text: str) -> bool:
    """Whether `text` has consecutive words whose initials spell the acronym."""
    return bool(acronym.letters) and acronym.letters in initials(text)


def _edits(word: str) -> Iterator[str]:
    letters = string.ascii_lowercase
    for i in range(len(word) + 1):
        head, tail = word[:i], word[i:]
        if tail:
            yield head + tail[1:]
        if len(tail) > 1:
            yield head + tail[1] + tail[0] + tail[2:]
        for c in letters:
            if tail:
                yield head + c + tail[1:]
            yield head + c + tail
