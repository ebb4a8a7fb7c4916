"""Whether a sentence finds its change only against another treatment, not against none.

"Aspirin reduced mortality compared with clopidogrel" says aspirin did better than
clopidogrel: both may have lowered mortality, or clopidogrel raised it. It answers "Does
aspirin reduce mortality compared with clopidogrel?", not "Does aspirin reduce mortality?".
A yes is withheld where the sentence sets its finding against something the claim never
names that is no control: not placebo, usual care, no treatment, the start ("compared with
baseline"), what all were given ("diet alone") or what was expected.
"""

from __future__ import annotations

from engine.core.licensing import find_run
from engine.text.frame_words import CONTROLS
from engine.text.lexicon import CLAUSE_BREAKS, COUNTING_WORDS, NEGATIONS, STOP_WORDS, cue_of
from engine.text.numbers import value_of
from engine.text.stems import mention_stem, mentions

Words = tuple[str, ...]

# What sets a finding against another arm ("versus heparin", "relative to heparin").
_MARKERS = (
    ("versus",), ("vs",), ("compared", "with"), ("compared", "to"), ("relative", "to"),
    ("in", "comparison", "with"), ("in", "comparison", "to"), ("superior", "to"),
    ("inferior", "to"),
)  # fmt: skip
# "than" sets one thing against another ("more than heparin did", "higher with placebo
# than with aspirin"), unless it sets something aside ("rather than", "other than").
_ASIDE_BEFORE_THAN = frozenset({"rather", "other"})
# Comparatives that state a level against another's, and how far before "than" they stand.
_LEVELS = frozenset(
    {"higher", "lower", "more", "less", "fewer", "greater", "smaller", "larger", "better",
     "worse", "superior", "inferior"}
)  # fmt: skip
_LEVEL_REACH = 5
# Words by which a claim compares something itself ("more than placebo", "too much"); a
# comparative alone is a direction ("Does aspirin lower mortality?").
_COMPARING_CLAIM = frozenset(
    {"than", "too", "versus", "vs", "compared", "relative", "superior", "inferior"}
)
# Words after which what stands is no other treatment: controls, the start, the background
# every arm had, nothing, what was expected.
_NEUTRAL = CONTROLS | frozenset(
    {
        "standard", "baseline", "before", "pre", "prior", "alone", "none", "nothing", "nonusers",
        "expected", "predicted", "anticipated", "previously", "earlier",
    }
)  # fmt: skip
# Words naming who received it, passed over to what they received ("patients given heparin").
_PEOPLE = frozenset(
    {
        "patients", "participants", "subjects", "people", "individuals", "group", "groups",
        "arm", "arms", "those", "receiving", "received", "given", "treated", "taking", "users",
        "took", "take", "takes", "used", "using", "did", "does", "do",
    }
)  # fmt: skip
# How many words after the comparing words the other side's name may take.
_SIDE_REACH = 4


def against_another(claim: Words, said: Words) -> bool:
    """Whether the evidence's words set their finding against a treatment or group the claim
    never names and that is no control ("compared with clopidogrel", "versus heparin",
    "lower with aspirin than with heparin"), in a claim that compares nothing itself. The
    comparison must follow the finding: a word the claim names or a small word ("reduced
    mortality versus", "was superior to"), not a kind set against another ("rapid versus
    long-term responses", "Myths vs. Facts")."""
    if not _COMPARING_CLAIM.isdisjoint(claim):
        return False  # "predict too much warming", "more than placebo": the claim compares
    own = {mention_stem(word) for word in claim}
    return any(
        _after_finding(said, start, own) and _other_side(said, end, own)
        for start, end in _sides(said)
    )


def _after_finding(said: Words, start: int, own: set[str]) -> bool:
    """Whether the word before the comparing words at `start` is small, a figure, or named
    by the claim."""
    if start == 0:
        return False
    before = said[start - 1]
    return (
        before in STOP_WORDS or value_of(before) is not None or mentions(mention_stem(before), own)
    )


def in_other_side(said: Words, at: int) -> bool:
    """Whether the word at `at` stands in the other side of a comparison ("compared with
    patients not given aspirin"): a negation there names the control, it denies nothing."""
    return any(end <= at < end + _SIDE_REACH for _, end in _sides(said))


def _sides(said: Words) -> list[tuple[int, int]]:
    """Where each comparison's comparing words begin and where its other side begins."""
    found = []
    for marker in _MARKERS:
        start = 0
        while (at := find_run(marker, said[start:])) >= 0:
            found.append((start + at, start + at + len(marker)))
            start += at + 1
    found += [(at, at + 1) for at, word in enumerate(said) if _relative_than(said, at)]
    return sorted(found)


def _relative_than(said: Words, at: int) -> bool:
    """Whether "than" at `at` states a level only against another's ("mortality was lower with
    aspirin than with heparin"): a comparative before it, no change said before it ("reduced
    mortality more than heparin did" says both reduced it), nothing set aside ("rather
    than")."""
    if said[at] != "than" or not at or said[at - 1] in _ASIDE_BEFORE_THAN:
        return False
    if _LEVELS.isdisjoint(said[max(0, at - _LEVEL_REACH) : at]):
        return False
    return not any(word.endswith("ed") and cue_of(word) is not None for word in said[:at])


def _other_side(said: Words, start: int, own: set[str]) -> bool:
    """Whether the side named from `start` is another treatment the claim does not name."""
    side = said[start : start + _SIDE_REACH]
    cut = next((i for i, word in enumerate(side) if word in CLAUSE_BREAKS), len(side))
    side = side[:cut]
    if not side or value_of(side[0]) is not None or side[0] in COUNTING_WORDS:
        return False  # "5% versus 6%", "less than six hours": an amount, not another arm
    if any(word in _NEUTRAL or word in NEGATIONS or word.startswith("non") for word in side):
        return False
    named = [w for w in side if w not in STOP_WORDS and w not in _PEOPLE and w.isalpha()]
    return bool(named) and not mentions(mention_stem(named[0]), own)
