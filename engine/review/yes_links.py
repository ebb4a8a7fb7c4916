"""Whether a sentence links two things only by association where the claim says one changes
the other.

"Coffee consumption was associated with reduced liver cancer risk" says the two go together;
"Coffee consumption reduces liver cancer risk" says one changes the other. A sentence whose
every word of the claim's direction stands in an association ("associated with reduced …",
"inversely associated", "linked to lower …", "correlated with higher …", "predicted lower
…", or how users stand: "aspirin users had lower mortality") gives no yes to a claim that
states the change itself; a claim that keeps the association ("Is coffee
associated with reduced risk?") is answered as asked.
"""

from __future__ import annotations

from itertools import pairwise

from engine.review.yes_clauses import cues
from engine.review.yes_frames import actor
from engine.text.lexicon import LINK_FAMILIES, link_strength, word_set
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
_ASSOCIATION = LINK_FAMILIES["association"]
# A prognosis is an association too ("aspirin use predicted lower mortality").
_PREDICTING = ("predict",)
# So is what came after ("aspirin was followed by lower mortality").
_FOLLOWED_BY = ("followed", "by")
# Who took it, named by their taking: a comparison of them with others is observed, not made
# ("aspirin users had lower mortality").
_USERS = frozenset({"users", "user", "nonusers", "consumers", "takers"})
# How many words after an association word its direction may stand ("associated with a
# reduced risk"), and before it ("inversely associated").
_AFTER = 4
_BEFORE = 2
# What an association word joins its two things with ("associated with", "linked to",
# "association between"): "ALT-associated defects" names a kind of defect, no association.
_JOINING = frozenset({"with", "to", "between"})
# Words before a direction word that make it describe, not change ("a lower rate", "have
# reduced levels", "with increased risk").
_DESCRIBING = word_set("a an the have has had with of more less is are was were be been being")


def associated_only(claim: Words, evidence: list[str]) -> bool:
    """Whether every word of the evidence that states one of the claim's directions stands
    in an association, and the claim names no association of its own.

    Only a yes is read so. An association the other way ("associated with a reduction" for
    "increases") stays a contradiction: a tension a reviewer should see, with its measured
    band, where a yes would tell the reader the change itself was shown.
    """
    if any(word.startswith(_ASSOCIATION) for word in claim):
        return False
    said = [(at, cue) for at, cue in cues(claim) if cue[0] != "presence"]
    wanted = {cue for _, cue in said}
    if not wanted or not (_causes(claim) or any(_acts(claim, at) for at, _ in said)):
        return False
    placed = []
    for text in evidence:
        words = word_sequence(text)
        links = (
            [
                at
                for at, word in enumerate(words)
                if word.startswith(_ASSOCIATION)
                and not word.startswith("relativ")  # "relative to baseline" compares
                and _JOINING.intersection(words[at + 1 : at + 4])
            ]
            + [at for at, word in enumerate(words) if word.startswith(_PREDICTING)]
            + [at for at, pair in enumerate(pairwise(words)) if pair == _FOLLOWED_BY]
        )
        users = _USERS.intersection(words)
        for at, cue in cues(words):
            if cue not in wanted:
                continue
            if links and _describes_exposure(words, at, claim):
                continue  # "higher aspirin doses were associated with …": the exposure
            linked = any(-_BEFORE <= at - link <= _AFTER for link in links)
            # "Aspirin users had lower mortality": how users stand, not a change shown.
            placed.append(linked or (bool(users) and _describing(words, at)))
    return bool(placed) and all(placed)


def _describes_exposure(words: Words, at: int, claim: Words) -> bool:
    """Whether the direction word at `at` qualifies the claim's agent just after it ("higher
    aspirin doses"): it says which exposure, not which way the outcome went."""
    agent = set(actor(claim) or ())
    return bool(agent) and not agent.isdisjoint(words[at + 1 : at + 3])


def _describing(words: Words, at: int) -> bool:
    """Whether the direction word at `at` says how a group stands ("had lower mortality",
    "mortality was lower among users"), not that something changed it."""
    return at > 0 and words[at - 1] in _DESCRIBING


def _causes(claim: Words) -> bool:
    """Whether the claim names an influence or a cause ("leads to lower …", "affects")."""
    return any((strength := link_strength(word)) is not None and strength > 0 for word in claim)


def _acts(claim: Words, at: int) -> bool:
    """Whether the claim's direction word at `at` says one thing changes another ("reduces",
    "lower" asked as "Does X lower Y?"), not how a group stands ("have a slower
    progression", "a higher risk"): no comparative, nor after an article or a having."""
    word = claim[at]
    before = claim[at - 1] if at else ""
    # "lower" is also the verb ("Does chocolate lower blood pressure?").
    verb = word == "lower" or not word.endswith(("er", "est"))
    return verb and before not in _DESCRIBING
