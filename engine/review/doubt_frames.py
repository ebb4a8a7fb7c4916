"""Whether a sentence states a finding only inside a frame that denies or doubts it.

"It is a myth that probiotics reduce diarrhoea" holds every word of "Probiotics reduce
diarrhoea" after its "that", and says the opposite of it; "Few studies have shown that …",
"These data challenge the view that …" and "The idea that … is a myth" doubt what follows,
and "No study has shown that …" denies that it was shown, not that it holds; "…, a finding
that was later retracted" takes back its own finding (`retracted`). A yes read off
such a sentence is withheld (`doubted`), and so is a no that denies only that the literature
showed it (`literature_denied`). A frame that denies its doubt ("it is no myth that …")
affirms, and a no read off it is withheld as a judgement denied (`engine.review.no_rules`).
"""

from __future__ import annotations

from engine.review.yes_clauses import negates
from engine.review.yes_frames import PAUSES
from engine.review.yes_order import content_words
from engine.text.frame_words import (
    AIM_NOUNS,
    BELIEF_NOUNS,
    COPULAS,
    DOUBT_WORDS,
    LASTING,
    LITERATURE_WORDS,
    RETRACTION_WORDS,
    SCARCE_WORDS,
    SHOWING_WORDS,
)
from engine.text.lexicon import NEGATIONS
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
_THAT = "that"
# Verbs after which a doubt word is said of the phrase's subject ("is debated", "remains
# unproven", "has been questioned").
_COPULAS = COPULAS | {"remains", "remain"}
# How far before a doubt word a negation turns it ("it is not a myth that").
_TURN_REACH = 2

# A negation that reaches "whether" this soon denies that something was asked, not what.
_WHETHER = "whether"
_WHETHER_REACH = 5


def doubted(claim_text: str, evidence: list[str]) -> bool:
    """Whether a sentence of `evidence` holds the claim's words only after a "that" whose
    frame denies or doubts what follows (`doubts`)."""
    claim = {mention_stem(word) for word in content_words(claim_text)}
    if not claim:
        return False
    for sentence in evidence:
        words = word_sequence(sentence)
        for at, word in enumerate(words):
            if word != _THAT or not _holds(claim, words[:at], words[at:]):
                continue
            # A sentence that opens with its "that" holds it as a subject ("That … is a
            # common misconception"), as a belief noun's "that" does.
            believed = at == 0 or words[at - 1] in BELIEF_NOUNS
            if doubts(words[:at]) or (believed and _doubted_later(words, at + 1)):
                return True
    return False


def debated(claim_text: str, evidence: list[str]) -> bool:
    """Whether a phrase of `evidence` holds the claim's words and then says, after a copula,
    that they are doubted ("Aspirin's ability to prevent stroke is debated", "… remains
    unproven"); a doubt of something else in another phrase ("; the mechanism is unclear")
    is not of the finding."""
    claim = {mention_stem(word) for word in content_words(claim_text)}
    if not claim:
        return False
    for sentence in evidence:
        for part in PAUSES.split(sentence):
            words = word_sequence(part)
            for at, word in enumerate(words):
                if word not in DOUBT_WORDS or _COPULAS.isdisjoint(words[max(0, at - 3) : at]):
                    continue
                if any(map(negates, words[max(0, at - _TURN_REACH) : at])):
                    continue  # "is not disputed"
                held = {mention_stem(w) for w in words[:at]} & claim
                if 2 * len(held) >= len(claim):
                    return True
    return False


def retracted(claim_text: str, evidence: list[str]) -> bool:
    """Whether a sentence of `evidence` says its finding or its source was retracted or
    discredited ("a finding that was later retracted", "in a retracted study") where the
    claim says nothing of it."""
    claim = set(word_sequence(claim_text))
    return any(
        word in RETRACTION_WORDS and word not in claim
        for sentence in evidence
        for word in word_sequence(sentence)
    )


def doubts(frame: Words) -> bool:
    """Whether the words before a "that" deny or doubt what follows it: a doubt word not
    itself denied ("a myth", "challenge the view"), an aim ("our objective was to show
    that"), or a word of scarcity or a negation
    together with a word of showing ("few studies", "not been established", "not clear")."""
    if _doubt_at(frame, 0) or not AIM_NOUNS.isdisjoint(frame):
        return True  # "a myth that", "Our objective was to show that"
    # A negation word, not a negating prefix: "studies in non-malignant cells show that …"
    scarce = any(word in SCARCE_WORDS or word in NEGATIONS for word in frame)
    return scarce and not SHOWING_WORDS.isdisjoint(frame)


def _doubt_at(words: Words, start: int) -> bool:
    """Whether a doubt word not itself denied stands in `words` from `start` on ("a myth",
    not "no myth")."""
    return any(
        word in DOUBT_WORDS and not any(map(negates, words[max(0, at - _TURN_REACH) : at]))
        for at, word in enumerate(words[start:], start)
    )


def _doubted_later(words: Words, start: int) -> bool:
    """Whether what a belief noun's "that" holds is doubted further on: a doubt word ("… is
    a myth") or its showing denied ("… were not confirmed", "could not be replicated")."""
    if _doubt_at(words, start):
        return True
    later = words[start:]
    return any(
        word in NEGATIONS and not SHOWING_WORDS.union(LASTING).isdisjoint(later[at : at + 3])
        for at, word in enumerate(later)
    )


def literature_denied(after: Words) -> bool:
    """Whether the words after a negation deny only that the literature showed what its
    "that" says ("no study has shown that …", "has not been proven that …"), where a "that"
    follows a word naming the literature or its showing, or deny that it was asked at all
    ("no trial has tested whether …")."""
    if _WHETHER in after[:_WHETHER_REACH]:
        return True  # "no trial has tested whether …", "did not examine whether …": untested
    if _THAT not in after:
        return False
    return not LITERATURE_WORDS.isdisjoint(after[: after.index(_THAT)])


def _holds(claim: set[str], frame: Words, rest: Words) -> bool:
    """Whether what follows the "that" holds more of the claim's content words than its frame
    does: the frame is about the claim, not the claim inside the frame."""
    after = sum(mention_stem(word) in claim for word in set(rest))
    before = sum(mention_stem(word) in claim for word in set(frame))
    return after > before
