"""Whether a no holds only at a point in time, or may deny an expectation, not the finding.

"Metformin did not reduce weight at 1 week" and "At 1 week, metformin did not reduce
weight" deny a reduction then, not after; "Metformin did not reduce weight as expected"
may say it reduced weight less than expected. A no to a claim that names no such time or
expectation is withheld (`at_time_point`, `against_expectation`).
"""

from __future__ import annotations

import re

from engine.text.frame_words import END_POINT_WORDS, EXPECTATION_WORDS, TIME_POINTS, TIME_UNITS

Words = tuple[str, ...]
# Determiners that may stand between a time word and its figure ("at the 12-week visit").
_FILLERS = frozenset({"the", "a", "an"})
# A negation, then "as" and an expectation with no pause between: a pause ("did not reduce
# weight, as expected") makes the expectation the no itself.
_AS_EXPECTED = re.compile(
    r"\b(?:not|no|never|\w+n't|fail|fails|failed|failing)\b[^,;:()\[\]]*?\bas\s+(?:was\s+|had\s+been\s+)?("
    + "|".join(sorted(EXPECTATION_WORDS))
    + r")\b",
    re.IGNORECASE,
)


def at_time_point(claim: Words, said: Words) -> bool:
    """Whether the sentence fixes a point in time the claim does not ("at 1 week", "after 2
    weeks", "by week 12"), other than the trial's end point ("at 12 months, the primary end
    point")."""
    if not END_POINT_WORDS.isdisjoint(said):
        return False
    for at, word in enumerate(said):
        if word not in TIME_POINTS:
            continue
        after = [w for w in said[at + 1 : at + 4] if w not in _FILLERS][:2]
        if len(after) < 2 or not any(map(_figure, after)):
            continue
        if not TIME_UNITS.isdisjoint(after) and not set(after) <= set(claim):
            return True
    return False


def against_expectation(claim_text: str, sentence: str) -> bool:
    """Whether a negation of the sentence reaches "as expected" (or anticipated, predicted …)
    with no pause, where the claim names no expectation."""
    found = _AS_EXPECTED.search(sentence)
    return found is not None and found.group(1).lower() not in claim_text.lower()


def _figure(word: str) -> bool:
    return word.replace(".", "", 1).isdigit()
