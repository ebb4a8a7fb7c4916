"""Whether a sentence moves what a claim changes one way in one scope and the other way in
another.

"Ticagrelor increased bleeding in men but decreased bleeding in women" says neither that
ticagrelor increases bleeding nor that it reduces it; it says each of one group. A yes to
"Does ticagrelor increase bleeding?" is withheld as a condition the claim leaves out, while
"Does ticagrelor increase bleeding in men?" names the scope and stays a yes. So with "but
not": "improved progression-free survival but not overall survival" answers no "improves
survival?" either way, nor does "in observational studies but not in randomised trials", nor
"in observational but not randomised studies", one kind set beside another.
"""

from __future__ import annotations

from engine.review.yes_clauses import alternatives, cues
from engine.review.yes_frames import changed_words, one_direction
from engine.text.lexicon import STOP_WORDS
from engine.text.numbers import is_plain_figure
from engine.text.stems import mention_stem, plural_fold
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
_BUT_NOT = ("but", "not")
# Prepositions that open a scope ("in observational studies but not in randomised trials").
_SCOPES = frozenset({"in", "among", "at", "with", "during", "after", "before", "for"})
# Words by which a later change names the claim's object again ("… but increased it").
_POINTERS = frozenset({"it", "them"})
# Words passed over after "but not" to the kind it denies ("but not the second trial").
_DETERMINERS = frozenset({"the", "a", "an"})
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
        found = [(where, cue[1]) for where, cue in cues(words) if cue[0] == axis]
        named = [
            where
            for where, _ in found
            if objects & {plural_fold(w) for w in changed_words(words, where)}
        ]
        # After a change of the claim's object, "it" names it again ("reduced mortality in
        # 2019 but increased it in 2020").
        moved = [
            (where, turn)
            for where, turn in found
            if where not in aside
            and (where in named or (named and where > named[0] and _points_back(words, where)))
        ]
        same = [where for where, turn in moved if turn == sign]
        other = [where for where, turn in moved if turn != sign]
        if not same or not other:
            continue
        start = same[0]
        end = next((where for where in other if where > start), len(words))
        # A year or a dose scopes it as a word does ("in 2019 but … in 2020").
        scope = [
            word
            for word in words[start + 1 : end]
            if word not in STOP_WORDS
            and (word.isalpha() or is_plain_figure(word))
            and plural_fold(word) not in objects
        ]
        if scope and not any(mention_stem(word) in own for word in scope):
            return True
        # A figure the claim does not give scopes it even beside words the claim names
        # ("in sepsis in 2019 but … in 2020").
        if any(is_plain_figure(word) and word not in own for word in scope):
            return True
    return any(
        _split_by_exclusion(words, objects, own)
        or _scope_denied(words, own)
        or _kinds_denied(words, own)
        for words in map(word_sequence, evidence)
    )


def _points_back(words: Words, at: int) -> bool:
    """Whether the direction word at `at` changes "it" or "them" just after it."""
    return not _POINTERS.isdisjoint(words[at + 1 : at + 3])


def _kinds_denied(words: Words, own: set[str]) -> bool:
    """Whether the words set one kind beside another by "but not" and deny it of the second
    ("in observational but not randomised studies", "in men but not women", "in the first
    but not the second trial"), and the claim names neither kind."""
    for at in range(1, len(words) - 2):
        if words[at : at + 2] != _BUT_NOT or words[at + 2] in _SCOPES:
            continue
        after = [word for word in words[at + 2 : at + 4] if word not in _DETERMINERS]
        held, denied = words[at - 1], (after[0] if after else "")
        if not (_qualifier(held) and _qualifier(denied)):
            continue
        if mention_stem(held) not in own and mention_stem(denied) not in own:
            return True
    return False


def _scope_denied(words: Words, own: set[str]) -> bool:
    """Whether the words say it in one scope and deny it in another by "but not" and the same
    preposition ("in observational studies but not in randomised trials", "at 6 weeks but
    not at 12 months") or with none before ("but not in mice"), and the claim names neither
    scope."""
    for at in range(1, len(words) - 3):
        if words[at : at + 2] != _BUT_NOT or words[at + 2] not in _SCOPES:
            continue
        opened = [i for i in range(at) if words[i] == words[at + 2]]
        # With no scope of its own before it ("reduced glucose, but not in mice"), the
        # finding holds everywhere but there.
        held = words[opened[-1] + 1 : at] if opened else ()
        denied = words[at + 3 : at + 3 + _EXCLUSION_REACH]
        named = [w for w in (*held, *denied) if _qualifier(w)]
        if named and not any(mention_stem(w) in own for w in named):
            return True
    return False


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
