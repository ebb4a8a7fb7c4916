"""Whether a sentence's own figures say that what it reports is not statistically significant.

"Vitamin D reduced falls (P = .34)" and "lowered the risk of stroke (hazard ratio, 0.91; 95%
CI, 0.78-1.06)" state a direction their figures do not bear out: the P value is above 0.05,
or the interval holds no effect (1 for a ratio, 0 for a difference). A sentence is read as
reporting no significant result only when it gives at least one P value or interval and
every one it gives is of that kind; a sentence with one significant figure among others may
be stating that one. Words count the same way: "(not significant)", "did not reach
statistical significance", "(NS)" and "nonsignificant" are verdicts of no significance,
"significantly" without a negation before it one of significance.
"""

from __future__ import annotations

import re

from engine.text.clause_words import FINDING_NOUNS
from engine.text.fold import fold_text
from engine.text.lexicon import FAIL_WORDS, NEGATIONS, word_set
from engine.text.tokens import word_sequence

# The text is folded first (`fold_text`): minus signs and dashes are "-" by then. A number
# ends where no digit follows, nor a point and a digit: a full stop may close the sentence.
_NUMBER = r"-?\d*\.?\d+"
# "P = .34", "p>0.05", "P ≥ 0.1"; "P < .001" is read too, as significant.
_P_VALUE = re.compile(rf"(?<![\w.])[Pp]\s*(=|>|<|\u2265|\u2264|>=|<=)\s*({_NUMBER})(?!\.?\d)")
# The same in words: "a P value of 0.08", "p-value = 0.3", "P value 0.21", "P-value: .4". Only
# after "value" may the relation be left out: "p53" is a protein, not "P = 53".
_P_WORDED = re.compile(
    rf"(?<![\w.])[Pp][\s-]*values?\s*(?:(=|>|<|\u2265|\u2264|>=|<=)|(?:of|was|were|is|:|,)\s*)?"
    rf"\s*({_NUMBER})(?!\.?\d)"
)
# "95% CI, 0.78-1.06", "(95% confidence interval [CI] -3% to 25%)".
_INTERVAL = re.compile(
    rf"\b(?:CI|confidence\s+interval)\b[\s,:=\[\]()]*(?:CI\b[\s,:=\]()]*)?({_NUMBER})\s*%?\s*"
    rf"(?:to|-|,)\s*({_NUMBER})\s*%?",
    re.IGNORECASE,
)
# A measure whose "no effect" is 1: an interval on it spans 1, not 0.
_RATIO = re.compile(
    r"\b(?:ratios?|RR|OR|HR|IRR|aOR|aHR|odds|hazards?|relative\s+risks?)\b", re.IGNORECASE
)
_LEVEL = 0.05
# "P < 1 × 10−3", "p = 1.7x10(-15)", "P = 3e-8": a power of ten after the number.
_EXPONENT = re.compile(r"\s*(?:[x\u00d7*]\s*10|[eE]\s*-?\d)")


def reports_no_significance(sentence: str) -> bool:
    """Whether `sentence` gives P values or intervals and every one says "not significant"."""
    text = fold_text(sentence).text
    verdicts = [_p_significant(text, m) for m in p_values(text)]
    verdicts += [_interval_significant(text, m) for m in _INTERVAL.finditer(text)]
    words = word_sequence(sentence)
    verdicts += _worded(words)
    verdicts += [False for _ in _NS.finditer(text)]
    verdicts += [False for _ in _spans_null(words)]
    return bool(verdicts) and not any(verdicts)


_SIGNIFICANT = frozenset({"significant", "significantly", "significance"})
# An interval and the verbs by which it holds no effect ("the interval included no effect").
_INTERVALS = word_set("interval intervals ci cis")
_SPANNING = word_set(
    "included includes including contained contains crossed crosses spanned spans overlapped "
    "overlaps"
)
_SPAN_REACH = 2
# Words that say a difference held by its number alone, not by a test.
_BY_NUMBER_ALONE = word_set("numerically nominally")
_NOT_SIGNIFICANT = frozenset({"insignificant", "nonsignificant", "nonsignificantly"})
_VERDICTS = _SIGNIFICANT | _NOT_SIGNIFICANT
# "(NS)", "P = NS": never the bare letters, which also name cells ("NS cells") and units.
_NS = re.compile(r"\((?:NS|ns|n\.s\.)\)|\b[Pp]\s*=\s*(?:NS|ns)\b")
# Words that may stand between a negation and "significant" and leave it negated ("did not
# reach statistical significance", "were not significantly different"): nothing that names
# a thing, so "but not farnesol, significantly reduced" keeps its "significantly".
_BETWEEN = word_set(
    "statistically statistical reach reached reaching achieve achieved attain attained a any "
    "the level of differ differed different change changed vary varied was were be been to "
    "is are"
)


# What may follow "significant" when it speaks of a test ("no significant difference",
# "significant in women", "not significant."): a finding noun or a word opening what it was
# found among; "no significant disagreement" speaks of size, and "no significant effect on
# disability" (or "on other outcomes") of something it names, not the sentence's finding.
_TESTED = FINDING_NOUNS | word_set(
    "between in among after for at when compared with from relative versus vs level levels trend"
)
_OTHER_REACH = 3
# Words by which a finding noun names what it is about ("effect on", "difference in").
_NAMING = word_set("on in of for with to among")


def _spans_null(words: tuple[str, ...]) -> list[int]:
    """Where the words say an interval held no effect ("the confidence interval included no
    effect", "the interval crossed one", "whose interval spans zero"), or a difference held
    by number alone ("numerically", "nominally"): each a verdict of "not significant"."""
    out = []
    for at, word in enumerate(words):
        if word in _BY_NUMBER_ALONE:
            out.append(at)
        if word in _INTERVALS and not _SPANNING.isdisjoint(words[at + 1 : at + 1 + _SPAN_REACH]):
            out.append(at)
    return out


def _worded(words: tuple[str, ...]) -> list[bool]:
    """The significance each worded verdict gives: True for significant, False for not."""
    out = []
    for at, word in enumerate(words):
        if word not in _VERDICTS:
            continue
        after = words[at + 1 : at + 1 + _OTHER_REACH]
        if "other" in after:
            continue
        if word != "significantly" and after and after[0] not in _TESTED:
            continue
        if after[:1] and after[0] in FINDING_NOUNS and after[1:2] and after[1] in _NAMING:
            continue  # "no significant effect on disability" is about disability
        back = at - 1
        while back >= 0 and words[back] in _BETWEEN:
            back -= 1
        before = words[back] if back >= 0 else ""
        negated = before in NEGATIONS or before in FAIL_WORDS or before == "non"
        out.append(word in _SIGNIFICANT and not negated)
    return out


def p_values(text: str) -> list[re.Match[str]]:
    """The P values a folded text gives, in symbols or in words: each match's group 1 is its
    relation (None for "is", "of" or nothing: equal) and group 2 its number."""
    return [*_P_VALUE.finditer(text), *_P_WORDED.finditer(text)]


def p_at_most(found: re.Match[str], level: float) -> bool:
    """Whether a P value of `p_values` is reported at or under `level` ("P < .001", "P = 0.04")."""
    return found.group(1) not in (">", ">=", "\u2265") and float(found.group(2)) <= level


def _p_significant(text: str, found: re.Match[str]) -> bool:
    if _EXPONENT.match(text, found.end()):
        return True  # a P value written with a power of ten is a tiny one
    # "P = .05" and "P < .05" are reported as significant; only a larger P is read as not.
    return p_at_most(found, _LEVEL)


def _interval_significant(text: str, found: re.Match[str]) -> bool:
    """Whether the interval holds no effect: 1 for a ratio, 0 for a difference. An interval
    that names no measure and no unit ("(95% CI 0.8 to 1.1)") may be either: it is read as
    significant only if it holds neither 0 nor 1."""
    low, high = (float(found.group(i)) for i in (1, 2))
    low, high = min(low, high), max(low, high)
    if _RATIO.search(text, 0, found.start()):
        return not low <= 1.0 <= high
    if "%" not in found.group(0) and low <= 1.0 <= high:
        return False  # a ratio's interval as much as a difference's
    return not low <= 0.0 <= high
