"""Whether a no holds only at a point in time, in a subset, or may deny a degree or an expectation.

"Metformin did not reduce weight at 1 week" and "At 1 week, metformin did not reduce
weight" deny a reduction then, not after; "… in patients who did not exercise" and "In a
subgroup analysis, …" in part of those studied (`in_subset`); "did not reduce weight by 5%
or more" denies a degree (`by_degree`); "Metformin did not reduce weight as expected" may
say it reduced weight less than expected. A no to a claim that names no such time, part,
degree or expectation is withheld (`at_time_point`, `against_expectation`); a span ("over
12 months", "after 5 years of follow-up") is the trial's whole answer and stays a no.
"""

from __future__ import annotations

import re

from engine.review.yes_clauses import negates
from engine.text.frame_words import (
    ANALYSIS_SUBSETS,
    END_POINT_WORDS,
    EXPECTATION_WORDS,
    TIME_POINTS,
    TIME_UNITS,
)
from engine.text.numbers import is_plain_figure

Words = tuple[str, ...]
# Words after which a relative clause names a part of those studied ("in patients who …").
_AMONG = frozenset({"in", "among", "amongst"})
_RELATIVES = frozenset({"who", "whose", "whom"})
_SUBSET_REACH = 3
# How far after a negation a degree may stand ("did not reduce body weight by 5%").
_DEGREE_REACH = 6
# Levels a change may fall short of reaching ("not to zero", "not to normal").
_END_LEVELS = frozenset({"zero", "nil", "normal", "baseline", "none"})
# How far after a time word its "of" may stand ("after 5 years of follow-up").
_SPAN_REACH = 4
# Determiners that may stand between a time word and its figure ("at the 12-week visit").
_FILLERS = frozenset({"the", "a", "an"})
# Words that list time points ("at 6, 12 or 24 months", "at 28 and 90 days"), and how far
# after the time word its figures and unit may run.
_LISTING = frozenset({"and", "or", "to"})
_LIST_REACH = 8
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
        after = _time_named(said, at)
        if not after or set(after) <= set(claim):
            continue
        # "after 5 years of follow-up", "after 12 weeks of treatment": how long, a span.
        if not _fills_a_span(said, at):
            return True
    return False


def _time_named(said: Words, at: int) -> Words:
    """The figures and unit of time after the time word at `at` ("at 1 week", "at the 12-week
    visit", "at 6 or 12 months", "at 28 and 90 days", "at weeks 4 and 8"); else ()."""
    after = tuple(w for w in said[at + 1 : at + 1 + _LIST_REACH] if w not in _FILLERS)
    if after[:1] and after[0] in TIME_UNITS:
        figures = _figure_list(after[1:])
        return (after[0], *figures) if figures else ()
    figures = _figure_list(after)
    rest = after[len(figures) :]
    return (*figures, rest[0]) if figures and rest[:1] and rest[0] in TIME_UNITS else ()


def _figure_list(words: Words) -> Words:
    """The plain figures the words open with and the words listing them ("6 or 12", "4, 8 and
    12"), up to the last figure."""
    end = 0
    for at, word in enumerate(words):
        if is_plain_figure(word):
            end = at + 1
        elif word not in _LISTING or not end:
            break
    return words[:end]


def _fills_a_span(said: Words, at: int) -> bool:
    """Whether the time after `at` is how long something ran: "of" follows its unit."""
    rest = said[at + 1 : at + 1 + _SPAN_REACH]
    return "of" in rest and rest.index("of") > 0 and rest[rest.index("of") - 1] in TIME_UNITS


def against_expectation(claim_text: str, sentence: str) -> bool:
    """Whether a negation of the sentence reaches "as expected" (or anticipated, predicted …)
    with no pause, where the claim names no expectation."""
    found = _AS_EXPECTED.search(sentence)
    return found is not None and found.group(1).lower() not in claim_text.lower()


def in_subset(claim: Words, said: Words) -> bool:
    """Whether the sentence says its finding of a part the claim does not name: a relative
    clause after "in" or "among" ("in patients who did not exercise", "among those who
    stopped early") or a part of the analysis ("in a subgroup analysis", "post hoc")."""
    if not ANALYSIS_SUBSETS.isdisjoint(set(said) - set(claim)):
        return True
    for at, word in enumerate(said):
        if word in _AMONG:
            reach = said[at + 1 : at + 1 + _SUBSET_REACH]
            if not _RELATIVES.isdisjoint(reach) and not set(reach) <= set(claim):
                return True
    return False


def by_degree(claim: Words, said: Words) -> bool:
    """Whether a negation reaches a degree given by a figure the claim lacks ("did not
    reduce weight by 5% or more") or a level to reach ("not to zero"): it may deny the
    degree, not the change."""
    for at, word in enumerate(said):
        if not negates(word):
            continue
        after = said[at + 1 : at + 1 + _DEGREE_REACH]
        for i, one in enumerate(after[:-1]):
            if one == "by" and any(c.isdigit() for c in after[i + 1]) and after[i + 1] not in claim:
                return True
            if one == "to" and after[i + 1] in _END_LEVELS and after[i + 1] not in claim:
                return True  # "did not reduce mortality to zero": it may have reduced it
    return False
