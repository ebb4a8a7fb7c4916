"""How a prefix or a mark turns a word of a claim around against its evidence.

"Li" for "Li+", "adhesive" for "nonadhesive", "dependent" for "independent" and
"hyperglycemia" for "hypoglycemia" share a root and say another thing: a yes that drops a
mark or a negating prefix of the evidence, adds one, or sets the opposite prefix in its
place is withheld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engine.core.stance import Overstated
from engine.review.yes_clauses import NON
from engine.review.yes_figures import both_ways
from engine.text.frame_words import POPULATION_NOUNS
from engine.text.lexicon import (
    JOINED_PREFIXES,
    NEGATING_PREFIXES,
    OPPOSED_PREFIXES,
    PREFIXED_ROOT,
)
from engine.text.tokens import word_sequence

# Each prefix with those that set a word on the other side of it ("hyper" -> "hypo").
OPPOSED = both_ways(OPPOSED_PREFIXES)
# The prefixes a word is read off, in a fixed order (the lexicon's), so the first rule a
# word breaks is the same in every process: the negating ones, then every prefix.
_NEGATING = tuple(NEGATING_PREFIXES)
_EVERY_PREFIX = tuple(dict.fromkeys([*NEGATING_PREFIXES, *OPPOSED]))


# Words before a group that say its members no longer are, or never were, what it names.
_NO_LONGER = frozenset({"former", "ex", "never"})
_EX = "ex-"


def _members(word: str) -> bool:
    """Whether a word names people by what they are or do ("smokers", "patients")."""
    return word in POPULATION_NOUNS or word.endswith("ers")


def unmarked(claim_text: str, sentence: str) -> bool:
    """Whether the claim names bare a word the sentence marks with a sign ("Li" for "Li+"),
    negates with a prefix ("adhesive" for "nonadhesive") or says no longer holds ("smokers"
    for "former smokers", "ex-smokers")."""
    claim = set(word_sequence(claim_text))
    said = word_sequence(sentence)
    for before, token in zip(("", *said), said, strict=False):
        if token in claim:
            # "former smokers", "never smokers" for "smokers": those who no longer are
            if before in _NO_LONGER and before not in claim and _members(token):
                return True
            continue
        if token.startswith(_EX) and token[len(_EX) :] in claim:
            return True  # "ex-smokers" for "smokers"
        if token[-1] in "+-" and token[:-1] in claim:
            return True
        if token.startswith(NON) and token[len(NON) :] in claim:
            return True
    return False


def prefix_flip(claim: tuple[str, ...], said: tuple[str, ...]) -> Overstated | None:
    """How a prefix turns a word of one text around in the other: the evidence's negating
    prefix dropped ("dependent" for "independent"), one the evidence lacks added, or the
    opposite prefix ("hyperglycemia" for "hypoglycemia").

    Read twice: a word one text alone says against every word of the other (so
    "UCP1-dependent" is read against "UCP1-independent" though "ATP-dependent" stands
    beside it), then the words each says more often than the other (so a text that says
    both, "Skint-1-dependent, but Aire-independent", still shows which one moved).
    """
    mine, theirs = Counter(_joined(claim)), Counter(_joined(said))
    alone = (set(mine) - set(theirs), set(theirs) - set(mine), set(mine), set(theirs))
    excess = (set(mine - theirs), set(theirs - mine))
    return _turned(*alone) or _turned(*excess, *excess)


def _turned(
    mine: set[str], theirs: set[str], against_mine: set[str], against_theirs: set[str]
) -> Overstated | None:
    """The rule a word of the claim's `mine` or the evidence's `theirs` breaks against a
    word of the other text (`against_*`) it shares a root with."""
    for token in sorted(theirs):
        if any(root in against_mine for _, root in _roots(token, _NEGATING)):
            return Overstated.UNMARKED
    for token in sorted(mine):
        for prefix, root in _roots(token, _EVERY_PREFIX):
            if prefix in NEGATING_PREFIXES and root in against_theirs:
                return Overstated.NEGATION
            if any(other + root in against_theirs for other in OPPOSED.get(prefix, ())):
                return Overstated.DIRECTION
    return None


def _roots(token: str, prefixes: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """Each of `prefixes` `token` opens with, in their order, and the word after it."""
    for prefix in prefixes:
        shortest = max(PREFIXED_ROOT, NEGATING_PREFIXES.get(prefix, 0))
        if token.startswith(prefix) and len(token) - len(prefix) >= shortest:
            yield prefix, token[len(prefix) :]


def _joined(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words with each prefix a hyphen set apart joined to the word after it."""
    out: list[str] = []
    for word in words:
        if out and out[-1] in JOINED_PREFIXES and word.isalpha():
            out[-1] += word
        else:
            out.append(word)
    return tuple(out)
