"""Whether a yes draws the claim's words from two sides of a contrast.

"Exercise is a risk factor for injury but protects against heart disease" names every word
of "Is exercise a risk factor for heart disease?", the risk on one side of its "but" and
heart disease on the other, where the sentence says something else of it ("protects"):
neither side says what the question asks. A yes read off such a sentence is withheld
(`Overstated.OTHER_CLAUSE`). The claim's actor may stand on an earlier side ("Metformin
reduced weight but also lowered glucose"): a later side often leaves its subject unsaid.
"""

from __future__ import annotations

from engine.review.yes_attributes import MEASURES
from engine.review.yes_frames import relates, subject
from engine.text.clause_words import CONTRASTS
from engine.text.lexicon import STOP_WORDS
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

Words = tuple[str, ...]


def drawn_apart(claim: Words, sentence: str) -> bool:
    """Whether the sentence names every word the claim names beside its actor, no side of
    its contrasts holds them all, and a side holding some states a relation or direction
    the claim does not."""
    sides = [word_sequence(piece) for piece in CONTRASTS.split(sentence)]
    if len(sides) < 2:
        return False
    agent = {mention_stem(word) for word in subject(claim)}
    wanted = {
        mention_stem(word)
        for word in claim
        if word not in STOP_WORDS
        and word not in MEASURES
        and any(char.isalpha() for char in word)
        and not relates(word)
    } - agent
    stems = [{mention_stem(word) for word in side} for side in sides]
    if not wanted or not wanted <= set().union(*stems):
        return False
    if any(wanted <= side for side in stems):
        return False
    own = {mention_stem(word) for word in claim if relates(word)}
    return any(
        wanted & held and any(relates(word) and mention_stem(word) not in own for word in side)
        for side, held in zip(sides, stems, strict=True)
    )
