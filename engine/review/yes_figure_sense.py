"""Whether a sentence's own figures say otherwise than its words: no change, or the other way.

"Metformin reduced weight by 0%" states a reduction its figure says did not happen;
"reduced weight from 80 kg to 82 kg", "(mean change +1.2 kg)" and "reduced mortality (HR
1.20, 95% CI 1.05-1.37)" state one their figures say went the other way: a ratio above 1 is
more of what it measures, below 1 less. Which side a figure is read from is for a reader to
check, so a yes is withheld where the words and figures disagree (`figures_against`), and
so is a no beside figures that show the change ("did not reduce mortality (HR 0.70, 95% CI
0.55-0.89)", `figures_for`).
"""

from __future__ import annotations

import re
from itertools import pairwise

from engine.core.stance import Overstated
from engine.reading.significance import p_at_most, p_values
from engine.review.yes_clauses import alternatives, cues
from engine.review.yes_control_figures import control_against
from engine.text.fold import fold_text
from engine.text.lexicon import cue_of
from engine.text.numbers import value_of
from engine.text.tokens import word_sequence

Words = tuple[str, ...]

_QUANTITY = "quantity"
_VALENCE = "valence"
# A change said to be of nothing: "by 0%", "by 0.0 percent", "by zero".
_ZERO = re.compile(r"^(?:0+(?:\.0+)?%?|zero|nil)$")
# A negative change: "by -2 kg", "by -3%" (dashes and minus signs are "-" by then).
_NEGATIVE = re.compile(r"^-\d*\.?\d+%?$")
# Words that name a figure as the change itself ("mean change 0.0 kg", "a difference of 0").
_CHANGES = frozenset({"change", "changes", "difference", "differences", "effect"})
_CHANGE_REACH = 2
# Verbs of a change one way that state no direction word of the lexicon's ("cut by 4%").
_SIGNED_VERBS = frozenset({"cut", "cuts", "cutting", "halved", "shortened", "lengthened"})
# A change written with its sign: "(mean change +1.2 kg)", "difference, -0.5".
_SIGNED_CHANGE = re.compile(
    r"\b(?:change|difference)s?\b[^\d+\-.;()]{0,16}([+-])\s*\d", re.IGNORECASE
)
# Words that say a figure was not significant ("by a non-significant 2%").
_NOT_SIGNIFICANT = frozenset({"nonsignificant", "insignificant"})
# How many words a "from" figure's unit may take before its "to" ("from 80 kg to 82 kg").
_UNIT_REACH = 2
# Abbreviations of a ratio are read as written ("OR" is a ratio, "or" a word); the names in
# any case. The point estimate follows, past a bracketed abbreviation and punctuation.
_RATIO_ABBREVIATIONS = r"(?:a?HR|a?OR|a?RR|IRR|SHR|sHR)"
_RATIO_NAMES = r"(?i:hazards?\s+ratio|odds\s+ratio|risk\s+ratio|rate\s+ratio|relative\s+risk)"
# A model named between a ratio and its estimate, set off by a comma ("HR, adjusted for age,
# 1.30", "odds ratio after adjustment for sex, 1.4") or, where its words say it adjusts,
# without one ("hazard ratio adjusted for confounders 1.40"): no figure stands in it.
_MODEL = (
    r"(?:[\s,]+(?i:adjusted|unadjusted|after|in|multivariable|multivariate|crude)\b"
    r"[^\d;()]{0,40}?,"
    r"|[\s,]+(?i:adjusted|unadjusted|multivariable|multivariate|crude|after\s+adjustment)\b"
    r"[^\d;()]{0,40}?)?"
)
_ESTIMATE = re.compile(
    rf"\b(?:{_RATIO_ABBREVIATIONS}|{_RATIO_NAMES})\b(?:\s*[\[(][^\])]{{0,12}}[\])])?{_MODEL}"
    r"[\s,:=]*(\d*\.?\d+)(?![\d.]*\s*%)"
)
# A ratio naming what it measures before its estimate: "HR for death 1.30", "the hazard
# ratio for all-cause death was 0.70", "odds ratio of relapse, 1.4".
_NAMED_ESTIMATE = re.compile(
    rf"\b(?:{_RATIO_ABBREVIATIONS}|{_RATIO_NAMES})\s+(?i:for|of)\s+((?:[a-zA-Z-]+\s+){{0,2}}?"
    r"[a-zA-Z-]+)[\s,:=]*(?:(?i:was|were|of)\s+)?(\d*\.?\d+)(?![\d.]*\s*%)"
)
# Words for deaths, one ratio's outcome the claim may name by another ("HR for death" of a
# claim on mortality), or turn round ("survival").
_DEATHS = ("death", "mortality", "dying", "fatal")
# A ratio's estimate with its interval ("HR 0.70, 95% CI 0.55-0.89"), and the level at or
# under which a P value reads as significant ("P < 0.001", "p = .01", "a P value of 0.02").
_WITH_INTERVAL = re.compile(
    _ESTIMATE.pattern + r"[^;()]{0,24}?\bCI\b[\s,:=\[\]]*(\d*\.?\d+)\s*(?:-|to|,)\s*(\d*\.?\d+)"
)
_LEVEL = 0.05
# What a ratio of deaths turns around, or makes the odds of the change itself: "improved
# survival (HR 0.70)" is fewer deaths, "more likely to reduce pain (RR 1.41)" more relief.
_TURNING = ("surviv", "alive", "likel", "probab", "chance")


def figures_against(claim: Words, said: Words, text: str) -> Overstated | None:
    """The rule the evidence's figures break against the direction the claim states: a change
    of nothing or one not significant ("by 0%", "a 0% reduction", "mean difference 0.0 kg",
    "by a non-significant 2%", a ratio of 1: `NOT_SIGNIFICANT`), or a change the other way
    ("increased weight by -2 kg", "reduced weight from 80 kg to 82 kg", "(mean change +1.2
    kg)", every ratio on the other side of 1: `DIRECTION`); else None."""
    sign = _claimed_sign(claim)
    if sign is None:
        # "cut mortality by -4%": a cut of less than nothing; "changed the score by -0.4" is
        # a change like any other.
        signed = _SIGNED_VERBS.intersection(said) or any(c[0] != "presence" for _, c in cues(said))
        return Overstated.DIRECTION if signed and negative_by(claim, said) else None
    if any(_of_nothing(said, at) and said[at] not in claim for at in range(len(said))):
        return Overstated.NOT_SIGNIFICANT
    moved = _moves(said)
    if 0 in moved:
        return Overstated.NOT_SIGNIFICANT  # "from 20% to 20%": no change
    folded = fold_text(text).text
    ratios = [float(found.group(1)) for found in _ESTIMATE.finditer(folded)]
    if ratios and all(ratio == 1 for ratio in ratios):
        return Overstated.NOT_SIGNIFICANT
    if negative_by(claim, said):
        return Overstated.DIRECTION
    against_control = control_against(said, sign)
    if against_control is not None:
        return against_control
    if _named_against(claim, folded, sign):
        return Overstated.DIRECTION
    if any(word.startswith(_TURNING) for word in said):
        return None
    moves = moved + [
        1 if found.group(1) == "+" else -1 for found in _SIGNED_CHANGE.finditer(folded)
    ]
    if moves and all(move == -sign for move in moves):
        return Overstated.DIRECTION
    if ratios and all((ratio - 1) * sign < 0 for ratio in ratios):
        return Overstated.DIRECTION
    return None


def _named_against(claim: Words, folded: str, sign: int) -> bool:
    """Whether a ratio naming what it measures lies on the other side of 1 from the claim:
    of the claim's outcome ("reduced mortality (HR for death 1.30)"), or of deaths where the
    claim is of survival, turned round ("increased survival (HR for death 1.30)", "improved
    survival (HR for death 1.25)": better is fewer deaths)."""
    survival = any(word.startswith("surviv") for word in claim)
    of_deaths = any(word.startswith(_DEATHS) for word in claim)
    for found in _NAMED_ESTIMATE.finditer(folded):
        outcome, ratio = word_sequence(found.group(1)), float(found.group(2))
        deaths = any(word.startswith(_DEATHS) for word in outcome)
        if deaths and survival:
            turned = -sign if sign else -_bettered(claim)
        elif (deaths and of_deaths) or set(outcome) & set(claim):
            turned = sign
        else:
            continue
        if (ratio - 1) * turned < 0:
            return True
    return False


def _bettered(claim: Words) -> int:
    """The sign of the claim's first judgement of worth ("improves" is 1), else 0."""
    found = [cue for _, cue in cues(claim) if cue[0] == _VALENCE]
    return found[0][1] if found else 0


def _of_nothing(said: Words, at: int) -> bool:
    """Whether the figure at `at` is a change of nothing or one said not significant: after
    "by" ("reduced weight by 0%", "by a non-significant 2%"), after a word naming the change
    ("mean difference 0.0 kg"), or before a direction word ("a 0% reduction")."""
    word = said[at]
    if word == "by" and not _NOT_SIGNIFICANT.isdisjoint(_joined(said[at + 1 : at + 4])):
        return True
    if not _ZERO.match(word):
        return False
    before, after = said[max(0, at - _CHANGE_REACH) : at], said[at + 1 : at + 2]
    if before[-1:] == ("by",) or not _CHANGES.isdisjoint(before):
        return True
    return bool(after) and cue_of(after[0]) is not None


def negative_by(claim: Words, said: Words) -> bool:
    """Whether the evidence gives a change as negative after "by" ("increased mortality by
    -4%", "cut it by -4%") and the claim does not give that figure: the change went the other
    way from the word that names it, whatever that word is; read for a no as well as a yes."""
    return any(_by_negative(said, at) and said[at + 1] not in claim for at in range(len(said) - 1))


def _by_negative(said: Words, at: int) -> bool:
    """Whether "by" at `at` gives a negative change ("increased weight by -2 kg"): a change
    the other way from the word it measures."""
    return said[at] == "by" and bool(_NEGATIVE.match(said[at + 1]))


def _moves(said: Words) -> list[int]:
    """The sign of each change from one figure to another ("from 80 kg to 82 kg" is +1;
    written the other way round, "to 31% from 28%", +1 too; "from 20% to 20%" is 0)."""
    out = []
    for at, word in enumerate(said):
        first = value_of(said[at + 1]) if word in _ENDS and at + 1 < len(said) else None
        if first is None:
            continue
        other = _ENDS[word]
        rest = said[at + 2 : at + 3 + _UNIT_REACH]
        if other not in rest:
            continue
        end = at + 2 + rest.index(other) + 1
        second = value_of(said[end]) if end < len(said) else None
        if second is not None:
            start, stop = (first, second) if word == "from" else (second, first)
            out.append((stop > start) - (stop < start))
    return out


# The two ends of a change, either written first: "from 80 kg to 82 kg", "to 31% from 28%".
_ENDS = {"from": "to", "to": "from"}


def _claimed_sign(claim: Words) -> int | None:
    """The sign of the claim's first change of amount ("reduces weight gain" is -1); 0 where
    it states a direction of another kind only ("improves"); None where it states none."""
    denied = alternatives(claim)
    found = [cue for at, cue in cues(claim) if at not in denied]
    if not found:
        return None
    return next((sign for axis, sign in found if axis == _QUANTITY), 0)


def _joined(words: Words) -> set[str]:
    """The words, with "non" joined to the word after it ("non-significant")."""
    return {*words, *(one + two for one, two in pairwise(words))}


def figures_for(claim: Words, sentence: str) -> bool:
    """Whether a sentence's own figures show a change where it states none: a P value at or
    under 0.05, or a ratio on the claim's side of 1 whose interval leaves 1 out ("did not
    reduce mortality (HR 0.70, 95% CI 0.55-0.89)"). A no read off it is withheld."""
    text = fold_text(sentence).text
    if any(p_at_most(found, _LEVEL) for found in p_values(text)):
        return True
    sign = _claimed_sign(claim)
    if not sign or any(word.startswith(_TURNING) for word in word_sequence(sentence)):
        return False
    for found in _WITH_INTERVAL.finditer(text):
        ratio, low, high = (float(found.group(i)) for i in (1, 2, 3))
        low, high = min(low, high), max(low, high)
        if (ratio - 1) * sign > 0 and not low <= 1 <= high:
            return True
    return False
