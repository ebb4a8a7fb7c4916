"""Which differences between a quoted word and its source's word keep the meaning.

The fuzzy quote check forgives a typo only when it cannot change what is said: numbers
must match exactly, no negation may be gained or lost (as a word, a prefix or a part of a
compound), and no word may turn into its opposite (increase/decrease, hyper/hypo).
"""

from __future__ import annotations

import re
from collections.abc import Container

from rapidfuzz.distance import OSA

from engine.text.lexicon import (
    NEGATING_PREFIXES,
    NEGATIONS,
    NUMBER_SCALES,
    NUMBER_WORDS,
    OPPOSED_PREFIXES,
    OPPOSED_STEMS,
)
from engine.text.tokens import word_sequence

_SPELLING = re.compile(r"[-' ]")
_DIGITS = re.compile(r"\d+")


# Real words a typo must not turn one into: the function words, number words and common
# short words of English. A quote word among them (or among its document's own words)
# that differs from its source's word is another word, not a misspelling of it.
COMMON_WORDS = (
    frozenset(
        "a about above across after again against all almost along also although always am"  # noqa: SIM905
        " among an and another any are around as at be because been before being below"
        " between both but by can could did do does done down during each either else enough"
        " even ever every few for form from further had has have having he hence her here"
        " hers him his how however if in into is it its itself just least less like made"
        " make many may me might more most much must my near neither never no nor not now"
        " of off often on once one only onto or other others otherwise our out over own per"
        " perhaps quite rather same shall she should since so some such than that the their"
        " theirs them then there thereby therefore these they this those though through"
        " throughout thus till to too toward towards under unless until up upon us very via"
        " was we well were what whatever when where whereas whether which while who whom"
        " whose why will with within without would yet you your first second third fourth"
        " fifth sixth seventh eighth ninth tenth half twice single double triple".split()
    )
    | frozenset(NUMBER_WORDS)
    | frozenset(NUMBER_SCALES)
)


def typo_of(said: str, source: str) -> bool:
    """Whether two words differ at most by a typo that cannot change the meaning.

    The test the fuzzy quote check applies word by word: numbers exactly, no negation
    gained or lost, no opposite prefix or stem (increase/decrease, hyper/hypo).
    """
    if said == source:
        return True
    # Numbers match exactly; a word with digits in it (kinase-2) may only misspell letters.
    numeric = said.lstrip("-")[:1].isdigit() or source.lstrip("-")[:1].isdigit()
    if numeric or _DIGITS.findall(said) != _DIGITS.findall(source):
        return False
    a, b = _SPELLING.sub("", said), _SPELLING.sub("", source)
    if a == b:
        return True
    negated = {said, source} & NEGATIONS or said.endswith("n't") or source.endswith("n't")
    if negated or _opposed(a, b) or _opposed(b, a) or _negated_compound(said, source):
        return False
    distance = OSA.distance(a, b)
    longest = max(len(a), len(b))
    if longest <= 3:
        return distance == 1 and sorted(a) == sorted(b)
    return distance <= (1 if longest <= 7 else 2)


def typo_in(said: str, source: str, known: Container[str]) -> bool:
    """Whether quoted `said` misspells `source` in a text whose words are `known`.

    `typo_of`, and more for a pair that differs beyond hyphens, apostrophes and spaces:
    `said` is no word of the text nor in `COMMON_WORDS`, and the shorter word has at
    least five letters. A real word for another (thus/this, form/from, patient/patients)
    changes what is said, and short words have too many real neighbours to tell a typo.
    """
    a, b = _SPELLING.sub("", said), _SPELLING.sub("", source)
    if a != b:
        if said in known or said in COMMON_WORDS or a in COMMON_WORDS:
            return False
        if min(sum(map(str.isalpha, a)), sum(map(str.isalpha, b))) < 5:
            return False
    return typo_of(said, source)


def _opposed(a: str, b: str) -> bool:
    negated = (
        a[len(p) :]
        for p, shortest in NEGATING_PREFIXES.items()
        if a.startswith(p) and not b.startswith(p) and len(a) - len(p) >= shortest
    )
    swapped = (
        (a[len(p) :], b[len(q) :])
        for p, q in OPPOSED_PREFIXES
        if a.startswith(p) and b.startswith(q)
    )
    if any(_near(rest, b) for rest in negated) or any(_near(x, y) for x, y in swapped):
        return True
    return any(p in a and q in b for p, q in OPPOSED_STEMS)


def _negated_compound(said: str, source: str) -> bool:
    """Whether a hyphenated compound gained or lost a negation in one of its parts.

    `tumor-unassociated` against `tumor-associated`, `non-small` against `small`, and
    `drug-non-responsive` against `drug-responsive` all change what the compound says.
    """
    ours, theirs = said.split("-"), source.split("-")
    if len(ours) == 1 and len(theirs) == 1:
        return False
    if len(ours) == len(theirs):
        return any(
            x != y and (_opposed(x, y) or _opposed(y, x) or {x, y} & NEGATIONS)
            for x, y in zip(ours, theirs, strict=True)
        )
    longer, shorter = (ours, theirs) if len(ours) > len(theirs) else (theirs, ours)
    extra = [part for part in longer if part not in shorter]
    return any(part in NEGATING_PREFIXES or part in NEGATIONS for part in extra)


def negation(word: str) -> bool:
    """Whether `word` negates what follows it (not, never, can't, ...)."""
    return word.replace("'", "") in NEGATIONS or word.endswith("n't")


def same_marks(needle: str, window: str) -> bool:
    """Whether quote and source window carry the same numbers, signs, exponents and markers.

    Compared with the tokenizer the licensing floor uses (`engine.text.tokens`), so a quote
    the fuzzy check accepts never differs from its source in a token the floor would see.
    """
    return _marks(needle) == _marks(window)


def _marks(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for norm in word_sequence(text):
        if not norm.replace("'", "").isalpha():
            # Numbers and symbols whole; in a word only its digit runs and trailing sign, so
            # a spelling variant (IL6 / IL-6) still matches.
            out.extend([norm] if not norm[:1].isalpha() else _DIGITS.findall(norm))
            if norm[-1:] in "+-" and norm[:1].isalpha():
                out.append(norm[-1])
    return tuple(out)


def _near(a: str, b: str) -> bool:
    return OSA.distance(a, b, score_cutoff=1) <= 1
