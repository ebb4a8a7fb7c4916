"""Whether a sentence moves what a claim changes one way in one scope and the other way in
another.

"Ticagrelor increased bleeding in men but decreased bleeding in women" says neither that
ticagrelor increases bleeding nor that it reduces it; it says each of one group. A yes to
"Does ticagrelor increase bleeding?" is withheld as a condition the claim leaves out, while
"Does ticagrelor increase bleeding in men?" names the scope and stays a yes. So with "but
not": "improved progression-free survival but not overall survival" answers no "improves
survival?" either way.
"""

from __future__ import annotations

from engine.review.yes_clauses import alternatives, cues
from engine.review.yes_frames import changed_words, one_direction
from engine.text.lexicon import STOP_WORDS
from engine.text.stems import mention_stem, plural_fold
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
_BUT_NOT = ("but", "not")
# How far after "but not" the kind denied may stand ("but not overall survival").
_EXCLUSION_REACH = 4


def split_by_scope(claim: Words, evidence: list[str]) -> bool:
    """Whether a sentence of `evidence` moves the words the claim's one direction word
    changes both ways, and the claim names none of the words that scope the way it says
    (those after its direction word, up to the other way's)."""
    one = one_direction(claim)
    if one is None:
        return False
    at, (axis, sign) = one
    objects = {plural_fold(word) for word in changed_words(claim, at)}
    own = {mention_stem(word) for word in claim}
    for sentence in evidence:
        words = word_sequence(sentence)
        aside = alternatives(words)  # "a positive rather than a negative feedback"
        moved = [
            (where, cue[1])
            for where, cue in cues(words)
            if cue[0] == axis
            and where not in aside
            and objects & {plural_fold(w) for w in changed_words(words, where)}
        ]
        same = [where for where, turn in moved if turn == sign]
        other = [where for where, turn in moved if turn != sign]
        if not same or not other:
            continue
        start = same[0]
        end = next((where for where in other if where > start), len(words))
        scope = [
            word
            for word in words[start + 1 : end]
            if word not in STOP_WORDS and word.isalpha() and plural_fold(word) not in objects
        ]
        if scope and not any(mention_stem(word) in own for word in scope):
            return True
    return any(_split_by_exclusion(word_sequence(s), objects, own) for s in evidence)


def _split_by_exclusion(words: Words, objects: set[str], own: set[str]) -> bool:
    """Whether the words say it of one kind of what the claim changes and deny it of another
    by "but not" ("improved progression-free survival but not overall survival" for
    "improves survival"), and the claim names neither kind."""
    for at in range(len(words) - 2):
        if words[at : at + 2] != _BUT_NOT:
            continue
        denied = words[at + 2 : at + 2 + _EXCLUSION_REACH]
        hits = [i for i, w in enumerate(denied) if plural_fold(w) in objects]
        if not hits:
            continue
        kinds = [w for w in denied[: hits[0]] if _qualifier(w)]
        if kinds and not any(mention_stem(w) in own for w in kinds):
            return True
    return False


def _qualifier(word: str) -> bool:
    return word not in STOP_WORDS and word.isalpha()
