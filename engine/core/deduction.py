"""Whether a deduction follows from what it rests on, by a check that cannot be fooled by words.

Sharing words proves nothing: "The profits are not due to systematic risk." shares every
word of "The profits are due to systematic risk." except one. A deduction is proven here
only in two ways, sentence by sentence:

- it *restates* one premise (or cited confirmed text) by the licensing rule: a whole
  sentence or a whole independent clause of it (`engine.core.licensing`);
- it *compares* two premises' numbers and the comparison holds. The two premises must say
  the same thing of two subjects, each with exactly one number of the same kind
  ("Momentum earned 1.2% a month." / "Reversal earned 0.4% a month."), and the deduction
  must be the first premise's words before its number, a comparative and `than`, then the
  second subject ("Momentum earned more than reversal."). A bare "1.2% > 0.4%" of two
  premise numbers is proven by arithmetic. No negation, hedge, bound or second number may
  sit in either premise, so the numbers are the values stated, not limits or ranges.

Like is compared with like only (`Unlike` names why not): everything but the subject and
the number is the same (a scope, condition or time frame in one subject proves nothing:
"In Japan momentum earned …"), the numbers are magnitudes of one property in one unit
(never ranks, ordinals, years, dates, "N years ago" or durations), and signs are read as
displayed ("− 1.2%" is -1.2%, by the one tokenizer).

Anything else (a reordered, negated or swapped sentence, a changed number) is not proven,
and the router keeps the deduction at most inferred.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.core.licensing import extractively_licensed
from engine.text.lexicon import SCOPE_FRAMES, SUBJECT_FRAMES
from engine.text.numbers import is_percent, is_year, value_of
from engine.text.sentences import sentence_texts
from engine.text.tokens import word_sequence

Words = tuple[str, ...]

_MORE = frozenset("more higher greater larger bigger longer".split())  # noqa: SIM905
_LESS = frozenset("less lower smaller fewer shorter".split())  # noqa: SIM905
# The words a comparison adds to its premises ("more … than"), named when one fails.
COMPARISON_WORDS = _MORE | _LESS | {"than"}
_COMPARATORS = {">": ">", "<": "<", "≥": ">=", "≤": "<=", "=": "==", "≠": "!="}
# Words that bound, negate or hedge a stated number: a premise holding one states a limit,
# a doubt or a denial, not a value, and is never compared.
BLOCKERS = (
    frozenset(
        """
    not no nor never without none neither cannot n't dont doesnt didnt isnt arent wasnt
    werent cant couldnt wont wouldnt shouldnt hasnt havent hadnt
    may might could would should possibly perhaps probably likely unlikely if whether
    about approximately around nearly almost roughly circa ca some over under above below
    up least most than more less higher lower greater smaller fewer larger exceeds
    exceeded between from to
    """.split()  # noqa: SIM905
    )
    | frozenset(_COMPARATORS)
    | frozenset({"±", "≈", "×"})
)

# A number beside these is a rank or a position, never an amount: rank 1 is the top.
_RANKS = frozenset(
    "rank ranked ranks ranking rankings position positions place placed placing tier".split()  # noqa: SIM905
)
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
# A number followed by one of these is a duration or a time ("5 years", "2 years ago").
_TIMES = frozenset(
    """
    second seconds sec s minute minutes min hour hours h day days week weeks month months
    year years yr yrs decade decades century centuries
    """.split()  # noqa: SIM905
)
# Words that name no finite amount: a premise stating one is never compared.
_NOT_FINITE = frozenset({"nan", "inf", "infinity"})
_MONTHS = frozenset(
    """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    """.split()  # noqa: SIM905
)


class ProofKind(StrEnum):
    """How a deduction sentence was proven from what it rests on."""

    RESTATES = "restates"
    COMPARES = "compares"


class Unlike(StrEnum):
    """Why a sentence of a deduction is not proven from its premises' numbers."""

    NO_COMPARISON = "no-comparison"  # neither a restatement nor a comparison of two premises
    FRAME = "frame"  # a scope, condition or time frame on one side only, or dropped
    NOT_MAGNITUDE = "not-magnitude"  # a rank, ordinal, year, date, "N years ago", duration
    UNITS = "units"  # different units or kinds of number
    DOES_NOT_HOLD = "does-not-hold"  # like with like, but the numbers say otherwise


@dataclass(frozen=True)
class Proof:
    """A deduction proven sentence by sentence; `kinds` says how each sentence was."""

    kinds: tuple[ProofKind, ...]


def prove(deduction: str, support: Sequence[str]) -> Proof | None:
    """A proof that `deduction` follows from `support` (premise texts, confirmed text), or None."""
    kinds = _kinds(deduction, support)
    return kinds if isinstance(kinds, Proof) else None


def why_unproven(deduction: str, support: Sequence[str]) -> Unlike | None:
    """Why `deduction` is not proven from `support`; None when it is."""
    found = _kinds(deduction, support)
    return None if isinstance(found, Proof) else found


def _kinds(deduction: str, support: Sequence[str]) -> Proof | Unlike:
    texts = [text for text in support if text.strip()]
    parts = list(sentence_texts(deduction))
    if not parts or not texts:
        return Unlike.NO_COMPARISON
    kinds = []
    for part in parts:
        if any(extractively_licensed(part, text) for text in texts):
            kinds.append(ProofKind.RESTATES)
            continue
        refused = _compares(part, texts)
        if refused is not None:
            return refused
        kinds.append(ProofKind.COMPARES)
    return Proof(tuple(kinds))


@dataclass(frozen=True)
class _Stated:
    """A premise sentence stating one value: the words before and after its one number."""

    before: Words
    number: str
    after: Words
    value: float


def _compares(part: str, texts: Sequence[str]) -> Unlike | None:
    """None when `part` compares two premises' numbers and holds; otherwise why not."""
    words = word_sequence(part)
    stated = [
        s
        for s in map(_stated, (s for text in texts for s in sentence_texts(text)))
        if s is not None
    ]
    if len(words) == 3 and words[1] in _COMPARATORS:
        return _arithmetic(words, stated)
    hits = [i for i, w in enumerate(words[:-1]) if w in _MORE | _LESS and words[i + 1] == "than"]
    if len(hits) != 1:
        return Unlike.NO_COMPARISON
    at = hits[0]
    left, right, more = words[:at], words[at + 2 :], words[at] in _MORE
    if not left or not right:
        return Unlike.NO_COMPARISON
    # The most telling refusal among the premise pairs that say the same of two subjects.
    refusals = [Unlike.NO_COMPARISON]
    for first in stated:
        if first.before != left:
            continue
        for second in stated:
            if second is first:
                continue
            subject, said = _subject(right, first.after)
            if not _same_predicate(left, second.before, subject):
                continue
            refused = _like(first, second, left, subject, said)
            if refused is None:
                a, b = first.value, second.value
                refused = None if ((a > b) if more else (a < b)) else Unlike.DOES_NOT_HOLD
            if refused is None:
                return None
            refusals.append(refused)
    return max(refusals, key=list(Unlike).index)


def _subject(right: Words, after: Words) -> tuple[Words, bool]:
    """The second subject named after `than`, and whether the premises' shared tail follows it."""
    if after and len(right) > len(after) and right[len(right) - len(after) :] == after:
        return right[: len(right) - len(after)], True
    return right, False


def _like(
    first: _Stated, second: _Stated, left: Words, subject: Words, said: bool
) -> Unlike | None:
    """Why two premises' numbers may not be compared, or None when they say like of like."""
    own = left[: len(left) - (len(second.before) - len(subject))]
    if SUBJECT_FRAMES.intersection(own) or SUBJECT_FRAMES.intersection(subject):
        return Unlike.FRAME  # a scope or time frame belongs to one subject only
    if not (_magnitude(first) and _magnitude(second)):
        return Unlike.NOT_MAGNITUDE
    if first.after != second.after:
        tails = set(first.after) | set(second.after)
        return Unlike.FRAME if SCOPE_FRAMES.intersection(tails) else Unlike.UNITS
    if SCOPE_FRAMES.intersection(first.after) and not said:
        return Unlike.FRAME  # the comparison drops the frame both premises hold
    if not _same_kind(first.number, second.number):
        return Unlike.UNITS
    return None


def _magnitude(stated: _Stated) -> bool:
    """Whether the number measures an amount: not a rank, ordinal, year, date or duration."""
    nearby = set(stated.before[-3:]) | set(stated.after[:2])
    if _RANKS.intersection(nearby) or _MONTHS.intersection(nearby):
        return False
    if stated.after[:1] and (stated.after[0] in _ORDINALS or stated.after[0] in _TIMES):
        return False
    if "ago" in stated.after:
        return False
    return not is_year(stated.number)


def _same_predicate(left: Words, before: Words, right: Words) -> bool:
    """Whether `before` is `right` (the second subject) followed by the tail of `left`.

    "momentum earned" / "reversal earned" / "reversal": the second premise says of its
    subject what the first says of its own. Both subjects must be non-empty.
    """
    if len(before) <= len(right) or before[: len(right)] != right:
        return False
    shared = before[len(right) :]
    return len(left) > len(shared) and left[len(left) - len(shared) :] == shared


def _arithmetic(words: Words, stated: list[_Stated]) -> Unlike | None:
    a, op, b = words
    by_number = {s.number: s for s in stated}
    if a not in by_number or b not in by_number:
        return Unlike.NO_COMPARISON
    if not (_magnitude(by_number[a]) and _magnitude(by_number[b])):
        return Unlike.NOT_MAGNITUDE
    if not _same_kind(a, b) or by_number[a].after[:2] != by_number[b].after[:2]:
        return Unlike.UNITS
    x, y = by_number[a].value, by_number[b].value
    holds = {
        ">": x > y,
        "<": x < y,
        ">=": x >= y,
        "<=": x <= y,
        "==": x == y,
        "!=": x != y,
    }[_COMPARATORS[op]]
    return None if holds else Unlike.DOES_NOT_HOLD


def _stated(sentence: str) -> _Stated | None:
    words = word_sequence(sentence)
    values = {i: value for i, w in enumerate(words) if (value := _value(w)) is not None}
    if len(values) != 1 or BLOCKERS.intersection(words) or any(w.endswith("n't") for w in words):
        return None
    if _NOT_FINITE.intersection(words):
        return None
    ((at, value),) = values.items()
    if at == 0 or sentence.rstrip().endswith("?"):
        return None
    return _Stated(words[:at], words[at], words[at + 1 :], value)


def _value(norm: str) -> float | None:
    """A premise number's amount, as the number reader reads it; None for anything else."""
    amount = value_of(norm)
    return None if amount is None else float(amount)


def _same_kind(a: str, b: str) -> bool:
    return is_percent(a) == is_percent(b)
