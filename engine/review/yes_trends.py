"""Whether the evidence names what the claim says acts only as a trend of its own.

"Sepsis mortality fell over the decade in which aspirin use rose" and "As aspirin
prescriptions increased, sepsis mortality declined" say that two things moved over the same
time, not that one moved the other: the direction word there belongs to aspirin's own use.
Read as a cue, "rose" beside "reduces" was a green no, and "Sepsis mortality rose as aspirin
use fell" a green yes to "Does aspirin increase sepsis mortality?", the wrong way round.
"""

from __future__ import annotations

import re

from engine.review.yes_frames import PAUSES, actor, relates
from engine.text.frame_words import EXPOSURE_NOUNS, TREND_AUXILIARIES, TREND_TAILS, TREND_VERBS
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# How many words of exposure or tense may stand between the thing and its verb ("aspirin
# use has risen", "statin prescribing rates steadily increased").
_BETWEEN = 3
# A figure after the verb is how much it moved ("rose 20%", "fell to 12"), not an object.
_FIGURE = re.compile(r"[-+\u2212]?[\d.,]+%?")
# Before a relation word, what makes it passive: the claim's first words are then what
# changed ("Sympathetic nerve activity is reduced in pregnancy"), not what acts.
_PASSIVE = frozenset({"is", "are", "was", "were", "be", "been", "being"})


def actor_trended(claim: Words, evidence: list[str]) -> bool:
    """Whether every mention of the claim's actor in the evidence is the subject of a rise or
    fall of its own ("aspirin use rose", "as statin prescriptions increased,") with nothing
    it changed after the verb, where the claim says the actor changes something.

    A claim that asks of the trend itself ("Did aspirin use rise?") is not read here.
    """
    agent = actor(claim)
    if not agent or not _acts_on(claim):
        return False
    # A letter or a number of the name counts too ("vitamin D", "omega 3").
    at = claim.index(agent[-1])
    own = set(agent) | {word for word in claim[at + 1 : at + 2] if len(word) == 1 or word.isdigit()}
    if _trended_in(claim, own):
        return False
    mentions = [
        _trend_at(words, at)
        for text in evidence
        for part in PAUSES.split(text)
        for words in (word_sequence(part),)
        for at, word in enumerate(words)
        if word in own and (at + 1 >= len(words) or words[at + 1] not in own)
    ]
    return bool(mentions) and all(mentions)


def _acts_on(claim: Words) -> bool:
    """Whether the claim's first relation word is active and has an object after it
    ("aspirin reduces sepsis mortality"), not passive ("activity is reduced in …")."""
    at = next((at for at, word in enumerate(claim) if relates(word)), None)
    if at is None or (at and claim[at - 1] in _PASSIVE):
        return False
    after = claim[at + 1 : at + 2]
    return bool(after) and after[0] not in TREND_TAILS


def _trended_in(claim: Words, own: set[str]) -> bool:
    """Whether the claim itself names its actor as a trend ("Did aspirin use rise?")."""
    return any(word in own and _trend_at(claim, at) for at, word in enumerate(claim))


def _trend_at(words: Words, at: int) -> bool:
    """Whether the phrase's last word of a thing, at `at`, is the subject of a trend verb with
    no object after it: past words of exposure or tense, a trend verb, then the phrase's end,
    a figure or a word that begins no object."""
    verb = at + 1
    while verb < len(words) and verb - at <= _BETWEEN and words[verb] not in TREND_VERBS:
        if words[verb] not in EXPOSURE_NOUNS and words[verb] not in TREND_AUXILIARIES:
            return False
        verb += 1
    if verb >= len(words) or words[verb] not in TREND_VERBS:
        return False
    after = words[verb + 1 : verb + 2]
    return not after or after[0] in TREND_TAILS or bool(_FIGURE.fullmatch(after[0]))
