"""Whether a sentence judges the change it names a failure: "ineffective in reducing weight".

The change word stands in the sentence, so its words can all be in a claim of the change;
the judgement before it ("ineffective in", "insufficient to", "incapable of") says the
change was tried and did not come. A yes to the change is withheld (`judged_failed`).
"""

from __future__ import annotations

from engine.text.frame_words import FAILURE_JUDGEMENTS, FAILURE_LINKS
from engine.text.lexicon import cue_of

Words = tuple[str, ...]

# How many words after the joining word the change may stand ("insufficient to further
# reduce", "ineffective in significantly reducing").
_REACH = 3


def judged_failed(claim: Words, said: Words) -> bool:
    """Whether `said` judges a change a failure ("ineffective in reducing", "insufficient to
    lower") where the claim keeps no such judgement."""
    for at, word in enumerate(said[:-1]):
        if word not in FAILURE_JUDGEMENTS or word in claim or said[at + 1] not in FAILURE_LINKS:
            continue
        if any(cue_of(after) is not None for after in said[at + 2 : at + 2 + _REACH]):
            return True
    return False
