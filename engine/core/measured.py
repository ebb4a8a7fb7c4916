"""When a sentence says exactly what a recomputation reproduced, and so is `measured`.

An `expr-recompute` verifier reproduces one aggregate of one column ("the mean of ret is
0.012"). A sentence restating it in its own words ("Mean monthly return was 0.012.") is
measured only when nothing in it goes beyond what was reproduced:

- every number in it is the reproduced value (a second or another number is not);
- it names the aggregate, and every aggregate word it uses is that aggregate's ("median"
  is not the mean; a sentence naming none could mean any single value, so it is not);
- it holds no negation, hedge, bound or comparator ("not", "about", "at least", "<").

Anything else stays below green: the restatement floor leaves it at most inferred.
"""

from __future__ import annotations

from engine.core.deduction import BLOCKERS
from engine.text.numbers import is_percent, value_of
from engine.text.sentences import sentences
from engine.text.tokens import tokens

# Words naming an aggregate, by the aggregate `engine.core.evidence.recompute` computes.
AGGREGATE_WORDS = {
    "mean": frozenset({"mean", "means", "average", "averages", "averaged", "avg"}),
    "sum": frozenset({"sum", "sums", "summed", "total", "totals", "totalled", "totaled"}),
    "median": frozenset({"median", "medians"}),
    "min": frozenset({"min", "minimum", "lowest", "smallest"}),
    "max": frozenset({"max", "maximum", "highest", "largest"}),
    "count": frozenset({"count", "counts", "counted"}),
    "std": frozenset({"std", "sd", "stdev", "deviation"}),
    "nunique": frozenset({"distinct", "unique"}),
}
_ANY_AGGREGATE = frozenset().union(*AGGREGATE_WORDS.values())


def measured_sentence(text: str, agg: str, value: float) -> bool:
    """Whether `text` (one sentence) states exactly the reproduced `agg` with `value`."""
    if len(sentences(text)) != 1 or text.rstrip().endswith("?"):
        return False
    toks = tokens(text)
    norms = [t.norm for t in toks]
    if BLOCKERS.intersection(norms) or any(n.endswith("n't") for n in norms):
        return False
    numbers = [t.norm for t in toks if t.is_number]
    if not numbers or not all(_equals(n, value) for n in numbers):
        return False
    named = _ANY_AGGREGATE.intersection(norms)
    return bool(named) and named <= AGGREGATE_WORDS.get(agg, frozenset())


def _equals(norm: str, value: float) -> bool:
    # As written: "1.2%" is not 0.012 and "10^-3" is no plain number.
    amount = value_of(norm)
    return amount is not None and not is_percent(norm) and float(amount) == value
