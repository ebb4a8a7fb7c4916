"""Whether a sentence's own figures say no change, or a change the other way, beside its word.

"Metformin reduced weight by 0%" states a reduction its figure says did not happen, and
"reduced mortality (HR 1.20, 95% CI 1.05-1.37)" one its ratio says went the other way: a
ratio above 1 is more of what it measures, below 1 less. Which side a ratio is read from
is for a reader to check, so a yes is withheld where the words and figures disagree.
"""

from __future__ import annotations

import re

from engine.core.stance import Overstated
from engine.review.yes_clauses import asserted
from engine.text.fold import fold_text
from engine.text.lexicon import cue_of

Words = tuple[str, ...]

_QUANTITY = "quantity"
# A change said to be of nothing: "by 0%", "by 0.0 percent", "by zero".
_ZERO = re.compile(r"^(?:0+(?:\.0+)?%?|zero|nil)$")
# A negative change: "by -2 kg", "by -3%" (dashes and minus signs are "-" by then).
_NEGATIVE = re.compile(r"^-\d*\.?\d+%?$")
# Abbreviations of a ratio are read as written ("OR" is a ratio, "or" a word); the names in
# any case. The point estimate follows, past a bracketed abbreviation and punctuation.
_RATIO_ABBREVIATIONS = r"(?:a?HR|a?OR|a?RR|IRR|SHR|sHR)"
_RATIO_NAMES = r"(?i:hazards?\s+ratio|odds\s+ratio|risk\s+ratio|rate\s+ratio|relative\s+risk)"
_ESTIMATE = re.compile(
    rf"\b(?:{_RATIO_ABBREVIATIONS}|{_RATIO_NAMES})\b(?:\s*[\[(][^\])]{{0,12}}[\])])?"
    r"[\s,:=]*(\d*\.?\d+)(?![\d.]*\s*%)"
)
# What a ratio of deaths turns around, or makes the odds of the change itself: "improved
# survival (HR 0.70)" is fewer deaths, "more likely to reduce pain (RR 1.41)" more relief.
_TURNING = ("surviv", "alive", "likel", "probab", "chance")


def figures_against(claim: Words, said: Words, text: str) -> Overstated | None:
    """The rule the evidence's figures break against the direction the claim states: a change
    of nothing ("by 0%", "a 0% reduction", a ratio of 1: `NOT_SIGNIFICANT`), a change by a
    negative figure ("increased by -2 kg") or every ratio on the other side of 1 than the
    claim's direction (`DIRECTION`); else None."""
    if not asserted(claim):
        return None
    if any(_of_nothing(said, at) and said[at] not in claim for at in range(len(said))):
        return Overstated.NOT_SIGNIFICANT
    if any(_by_negative(said, at) and said[at + 1] not in claim for at in range(len(said) - 1)):
        return Overstated.DIRECTION
    ratios = [float(found.group(1)) for found in _ESTIMATE.finditer(fold_text(text).text)]
    if ratios and all(ratio == 1 for ratio in ratios):
        return Overstated.NOT_SIGNIFICANT
    sign = _claimed_sign(claim)
    if sign is None or any(word.startswith(_TURNING) for word in said):
        return None
    if ratios and all((ratio - 1) * sign < 0 for ratio in ratios):
        return Overstated.DIRECTION
    return None


def _of_nothing(said: Words, at: int) -> bool:
    """Whether the figure at `at` is a change of nothing: after "by" ("reduced weight by 0%")
    or before a direction word ("a 0% reduction", "zero increase")."""
    if not _ZERO.match(said[at]):
        return False
    before, after = said[at - 1] if at else "", said[at + 1 : at + 2]
    return before == "by" or (bool(after) and cue_of(after[0]) is not None)


def _by_negative(said: Words, at: int) -> bool:
    """Whether "by" at `at` gives a negative change ("increased weight by -2 kg"): a change
    the other way from the word it measures."""
    return said[at] == "by" and bool(_NEGATIVE.match(said[at + 1]))


def _claimed_sign(claim: Words) -> int | None:
    """The one sign the claim's changes of amount take, else None."""
    signs = {sign for axis, sign in asserted(claim) if axis == _QUANTITY}
    return signs.pop() if len(signs) == 1 else None
