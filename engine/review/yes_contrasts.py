"""Whether a yes draws the claim's words from two sides of a contrast.

"Exercise is a risk factor for injury but protects against heart disease" names every word
of "Is exercise a risk factor for heart disease?", the risk on one side of its "but" and
heart disease on the other, where the sentence says something else of it ("protects"):
neither side says what the question asks. A yes read off such a sentence is withheld
(`Overstated.OTHER_CLAUSE`). The claim's actor may stand on an earlier side ("Metformin
reduced weight but also lowered glucose"): a later side often leaves its subject unsaid.
Nor does a claim of how ("by inhibiting renin") rest on one sentence for the change and
another for the means (`means_apart`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.review.yes_attributes import MEASURES
from engine.review.yes_clauses import directions
from engine.review.yes_frames import changed_words, one_direction, relates, subject
from engine.text.clause_words import CONTRASTS
from engine.text.frame_words import CONTROLS
from engine.text.lexicon import STOP_WORDS
from engine.text.sentences import sentence_texts
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Where how a claim's change came about begins ("via AMPK", "through weight loss", "by
# inhibiting renin").
_MEANS_TEXT = re.compile(r"\s+(?:via|through|by\s+\w+ing)\b", re.IGNORECASE)
# The pieces a sentence's clauses stand in: its contrasts and its ", and".
_PIECES = re.compile(CONTRASTS.pattern + r"|,\s*and\s+", re.IGNORECASE)


def drawn_apart(claim: Words, sentence: str) -> bool:
    """Whether the sentence names every word the claim names beside its actor, no side of
    its contrasts holds them all, and a side holding some states a relation or direction
    the claim does not."""
    sides = [word_sequence(piece) for piece in CONTRASTS.split(sentence)]
    if len(sides) < 2:
        return False
    _, wanted = _beside_actor(
        claim, lambda word: word not in MEASURES and any(char.isalpha() for char in word)
    )
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


def split_means(claim_text: str) -> tuple[str, str] | None:
    """The claim cut before how it came about, and that means ("Does exercise reduce blood
    pressure", "by inhibiting renin?"), where a direction word and what it changes stand
    before the means; else None."""
    found = _MEANS_TEXT.search(claim_text)
    if found is None:
        return None
    core = claim_text[: found.start()]
    words = word_sequence(core)
    one = one_direction(words)
    if one is None or not changed_words(words, one[0]):
        return None
    return core, claim_text[found.start() :]


def without_means(claim_text: str) -> str:
    """The claim with how it came about cut off (`split_means`), else the claim as it is."""
    parts = split_means(claim_text)
    return parts[0] if parts is not None else claim_text


def means_apart(core: str, means: str, evidence: list[str]) -> bool:
    """Whether no sentence of the evidence that states the claim's change (`core`: its
    direction and what it changes) names its means too ("by inhibiting renin", "via AMPK"):
    two sentences, one of each, do not say the one happened by the other."""
    # The means' own words, its opening "by", "via" or "through" left out.
    named = {
        mention_stem(w) for w in word_sequence(means)[1:] if w not in STOP_WORDS and w.isalpha()
    }
    words = word_sequence(core)
    one = one_direction(words)
    if not named or one is None:
        return False
    wanted = set(directions(words))
    objects = {mention_stem(word) for word in changed_words(words, one[0])}
    stating = [
        said
        for text in evidence
        for sentence in map(word_sequence, sentence_texts(text))
        if wanted & set(directions(sentence))
        and objects <= (said := {mention_stem(word) for word in sentence})
    ]
    return bool(stating) and not any(named <= said for said in stating)


def said_of_control(claim: Words, sentence: str) -> bool:
    """Whether a word the claim names beside its actor stands in the sentence only in pieces
    that name a control and not the actor ("Metformin reduced glucose, and weight fell in
    controls" for "Does metformin reduce glucose and weight?"): the control's finding."""
    pieces = [word_sequence(piece) for piece in _PIECES.split(sentence)]
    if len(pieces) < 2:
        return False
    agent, wanted = _beside_actor(claim, lambda word: word not in CONTROLS and word.isalpha())
    for stem in sorted(wanted):
        holding = [p for p in pieces if stem in {mention_stem(word) for word in p}]
        if holding and all(_of_control(piece, agent) for piece in holding):
            return True
    return False


def _beside_actor(claim: Words, keeps: Callable[[str], bool]) -> tuple[set[str], set[str]]:
    """The stems of the claim's actor (`subject`), and of the words beside it that name
    something (no stop word, no relation word) and that `keeps` keeps."""
    agent = {mention_stem(word) for word in subject(claim)}
    named = {
        mention_stem(word)
        for word in claim
        if word not in STOP_WORDS and not relates(word) and keeps(word)
    }
    return agent, named - agent


def _of_control(piece: Words, agent: set[str]) -> bool:
    stems = {mention_stem(word) for word in piece}
    return not CONTROLS.isdisjoint(piece) and agent.isdisjoint(stems)
