"""Whether the evidence names what the claim says acts only as lost, removed or blocked.

"SIRT1 deficiency increased steatosis", "knockdown of FOXO3", "resistance to cisplatin",
"stopping aspirin" and "aspirin dose reduction" speak of the thing taken away: what they
find is what its absence does, the other way from what the claim says of it present.
"""

from __future__ import annotations

from engine.review.yes_clauses import cues
from engine.review.yes_frames import names_something, phrases_of, relates
from engine.text.frame_words import (
    LESSENED,
    LOSS_GERUNDS,
    LOSS_LINKS,
    LOSS_NOUNS,
    LOSS_REACH,
    LOSS_STEMS,
    LOSS_WORDS,
)
from engine.text.lexicon import STOP_WORDS
from engine.text.stems import plural_fold

Words = tuple[str, ...]


def lost_actor(claim: Words, evidence: list[str]) -> bool:
    """Whether the evidence names a word of the claim only as lost, removed or blocked
    ("SIRT1 deficiency increased steatosis", "led to inhibition of tumour growth") where the
    claim names it present ("SIRT1 increases steatosis", "led to tumour growth"): every
    mention of the word is said lost (`_lost`), and its place in the claim none. In a claim
    of a bare link ("regulates", "is associated with") only the words after its last relation
    word count: losing what acts shows a link as well as having it does. Words compare as
    written, a plural as its singular."""
    directed = any(axis != "presence" for _, (axis, _) in cues(claim))
    links = [at for at, word in enumerate(claim) if relates(word)]
    if not links:
        return False  # a claim that relates nothing by a word of ours is not read here
    start = 0 if directed else links[-1]
    named = {
        word
        for at, word in enumerate(claim)
        if at >= start
        and names_something(word)
        and word not in STOP_WORDS
        and not relates(word)
        and not _lost_in_claim(claim, at)
    }
    segments = phrases_of(evidence)
    for word in sorted(named):
        where = [
            _lost(segment, at)
            for segment in segments
            for at, said in enumerate(segment)
            if plural_fold(said) == plural_fold(word)
        ]
        if where and all(where):
            return True
    return False


def _lost(words: Words, at: int) -> bool:
    """Whether the word at `at` is said lost, removed, blocked or altered: followed by a loss
    word ("SIRT1 deficiency", "Gata3-null", "BRCA1 mutations"), just after "anti"
    ("anti-TNF"), before a noun of less ("aspirin avoidance", "aspirin dose reduction"), or
    after a loss word and its link ("of", "in", "to", "against") or its
    "-ing" form within `LOSS_REACH` words with no relation word between ("knockdown of
    FOXO3", "resistance to cisplatin", "mice lacking TLR4")."""
    word = words[at]
    if "-" in word and any(part.startswith(LOSS_STEMS) for part in word.split("-")[1:]):
        return True
    if at + 1 < len(words) and _loss(words[at + 1]):
        return True
    after = words[at + 1 : at + 3]
    if after[:1] and (
        after[0] in LOSS_NOUNS or (after[0] in LESSENED and after[1:] and after[1] in LOSS_NOUNS)
    ):
        return True  # "aspirin avoidance", "aspirin dose reduction"
    if at > 0 and words[at - 1] in LOSS_WORDS:
        return True
    for back in range(at - 1, max(-1, at - 1 - LOSS_REACH), -1):
        before = words[back]
        if (before.endswith("ing") and _loss(before)) or before in LOSS_GERUNDS:
            return True
        if before in LOSS_LINKS and back > 0 and _loss(words[back - 1]):
            return True
        if relates(before):
            return False
    return False


def _lost_in_claim(claim: Words, at: int) -> bool:
    """Whether a loss word comes before the word in the claim, within its own phrase (read
    generously: the claim's own loss keeps the word out of the rule)."""
    reach = LOSS_REACH * 2
    return _lost(claim, at) or any(_loss(word) for word in claim[max(0, at - reach) : at])


def _loss(word: str) -> bool:
    return word.startswith(LOSS_STEMS) or word in LOSS_WORDS
