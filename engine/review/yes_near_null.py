"""Whether a sentence says its finding only came near: near significance, or little effect.

"Metformin reduced weight (borderline significant)", "…, which approached significance" and
"…, of marginal significance" state a change their own words say was not shown, "showed a
tendency to reduce" one that only leaned its way (`tended`); "had little
effect on weight" and "minimal impact" state one all but none. A yes read off such a
sentence is withheld (`near_null`) unless the claim itself says the same, and so is a no
beside an undenied trend or near significance (`leaned`).
"""

from __future__ import annotations

from engine.text.frame_words import (
    COPULAS,
    EFFECT_NOUNS,
    LEANING_WORDS,
    NEAR_JUDGEMENTS,
    NEAR_SIGNIFICANCE,
    SCANT_DEGREES,
    SIGNIFICANCE_STEMS,
    TENDENCY_NOUNS,
)
from engine.text.lexicon import NEGATIONS

Words = tuple[str, ...]
# How far after a word of nearness its word of significance may stand ("approached
# statistical significance", "borderline significant").
_SIGNIFICANCE_REACH = 2
# How far before a word of leaning a negation denies it ("no significant trend", "did not
# approach significance").
_DENIED_REACH = 3
# Words between a scant degree and its noun ("little or no effect", "hardly any change").
_BETWEEN = frozenset({"any", "net", "overall", "or", "no"})


def near_null(claim: Words, said: Words) -> bool:
    """Whether `said` names its finding near significance or of scant effect, in words the
    claim does not hold."""
    return any(
        word not in claim and (_near_significance(said, at) or _scant_effect(said, at))
        for at, word in enumerate(said)
    )


def tended(claim: Words, said: Words) -> bool:
    """Whether `said` says its change only leaned its way ("showed a tendency to reduce"), in
    words the claim does not hold."""
    return bool((TENDENCY_NOUNS & set(said)) - set(claim))


def leaned(claim: Words, said: Words) -> bool:
    """Whether `said` names, undenied, a trend or a near significance beside its finding ("did
    not reduce weight, though a trend was noted", "…; the difference approached
    significance"), in words the claim does not hold."""
    return any(
        word not in claim
        and (word in LEANING_WORDS or _near_significance(said, at))
        and NEGATIONS.isdisjoint(said[max(0, at - _DENIED_REACH) : at])
        for at, word in enumerate(said)
    )


def _near_significance(said: Words, at: int) -> bool:
    """Whether the word at `at` says what follows only came near significance, or judges what
    came before so after a copula ("the weight loss was marginal")."""
    if said[at] in NEAR_JUDGEMENTS and at > 0 and said[at - 1] in COPULAS:
        return True
    if said[at : at + 2] == ("short", "of"):
        at += 1
    elif said[at] not in NEAR_SIGNIFICANCE:
        return False
    after = said[at + 1 : at + 1 + _SIGNIFICANCE_REACH]
    return any(word.startswith(SIGNIFICANCE_STEMS) for word in after)


def _scant_effect(said: Words, at: int) -> bool:
    """Whether the word at `at` makes the effect noun after it all but none."""
    if said[at] not in SCANT_DEGREES:
        return False
    for word in said[at + 1 :]:
        if word not in _BETWEEN:
            return word in EFFECT_NOUNS
    return False
