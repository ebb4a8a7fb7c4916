"""Whether a sentence judges its own grounds too weak to state its finding as found.

"The evidence is mixed, but metformin reduced weight", "Evidence of low quality shows …",
"…, although studies were prone to bias", "The trial was stopped for futility after …",
"… in an underpowered trial", "… in a case report", "… in an uncontrolled study" and
"(n = 6)" report a finding beside words that say it may not hold. A yes or a no read off
such a sentence is withheld (`undercut`) unless the claim itself names the same judgement.
"""

from __future__ import annotations

from engine.core.licensing import find_run
from engine.text.clause_words import LIKEWISE_AUXILIARIES
from engine.text.frame_words import (
    BIAS_WORDS,
    CLEARED_BIAS,
    EARLY_STOPS,
    FRAGILE_PHRASES,
    FRAGILE_WORDS,
    FUTILITY_WORDS,
    GRADED_NOUNS,
    GROUNDS_NOUNS,
    LOW_GRADES,
    POPULATION_NOUNS,
    POWER_DENIALS,
    POWER_WANTS,
    SAMPLE_PER,
    STOP_REASONS,
    TINY_SAMPLE,
    WEAK_GROUNDS,
)
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words between grounds and their judgement ("the results were mixed", "findings remain
# inconclusive") and before it ("very low quality", "largely inconsistent").
_COPULAS = LIKEWISE_AUXILIARIES | {"be", "been", "remain", "remains", "remained", "appear"}
_DEGREES = frozenset({"very", "highly", "largely", "generally", "overall", "also", "still"})
# How far a grade may stand from what it grades ("the quality of the evidence was low").
_GRADE_REACH = 5
# How far before "bias" a word may clear it ("at a low risk of bias", "no evidence of
# publication bias").
_CLEAR_REACH = 4
# How far after "stopped" its reason may stand ("stopped early for lack of efficacy").
_STOP_REACH = 5
# What may follow statistical power ("lacked power to detect", "low power, and"): "low power
# laser" names a device, not the trial's power.
# Nouns of a whole sample before "of" and its count ("a sample of 8 patients").
_SAMPLES = frozenset({"sample", "total", "cohort", "series", "group"})
_AFTER_POWER = frozenset({"", "to", "for", "and", "but", "so", "which", "in"})


def undercut(claim_text: str, sentence: str) -> bool:
    """Whether `sentence` judges its grounds weak (mixed, of low quality, prone to bias) or its
    trial futile, in words the claim does not hold."""
    claim, said = set(word_sequence(claim_text)), word_sequence(sentence)
    words = tuple(word for word in said if word not in _DEGREES)
    if any(find_run(phrase, words) >= 0 and phrase[-1] not in claim for phrase in FRAGILE_PHRASES):
        return True  # "in a case report", "in a pilot study", "requires confirmation"
    return any(
        word not in claim
        and (
            word in FUTILITY_WORDS
            or word in FRAGILE_WORDS
            or _powered_short(words, at)
            or _tiny_sample(words, at)
            or (word in EARLY_STOPS and _stopped_short(words, at))
            or (word in WEAK_GROUNDS and _judges_grounds(words, at))
            or (word in LOW_GRADES and _grades(words, at))
            or (
                word in BIAS_WORDS
                and not CLEARED_BIAS.intersection(words[max(0, at - _CLEAR_REACH) : at])
            )
        )
        for at, word in enumerate(words)
    )


def _tiny_sample(words: Words, at: int) -> bool:
    """Whether the word at `at` counts the whole sample and it is under `TINY_SAMPLE`: "n = 6",
    "a sample of 8", "in 3 patients", "among 8 participants"; not a count per group ("n = 6
    per group") nor a share ("in 3 of 40 patients")."""
    word, after = words[at], words[at + 1 : at + 3]
    if not word.isdigit() or int(word) >= TINY_SAMPLE or SAMPLE_PER.intersection(after):
        return False
    before = words[max(0, at - 2) : at]
    if before == ("n", "=") or (before[-1:] == ("of",) and before[0] in _SAMPLES):
        return True  # "n = 6", "a sample of 8 patients", "a total of 5 participants"
    return (
        before[-1:] in (("in",), ("among",))
        and after[:1] != ("of",)
        and bool(after and after[0] in POPULATION_NOUNS)
    )


def _powered_short(words: Words, at: int) -> bool:
    """Whether the word at `at` says the trial had too little power to tell: "not powered",
    "insufficiently powered", "lacked (statistical) power", "low power to detect"."""
    word = words[at]
    if word == "powered":
        return at > 0 and words[at - 1] in POWER_DENIALS
    if word != "power":
        return False
    back = at - 1 - (at > 1 and words[at - 1] == "statistical")
    after = words[at + 1] if at + 1 < len(words) else ""
    return back >= 0 and words[back] in POWER_WANTS and after in _AFTER_POWER


def _stopped_short(words: Words, at: int) -> bool:
    """Whether the stop at `at` is for want of an effect ("stopped for lack of efficacy")."""
    return not STOP_REASONS.isdisjoint(words[at + 1 : at + 1 + _STOP_REACH])


def _judges_grounds(words: Words, at: int) -> bool:
    """Whether the weak word at `at` stands just before grounds ("mixed results") or after
    grounds and a copula ("the evidence is mixed")."""
    if words[at + 1 : at + 2] and words[at + 1] in GROUNDS_NOUNS:
        return True
    before = words[max(0, at - 2) : at]
    return len(before) == 2 and before[0] in GROUNDS_NOUNS and before[1] in _COPULAS


def _grades(words: Words, at: int) -> bool:
    """Whether the low grade at `at` grades quality or certainty near it ("of low quality",
    "low-certainty evidence", "the quality of the trials was poor")."""
    near = words[max(0, at - _GRADE_REACH) : at + 2]
    return not GRADED_NOUNS.isdisjoint(near)
