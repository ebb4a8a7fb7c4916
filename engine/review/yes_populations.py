"""Whether a sentence names what a claim changes only as who was studied.

"Statins increased the risk of death in patients with diabetes" says what statins did to
death among people who have diabetes, not that they raise diabetes, and "aspirin increased
the risk of bleeding in sepsis" nothing of the risk of sepsis, and "children of mothers
given folate had fewer defects" nothing of defects in mothers; "Aspirin reduced
mortality among stroke patients" says nothing of how much stroke there is. A yes to "Do
statins increase the risk of diabetes?" read off such a sentence is withheld
(`Overstated.POPULATION`). A claim that itself names the word as who was studied keeps it
out of the rule, and so does a sentence that also names it as what changed.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.review.yes_attributes import MEASURES
from engine.review.yes_frames import changed_words, one_direction, phrases_of, relates, subject
from engine.text.frame_words import POPULATION_NOUNS, ROLE_LINKS, ROLE_NOUNS
from engine.text.lexicon import STOP_WORDS
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words by which who was studied has what follows ("patients with", "people who had").
_HAVING = frozenset({"with", "have", "has", "had", "having"})
# How many words may stand between "with" and the word it gives ("with type 2 diabetes").
_REACH = 3
# What a claim names the risk itself by ("the risk of sepsis"), and the words after which a
# sentence names where another risk was measured ("the risk of bleeding in sepsis").
_RISK_HEADS = frozenset({"risk", "risks", "incidence", "odds", "onset", "development"})
_IN = frozenset({"in", "among"})
# How far before a word of the claim the people tied to it may stand ("the parents of
# children with asthma": four words before "asthma").
_ROLE_REACH = 6


def population_only(claim: Words, evidence: list[str]) -> bool:
    """Whether every mention in the evidence of a word the claim's one direction word changes
    (or, in a claim of a link, a word beside its subject) names who was studied ("in
    patients with diabetes", "among stroke patients"), where the claim names it as what
    changes ("increase the risk of diabetes", "a risk factor for asthma")."""
    one = one_direction(claim)
    if one is not None:
        objects = changed_words(claim, one[0])
    else:
        # A claim of a link ("a risk factor for asthma"): what it names beside its subject.
        agent = set(subject(claim))
        objects = {w for w in claim if _content(w) and w not in agent}
    wanted = {
        mention_stem(word)
        for word in objects
        if word not in MEASURES and not _named_as_population(claim, claim.index(word))
    }
    if not wanted:
        return False
    risked = _risked(claim)
    return (
        _only_as(wanted, evidence, risked) or _kin_of(claim, evidence) or _beside(claim, evidence)
    )


def _kin_of(claim: Words, evidence: list[str]) -> bool:
    """Whether the claim's own group ("in mothers") stands in the evidence only as whose
    others were studied ("children of mothers given folate"): the finding is theirs."""
    groups = {word for word in claim if word in POPULATION_NOUNS}
    if not groups:
        return False
    words = [word_sequence(text) for text in evidence]
    for group in sorted(groups):
        where = [
            at > 1
            and said[at - 1] == "of"
            and said[at - 2] in POPULATION_NOUNS
            and said[at - 2] not in claim
            for said in words
            for at, word in enumerate(said)
            if word == group
        ]
        if where and all(where):
            return True
    return False


def _beside(claim: Words, evidence: list[str]) -> bool:
    """Whether some word of the claim after its subject stands in the evidence only in people
    named by whom they stand beside, whom the claim does not name ("anxiety in the parents of
    children with asthma" for "in children with asthma", "the mortality of physicians
    treating sepsis" for "mortality in sepsis"): the finding is theirs."""
    agent = set(subject(claim))
    wanted = {mention_stem(word) for word in claim if _content(word) and word not in agent} - {
        mention_stem(word) for word in claim if word in ROLE_NOUNS
    }
    return _every_mention(wanted, evidence, lambda words, at, _: _tied(words, at, claim))


def _tied(words: Words, at: int, claim: Words) -> bool:
    """Whether the word at `at` follows, within `_ROLE_REACH` words and no relation word,
    people named by whom they stand beside and a word that ties them ("parents of", "nurses
    treating"), people the claim does not name."""
    for back in range(at - 1, max(0, at - _ROLE_REACH) - 1, -1):
        if relates(words[back]):
            return False
        if words[back] in ROLE_LINKS and back > 0:
            holder = words[back - 1]
            if holder in ROLE_NOUNS | POPULATION_NOUNS and holder not in claim:
                return True
    return False


def risk_scoped_only(claim: Words, evidence: list[str]) -> bool:
    """Whether the evidence names what the claim calls the risk itself ("the risk of
    sepsis") only as where another risk was measured ("the risk of bleeding in sepsis") or
    who was studied; read for a no as well as a yes."""
    risked = _risked(claim)
    return _only_as(risked, evidence, risked)


def _only_as(stems: set[str], evidence: list[str], risked: set[str]) -> bool:
    """Whether some stem's every mention in the evidence names who was studied, or, for a
    stem in `risked`, where another risk was measured."""
    return _every_mention(
        stems,
        evidence,
        lambda words, at, stem: (
            _named_as_population(words, at) or (stem in risked and _scoped_in(words, at))
        ),
    )


def _every_mention(
    stems: set[str], evidence: list[str], test: Callable[[Words, int, str], bool]
) -> bool:
    """Whether some stem is mentioned in the evidence's phrases and `test` (the phrase, the
    mention's place, the stem) holds of every mention."""
    segments = phrases_of(evidence)
    for stem in sorted(stems):
        where = [
            test(segment, at, stem)
            for segment in segments
            for at, said in enumerate(segment)
            if mention_stem(said) == stem
        ]
        if where and all(where):
            return True
    return False


def _risked(claim: Words) -> set[str]:
    """The stems of what the claim names as the risk itself ("the risk of sepsis")."""
    return {
        mention_stem(claim[at + 2])
        for at in range(len(claim) - 2)
        if claim[at] in _RISK_HEADS and claim[at + 1] == "of"
    }


def _scoped_in(words: Words, at: int) -> bool:
    """Whether the word at `at` stands just after "in" or "among" with no determiner, the
    scope of another risk ("the risk of bleeding in sepsis")."""
    return at > 0 and words[at - 1] in _IN


def _named_as_population(words: Words, at: int) -> bool:
    """Whether the word at `at` says who was studied: just before a population noun ("stroke
    patients"), or after one and "with", "who had" within `_REACH` words and no relation word
    between ("patients with type 2 diabetes", "those who had a stroke")."""
    if at + 1 < len(words) and words[at + 1] in POPULATION_NOUNS:
        return True
    for back in range(at - 1, max(-1, at - 1 - _REACH), -1):
        before = words[back]
        if before in _HAVING:
            holder = words[max(0, back - 2) : back]
            return any(word in POPULATION_NOUNS for word in holder)
        if relates(before):
            return False
    return False


def _content(word: str) -> bool:
    return word not in STOP_WORDS and word.isalpha() and not relates(word)
