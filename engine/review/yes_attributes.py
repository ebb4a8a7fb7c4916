"""Whether a sentence changes a property of what a claim names rather than the thing itself.

"Lithium reduced the variance of mood scores" lowers how much mood scores vary, not mood
scores; "reduced the time to recovery" speeds recovery; "reduced the decline in memory" keeps
memory; "increased the half-life of lopinavir" keeps the drug longer, not more of it;
"reduced hypoglycaemia unawareness" makes hypoglycaemia felt, not rarer; "reduced projected
mortality" lowers a forecast. A yes to "Does
lithium reduce mood scores?" read off such a sentence is withheld (`Overstated.ATTRIBUTE`).
Words that measure the thing itself keep its direction: "the risk of stroke", "the incidence
of", "levels of", "tumour growth".
"""

from __future__ import annotations

from engine.review.yes_clauses import cues
from engine.review.yes_frames import COMPARISONS, changed_words, one_direction
from engine.text.frame_words import UNREAL_QUALIFIERS
from engine.text.lexicon import STOP_WORDS, word_set
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words that measure a thing itself: a change of them is a change of it.
MEASURES = word_set(
    "risk risks incidence rate rates level levels number numbers amount amounts "
    "concentration concentrations expression production activity frequency prevalence odds "
    "count counts volume size burden occurrence occurrences likelihood probability intake use "
    "consumption secretion release uptake signalling signaling formation growth development "
    "progression load density content"
)
# Words between a property and the thing it is of: "the variance of", "the time to".
_LINKS = frozenset({"of", "in", "to", "for", "on", "from"})
# Endings of a noun that names a property when it follows the thing ("hypoglycaemia
# unawareness", "LDL oxidation").
_PROPERTY_ENDINGS = ("ness", "ity", "tion", "sion", "ance", "ence", "ment", "ism")
# Nouns of the same kind whose ending does not say so ("the mortality estimate").
_PROPERTY_NOUNS = word_set("estimate estimates forecast forecasts response responses")
# Words that, after a thing, make it the kind of another ("glucose-related complications",
# "diet-induced obesity").
_KIND_OF = word_set("related associated induced mediated dependent")
# How far after its direction word the claim's object is looked for.
_REACH = 8
# Words that may stand between a thing and the direction word it is the subject of ("glucose
# levels were increased").
_BEFORE_VERB = frozenset({"was", "were", "is", "are", "levels", "level", "significantly"})
_VERB_REACH = 3
# How near a direction word must follow another to be what the other acts on.
_ACTED_ON = 3


def changed_attribute(claim: Words, evidence: list[str]) -> bool:
    """Whether every word of a sentence that moves the claim's object the claim's way moves a
    property of it the claim never names: one just before it and its link ("the variance
    of", "the decline in"), or a property noun just after it ("hypoglycaemia unawareness")."""
    one = one_direction(claim)
    if one is None:
        return False
    at, cue = one
    objects = {mention_stem(word) for word in changed_words(claim, at)}
    own = {mention_stem(word) for word in claim}
    if not objects:
        return False
    for sentence in evidence:
        words = word_sequence(sentence)
        found = [
            verdict
            for where in _leading(words, cue)
            if (verdict := _property_moved(words, where, objects, own)) is not None
        ]
        if found and all(found):
            return True
    return False


def moved_the_other_way(claim: Words, evidence: list[str]) -> bool:
    """Whether what the claim's one direction word changes is, in a sentence, the subject of
    a direction word the other way just after it ("Metformin reduced weight and glucose
    increased" for "Metformin reduces glucose"): it was moved, but not the claim's way."""
    one = one_direction(claim)
    if one is None:
        return False
    at, (axis, sign) = one
    objects = {mention_stem(word) for word in changed_words(claim, at)}
    for sentence in evidence:
        said = word_sequence(sentence)
        moved = dict(cues(said))
        for where, word in enumerate(said):
            if mention_stem(word) in objects and _verb_after(said, where, moved) == (axis, -sign):
                return True
    return False


def _verb_after(
    said: Words, where: int, moved: dict[int, tuple[str, int]]
) -> tuple[str, int] | None:
    """The direction a word just after `where` states of it, an auxiliary or "levels" between
    ("glucose increased", "glucose levels were increased"); None if none does."""
    for after in range(where + 1, min(len(said), where + 1 + _VERB_REACH)):
        if after in moved:
            # "mortality more than placebo" compares; it states no change of mortality.
            compares = after + 1 < len(said) and said[after + 1] == "than"
            return None if compares else moved[after]
        if said[after] not in _BEFORE_VERB:
            return None
    return None


def _leading(words: Words, cue: tuple[str, int]) -> list[int]:
    """Where the words move a thing the claim's way, each direction word that another just
    before it (a few stop words between) acts on left out: in "reduced the decline in
    memory" what moves memory is "reduced", of "the decline"."""
    found = cues(words)
    out = []
    for i, (where, said) in enumerate(found):
        before = found[i - 1][0] if i else None
        acted_on = (
            before is not None
            and where - before <= _ACTED_ON
            and all(word in STOP_WORDS for word in words[before + 1 : where])
        )
        if said == cue and not acted_on:
            out.append(where)
    return out


def _property_moved(words: Words, at: int, objects: set[str], own: set[str]) -> bool | None:
    """Whether the direction word at `at` moves a property of the claim's object; None where
    the object does not follow it within `_REACH` words."""
    end = min(len(words), at + 1 + _REACH)
    first = next((i for i in range(at + 1, end) if mention_stem(words[i]) in objects), None)
    if first is None or not COMPARISONS.isdisjoint(words[at + 1 : first]):
        return None  # "better than placebo for symptoms": the other side, not a property
    if first - at >= 3 and words[first - 1] in _LINKS and _foreign(words[first - 2], own):
        return True
    if words[first - 1] in UNREAL_QUALIFIERS and words[first - 1] not in own:
        return True  # "reduced projected mortality", "perceived risk": not the outcome
    last = first
    while last + 1 < len(words) and mention_stem(words[last + 1]) in own:
        last += 1
    after = words[last + 1] if last + 1 < len(words) else ""
    named = after.endswith(_PROPERTY_ENDINGS) or after in _PROPERTY_NOUNS
    return (named and _foreign(after, own)) or (after in _KIND_OF and after not in own)


def _foreign(word: str, own: set[str]) -> bool:
    """Whether `word` names something the claim does not, and is no measure of the thing."""
    named = word.isalpha() and word not in STOP_WORDS and word not in MEASURES
    return named and mention_stem(word) not in own
