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

Anything else (a reordered, negated or swapped sentence, a changed number) is not proven,
and the router keeps the deduction at most inferred.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.core.licensing import extractively_licensed
from engine.core.text import sentences, word_sequence

Words = tuple[str, ...]

_MORE = frozenset("more higher greater larger bigger longer".split())  # noqa: SIM905
_LESS = frozenset("less lower smaller fewer shorter".split())  # noqa: SIM905
# The words a comparison adds to its premises ("more … than"), named when one fails.
COMPARISON_WORDS = _MORE | _LESS | {"than"}
_COMPARATORS = {">": ">", "<": "<", "≥": ">=", "≤": "<=", "=": "==", "≠": "!="}
# Words that bound, negate or hedge a stated number: a premise holding one states a limit,
# a doubt or a denial, not a value, and is never compared.
_BLOCKERS = (
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


class ProofKind(StrEnum):
    """How a deduction sentence was proven from what it rests on."""

    RESTATES = "restates"
    COMPARES = "compares"


@dataclass(frozen=True)
class Proof:
    """A deduction proven sentence by sentence; `kinds` says how each sentence was."""

    kinds: tuple[ProofKind, ...]


def prove(deduction: str, support: Sequence[str]) -> Proof | None:
    """A proof that `deduction` follows from `support` (premise texts, confirmed text), or None."""
    texts = [text for text in support if text.strip()]
    parts = [deduction[s.start : s.end] for s in sentences(deduction)]
    if not parts or not texts:
        return None
    kinds = []
    for part in parts:
        if any(extractively_licensed(part, text) for text in texts):
            kinds.append(ProofKind.RESTATES)
        elif _compares(part, texts):
            kinds.append(ProofKind.COMPARES)
        else:
            return None
    return Proof(tuple(kinds))


@dataclass(frozen=True)
class _Stated:
    """A premise sentence stating one value: the words before and after its one number."""

    before: Words
    number: str
    after: Words


def _compares(part: str, texts: Sequence[str]) -> bool:
    words = word_sequence(part)
    stated = [s for s in map(_stated, _sentences(texts)) if s is not None]
    if len(words) == 3 and words[1] in _COMPARATORS:
        return _arithmetic(words, stated)
    hits = [i for i, w in enumerate(words[:-1]) if w in _MORE | _LESS and words[i + 1] == "than"]
    if len(hits) != 1:
        return False
    at = hits[0]
    left, right, more = words[:at], words[at + 2 :], words[at] in _MORE
    if not left or not right:
        return False
    for first in stated:
        if first.before != left:
            continue
        for second in stated:
            if second is first or not _same_kind(first.number, second.number):
                continue
            if second.after != first.after or not _same_predicate(left, second.before, right):
                continue
            a, b = _value(first.number), _value(second.number)
            if (a > b) if more else (a < b):
                return True
    return False


def _same_predicate(left: Words, before: Words, right: Words) -> bool:
    """Whether `before` is `right` (the second subject) followed by the tail of `left`.

    "momentum earned" / "reversal earned" / "reversal": the second premise says of its
    subject what the first says of its own. Both subjects must be non-empty.
    """
    if len(before) <= len(right) or before[: len(right)] != right:
        return False
    shared = before[len(right) :]
    return len(left) > len(shared) and left[len(left) - len(shared) :] == shared


def _arithmetic(words: Words, stated: list[_Stated]) -> bool:
    a, op, b = words
    numbers = {s.number for s in stated}
    if a not in numbers or b not in numbers or not _same_kind(a, b):
        return False
    x, y = _value(a), _value(b)
    return {
        ">": x > y,
        "<": x < y,
        ">=": x >= y,
        "<=": x <= y,
        "==": x == y,
        "!=": x != y,
    }[_COMPARATORS[op]]


def _sentences(texts: Sequence[str]) -> list[str]:
    return [text[s.start : s.end] for text in texts for s in sentences(text)]


def _stated(sentence: str) -> _Stated | None:
    words = word_sequence(sentence)
    numbers = [i for i, w in enumerate(words) if _is_number(w)]
    if len(numbers) != 1 or _BLOCKERS.intersection(words) or any(w.endswith("n't") for w in words):
        return None
    at = numbers[0]
    if at == 0 or sentence.rstrip().endswith("?"):
        return None
    return _Stated(words[:at], words[at], words[at + 1 :])


def _is_number(token: str) -> bool:
    try:
        _value(token)
    except ValueError:
        return False
    return True


def _value(token: str) -> float:
    if "^" in token:
        raise ValueError(token)  # an exponent is never compared by its digits
    return float(token.removesuffix("%"))


def _same_kind(a: str, b: str) -> bool:
    return a.endswith("%") == b.endswith("%")
