"""Whether a sentence says the claim's actor acted only with a partner, or a control did alike.

"Ezetimibe, when combined with simvastatin, reduced LDL" and "Metformin and exercise together
reduced glucose" say what the pair did, not what the claim's actor does alone
(`combined_actor`). "No more than placebo", "not relative to placebo", "as much as
placebo", "like placebo" and "less effective than placebo" deny the difference from a
control that a change is (`null_comparison`).
"""

from __future__ import annotations

from engine.review.yes_frames import actor
from engine.text.frame_words import (
    COMBINATION_MARKERS,
    COMBINATION_REACH,
    CONTROLS,
    NULL_COMPARATIVES,
    OTHER_SIDE,
)
from engine.text.lexicon import NEGATIONS
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words that open the other side of a comparison, and how far after the comparative.
_COMPARED_WITHIN = 3
# Words that set a finding against a comparison: "not relative to placebo", "not versus
# control" deny the difference from it.
_AGAINST = frozenset({"relative", "compared", "versus", "vs", "over", "against"})
# Words that say two arms did the same ("similarly to placebo"), and how near a control
# must stand to them.
_ALIKE = frozenset(
    {"similarly", "comparably", "equally", "parallel", "same", "similar", "comparable", "alike"}
)
_ALIKE_REACH = 6
# Words by which a control did the same ("placebo did too", "placebo also reduced it").
_ALSO = frozenset({"too", "also", "likewise"})
_ALSO_REACH = 2
# Words by which the actor did less than a control ("less effective than placebo").
_LESSER = frozenset({"less", "inferior", "worse", "weaker", "smaller"})
# Words after "X and Y" that make them act as one ("together", "in combination").
_JOINT = frozenset({"together", "combined", "jointly", "combination"})


def combined_actor(claim: Words, evidence: list[str]) -> bool:
    """Whether the evidence says the claim's actor acted only together with a partner the
    claim never names: every mention of an actor word is followed, within
    `COMBINATION_REACH` words, by a `COMBINATION_MARKERS` phrase whose partner the claim
    leaves out ("Ezetimibe, when combined with simvastatin, reduced LDL" for "Ezetimibe
    reduces LDL")."""
    subject = set(actor(claim) or ())
    if not subject:
        return False
    said_by_claim = set(claim)
    where = []
    for text in evidence:
        words = word_sequence(text)
        for at, word in enumerate(words):
            if word in subject:
                where.append(_partnered(words, at, said_by_claim))
    return bool(where) and all(where)


def _partnered(words: Words, at: int, said: set[str]) -> bool:
    """Whether the actor word at `at` acted with a partner the claim leaves out: a
    `COMBINATION_MARKERS` phrase after it, "and" a partner and "together" ("Metformin and
    exercise together reduced …"), or "the combination of" it "and" a partner."""
    partner = words[at + 1 : at + 3]
    if len(partner) == 2 and partner[0] == "and" and partner[1] not in said:
        if not _JOINT.isdisjoint(words[at + 3 : at + 3 + COMBINATION_REACH]):
            return True
        if words[max(0, at - 2) : at] == ("combination", "of"):
            return True
    for start in range(at + 1, min(len(words), at + 1 + COMBINATION_REACH)):
        for marker in COMBINATION_MARKERS:
            end = start + len(marker)
            if words[start:end] == marker and end < len(words) and words[end] not in said:
                return True
    return False


def null_comparison(claim: Words, evidence: list[str]) -> bool:
    """Whether the evidence compares with a negation ("no more than placebo", "not better
    than", "no different from", "but not relative to placebo") while the claim holds no
    negation, or says a control did alike ("as much as placebo", `_alike_control`) or better
    ("less effective than placebo", `_behind_control`) while the claim names none: a
    difference the evidence denies. "Not lower specificity" compares with nothing and is
    no such denial."""
    if any(word in NEGATIONS for word in claim):
        return False
    for text in evidence:
        said = word_sequence(text)
        for at, word in enumerate(said[:-1]):
            reach = said[at + 2 : at + 2 + _COMPARED_WITHIN]
            if word in NEGATIONS and said[at + 1] in NULL_COMPARATIVES and OTHER_SIDE & set(reach):
                return True
            # "lowered triglycerides relative to baseline but not relative to placebo"
            against = said[at + 1 : at + 1 + _COMPARED_WITHIN + 1]
            if word in NEGATIONS and _AGAINST & set(against) and CONTROLS & set(against):
                return True
        if CONTROLS.isdisjoint(claim) and (_alike_control(said) or _behind_control(said, claim)):
            return True
    return False


def _alike_control(said: Words) -> bool:
    """Whether the words say the finding came about as much with a control ("as much as
    placebo", "as effective as placebo", "to the same extent as placebo", "similarly to
    placebo", "in parallel with placebo", "Metformin and placebo reduced glucose
    comparably")."""
    for at, word in enumerate(said):
        # "as much as", "as well as", "as effective as placebo": an equal, not a difference.
        alike = word in _ALIKE or (word == "as" and said[at + 2 : at + 3] == ("as",))
        near = said[max(0, at - _ALIKE_REACH) : at + _ALIKE_REACH + 1]
        if alike and not CONTROLS.isdisjoint(near):
            return True
        if word in CONTROLS and _likewise(said, at):
            return True
    return False


def _likewise(said: Words, at: int) -> bool:
    """Whether the control at `at` is said to have done the same: "like placebo", "both
    metformin and placebo", "placebo did too", "placebo also reduced weight"."""
    if said[at - 1 : at] == ("like",) or said[at - 2 : at - 1] == ("like",):
        return True
    if "both" in said[max(0, at - _ALIKE_REACH) : at] and "and" in said[at - 2 : at]:
        return True
    return not _ALSO.isdisjoint(said[at + 1 : at + 1 + _ALSO_REACH])


def _behind_control(said: Words, claim: Words) -> bool:
    """Whether the words say the actor did less than a control, in efficacy or in the
    change itself ("less effective than placebo", "inferior to placebo", "reduced weight
    less than placebo did"): not a less of what the claim names ("less weight gain than
    placebo" is a yes to "reduces weight gain")."""
    for at, word in enumerate(said):
        if word not in _LESSER:
            continue
        after = said[at + 1 : at + 1 + _COMPARED_WITHIN + 1]
        if after[:1] and after[0] in claim:
            continue
        if not CONTROLS.isdisjoint(after) and not {"than", "to"}.isdisjoint(after):
            return True
    return False
