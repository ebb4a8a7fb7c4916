"""Whether the evidence says of part what the claim says of all.

"Some patients improved" for "Patients improve", "reduced pain in 3 of 10 trials", "in a
minority of patients", "in most analyses", "in two thirds of patients", "in all but one
trial": a finding held in part is no yes to a claim that names no part.
"""

from __future__ import annotations

from engine.review.yes_figures import exact
from engine.review.yes_frames import actor
from engine.text.frame_words import PARTIAL_QUANTIFIERS, POPULATION_NOUNS
from engine.text.lexicon import COUNTING_WORDS
from engine.text.stems import mention_stem

Words = tuple[str, ...]
# Quantifiers of more than half that still leave some out, read after "in" ("in most
# analyses"); alone they are also superlatives ("the most common").
_MANY = frozenset({"most", "many"})
_STUDY_UNITS = frozenset(
    {"analyses", "trials", "studies", "cases", "cohorts", "subgroups", "models", "sites",
     "centres", "centers", "countries", "settings", "datasets", "samples"}
)  # fmt: skip
# Fractions of a whole, plural after their count ("two thirds of patients").
_FRACTIONS = frozenset({"thirds", "quarters", "fifths", "tenths"})
# Words after "in" that say a finding held in one case ("in one patient", "in a single case").
_ONE = frozenset({"one", "single"})


def partial(claim: Words, kin: Words) -> bool:
    """Whether the evidence says of part of the claim's actor what the claim says of all of
    it: a partial quantifier just before an actor word ("Some patients improved" for
    "Patients improve"), a finding held "in N of M" with N under M ("Acupuncture reduced
    pain in 3 of 10 trials", "in 2 of 10 patients") or "in" a part ("in some patients", "in
    a minority of patients"), where the claim gives no quantifier or number."""
    subject = {mention_stem(word) for word in actor(claim) or ()}
    if not subject:
        return False
    if _in_part_of(kin, claim) or _in_some(kin, claim):
        return True
    return not exact(claim) and any(
        word in PARTIAL_QUANTIFIERS
        and any(mention_stem(after) in subject for after in kin[at + 1 : at + 3])
        for at, word in enumerate(kin)
    )


def _in_part_of(words: Words, claim: Words) -> bool:
    """Whether the words say "in N of M" (studies, patients, mice …) with N under M, or "in
    N% of", figures the claim does not give."""
    for at in range(len(words) - 2):
        into, low, of = words[at : at + 3]
        if into != "in" or of != "of" or low in claim:
            continue
        if low.endswith("%") and low[:-1].replace(".", "", 1).isdigit():
            return True  # "in 30% of simulations"
        high, unit = (*words[at + 3 : at + 5], "", "")[:2]
        low, high = COUNTING_WORDS.get(low, low), COUNTING_WORDS.get(high, high)
        if low.isdigit() and high.isdigit() and int(low) < int(high) and unit.isalpha():
            return True  # "in 2 of 10 patients", "in two of three studies"
    return False


def _in_some(words: Words, claim: Words) -> bool:
    """Whether the words say a finding held "in" a part the claim does not name: "in some
    patients", "in most analyses", "in a minority of cases", "in a subset of tumours", "in one
    patient", "in a single case", "in two thirds of patients", "in all but one trial"."""
    for at, word in enumerate(words[:-1]):
        if word != "in":
            continue
        after = words[at + 1 : at + 3]
        quantifier = after[1] if after[:1] == ("a",) and len(after) > 1 else after[0]
        if quantifier in PARTIAL_QUANTIFIERS and quantifier not in claim:
            return True
        if quantifier in _MANY and quantifier not in claim and _units_studied(words[at + 2 :]):
            return True  # "in most analyses", "in many patients": not in all
        if quantifier in _ONE and quantifier not in claim:
            return True
        if after[1:] and (after[1] in _FRACTIONS or after == ("all", "but")):
            return True  # "in two thirds of patients", "in all but one trial"
    return False


def _units_studied(words: Words) -> bool:
    """Whether the words open with what a study counts, at most one word before it ("trials",
    "analyses", "older patients"): "in most eukaryotic cells" is a scope, not a count."""
    return any(word in POPULATION_NOUNS or word in _STUDY_UNITS for word in words[:2])
