"""Whether a sentence's figures for what it tested beat those it gives for its control.

"Metformin reduced weight by 5% versus 6% with placebo" states a reduction its control
matched or beat: the change is no effect of metformin. A figure after "by" or before a
direction word ("a 5% reduction versus 6% in controls") is a size of change, so the control's
must be the smaller; a figure after "to" is a level reached, so it must lie past the
control's on the claim's side. A figure of neither kind is a level where it gives a rate
("reduced mortality (7% vs 6% with placebo)": 7% of those given it died, more than with
placebo); otherwise it could be either, and two arms that differ say no direction a reader
could be sure of ("reduced body weight (5% vs 6% with placebo)" is a larger loss with
placebo read as sizes, a smaller one read as levels), so a yes is withheld.
"""

from __future__ import annotations

from decimal import Decimal
from enum import Enum

from engine.core.stance import Overstated
from engine.text.frame_words import CONTROLS
from engine.text.lexicon import cue_of
from engine.text.numbers import value_of

Words = tuple[str, ...]

# Words that set one figure against the next: "5% versus 6%", "vs", "compared with".
_AGAINST = frozenset({"versus", "vs", "against", "compared"})
# Words allowed between the comparing word and the control's figure ("compared with 6%").
_LINKS = frozenset({"with", "to", "a", "an"})
# How far before a figure "by" or "to" may stand ("by a mean of 5%"), and how far after the
# control's figure its control is named ("6% in the placebo group").
_SIZE_REACH = 4
_CONTROL_REACH = 4
# How many words may stand between a figure and "versus": its direction word and what it
# is of ("a 5% reduction in body weight versus 6%").
_CUE_REACH = 4
# Words that name a level reached, the inert controls whose level is no effect, and how far
# after "to" they may stand ("to the level seen in the placebo group").
_LEVEL_WORDS = frozenset({"level", "levels", "values", "rates"})
_INERT = frozenset({"placebo", "sham", "vehicle", "untreated"})
_LEVEL_REACH = 7
# How many words a unit may take ("mg/dL" reads "mg dl").
_UNIT_WORDS = 2
_SIZE_FILLERS = frozenset({"a", "an", "mean", "median", "average", "of", "about"})
# Outcomes whose percentage is a level, the share of people it befell ("mortality 7% vs 6%"),
# where it stands before the figures in the sentence.
_RATES = frozenset(
    {
        "mortality", "death", "deaths", "incidence", "risk", "risks", "rate", "rates",
        "prevalence", "events", "recurrence", "relapse", "relapses", "readmission",
        "readmissions", "hospitalisation", "hospitalization", "hospitalisations",
        "hospitalizations", "admissions", "infections", "complications", "failure",
    }
)  # fmt: skip


class _Reading(Enum):
    """What a figure of the tested arm is read as."""

    SIZE = "size"  # a size of change: "by 5%", "a 5% reduction"
    LEVEL = "level"  # a level reached: "to 5%"
    EITHER = "either"  # it could be either


def control_against(said: Words, sign: int) -> Overstated | None:
    """The rule broken where the control's figure matches the tested arm's (`NOT_SIGNIFICANT`)
    or beats it in the direction stated (`DIRECTION`); else None. `sign` is the claim's
    direction of amount (0 where it states a direction of another kind)."""
    if _to_control_level(said):
        return Overstated.NOT_SIGNIFICANT  # "reduced mortality to the level seen with placebo"
    for at in range(len(said)):
        pair = _pair_at(said, at)
        if pair is None:
            continue
        tested, control = pair
        if tested == control:
            return Overstated.NOT_SIGNIFICANT
        kind = _kind(said, at)
        if kind is _Reading.SIZE and control > tested:
            return Overstated.DIRECTION
        if kind is _Reading.LEVEL and sign and (tested - control) * sign < 0:
            return Overstated.DIRECTION
        if kind is _Reading.EITHER and sign:
            return Overstated.DIRECTION  # one reading or the other says the control did more
    return None


def _to_control_level(said: Words) -> bool:
    """Whether the words bring what changed "to the level" of an inert control ("to the
    level seen with placebo", "to placebo levels"): no better than nothing."""
    for at, word in enumerate(said):
        if word != "to":
            continue
        after = said[at + 1 : at + 1 + _LEVEL_REACH]
        if _LEVEL_WORDS.isdisjoint(after[:3]):
            continue
        if not _INERT.isdisjoint(after):
            return True
    return False


def _pair_at(said: Words, at: int) -> tuple[Decimal, Decimal] | None:
    """The tested arm's figure at `at` and the control's it is set against ("5% versus 6%
    with placebo"), where the words after the second name a control; else None."""
    tested = value_of(said[at])
    if tested is None:
        return None
    end = _comparing_word(said, at + 1)
    if end is None:
        return None
    unit = said[at + 1 : end]
    end += 1
    while end < len(said) and said[end] in _LINKS:
        end += 1
    control = value_of(said[end]) if end < len(said) else None
    if control is None:
        return None
    after = said[end + 1 : end + 1 + _CONTROL_REACH]
    if unit and cue_of(unit[0]) is None and after[: len(unit)] != unit:
        return None  # "2.1 kg vs 3.0 kg", "40 mg/dL versus 45 mg/dL": one unit both sides
    if CONTROLS.isdisjoint(after):
        return None
    if said[at].endswith("%") != said[end].endswith("%"):
        return None
    return tested, control


def _comparing_word(said: Words, start: int) -> int | None:
    """Where the word setting a figure against the next stands, from `start` just after the
    first figure: at once, past a unit ("2.1 kg vs 3.0 kg", "40 mg/dL versus"), or past a
    direction word and what it is of ("a 5% reduction in weight versus 6%"); else None."""
    for end in range(start, min(len(said), start + 1 + _CUE_REACH)):
        if said[end] in _AGAINST:
            break
    else:
        return None
    between = said[start:end]
    if len(between) <= _UNIT_WORDS or cue_of(between[0]) is not None:
        return end
    return None


def _kind(said: Words, at: int) -> _Reading:
    """Whether the figure at `at` is a size of change, a level reached, or could be either."""
    if at + 1 < len(said) and cue_of(said[at + 1]) is not None:
        return _Reading.SIZE
    before = at - 1
    while before >= max(0, at - _SIZE_REACH) and said[before] in _SIZE_FILLERS:
        before -= 1
    if before >= 0 and said[before] == "by":
        return _Reading.SIZE
    if before >= 0 and said[before] == "to":
        return _Reading.LEVEL
    if said[at].endswith("%") and not _RATES.isdisjoint(said[:at]):
        return _Reading.LEVEL  # "reduced mortality (7% vs 6%)": the share who died
    return _Reading.EITHER
