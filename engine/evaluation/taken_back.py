"""A mutation family on compound sentences: a clause restated without the clause that takes it back.

A real sentence gets a second clause that points back at what it found and withdraws it
("…, but this association disappeared after adjustment for smoking", "…; the difference was
not statistically significant", "…, but so did placebo"); the claim restates the first
clause alone, word for word. Confirmed text holds it, yet the sentence no longer says it:
asked of a library, it may never be answered yes. The controls join a clause that only adds
("…, and the protocol was registered in advance") to sentences that split cleanly, and
must still answer. Both register in `mutations.FAMILIES` and `mutations_grounds.CONTROLS`.
"""

from __future__ import annotations

import random

from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import Mutant, in_abstract, register
from engine.evaluation.mutations_grounds import CONTROLS
from engine.text.clause_words import RESTRICTING_ONSETS, SCOPE_WORDS
from engine.text.tokens import word_sequence

FAMILY = "taken-back"

_JOINS = (", but ", "; ", ", and ", ", yet ", ", whereas ")
_TAKEN_BACK = (
    "this association disappeared after adjustment for smoking",
    "the difference was not statistically significant",
    "this effect was not replicated in a second cohort",
    "these findings were explained by confounding",
    "it was abolished in knockout mice",
    "the effect was lost after adjustment for age",
    "this result was due to chance",
    "so did placebo",
    "the confidence interval included no effect",
)
_ADDED = (
    "the protocol was registered in advance",
    "the cohort was followed for two years",
    "the study was funded by a public grant",
)


def taken_back(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The sentence restated alone, its source now going on to take it back."""
    if not item.text.endswith("."):
        return []
    join = rng.choice(_JOINS)
    back = rng.choice(_TAKEN_BACK)
    if back.startswith("so ") and join == "; ":
        join = ", but "  # "; so did placebo" reads as a result, not a comparison
    source = f"{item.text[:-1]}{join}{back}."
    return [Mutant(FAMILY, item.text, source, in_abstract(item, source))]


def taken_back_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The sentence restated alone beside a clause that only adds, where it splits cleanly.

    Clean: one clause with no comma, semicolon or scope word of its own, at least three
    words, opening neither with a restricting word nor with a heading ("OBJECTIVES"), so
    that licensing by independent clause has nothing else to refuse.
    """
    text = item.text
    words = word_sequence(text)
    if not text.endswith(".") or "," in text or ";" in text or len(words) < 3:
        return []
    first = text.split(" ", 1)[0]
    if SCOPE_WORDS.intersection(words) or words[0] in RESTRICTING_ONSETS or first.isupper():
        return []
    source = f"{text[:-1]}, and {rng.choice(_ADDED)}."
    return [Mutant(FAMILY, text, source, in_abstract(item, source))]


register(FAMILY, taken_back)
CONTROLS[FAMILY] = taken_back_controls
