"""Numbers as both wings read them: a value, the range it belongs to, and what it measures.

"reduced by 30% (95% CI 20-40)" holds the quantity 30% with the word it measures; two
texts agree on a quantity when they measure the same thing with values that match within
rounding, or one falls in the other's range.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.text.lexicon import APPROXIMATORS, COUNTING_WORDS
from engine.text.numbers import RANGE_JOINTS, is_year, joint, value_of
from engine.text.tokens import Token

_EXACT = 0.1  # relative difference still read as the same number (rounding)
_ROUGH = 0.3  # the same, when either side says "about" or "around"


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number, the range it belongs to, and what identifies the quantity it measures."""

    value: str
    low: float
    high: float
    approximate: bool  # "about", "around", "nearly" before it
    before: str  # the nearest content word before it
    unit: str  # a short content word right after it ("mg", "weeks"), if any

    def same_quantity(self, other: Quantity) -> bool:
        """Same word before, same unit after (or none), and both percentages or neither."""
        return (
            bool(self.before)
            and self.before == other.before
            and self.unit == other.unit
            and self.value.endswith("%") == other.value.endswith("%")
        )

    def agrees(self, other: Quantity) -> bool:
        """Whether the values are the same within rounding, or one falls in the other's range."""
        slack = _ROUGH if self.approximate or other.approximate else _EXACT
        low, high = min(self.low, other.low), max(self.high, other.high)
        if self.low >= other.low and self.high <= other.high:
            return True
        if other.low >= self.low and other.high <= self.high:
            return True
        return high - low <= slack * max(abs(high), abs(low), 1e-9)


def quantities(
    toks: tuple[Token, ...],
    text: str,
    *,
    stems: tuple[str, ...],
    content_at: list[bool],
) -> tuple[Quantity, ...]:
    words = [t.norm for t in toks]
    values = {
        i: _value(COUNTING_WORDS.get(w, w))
        for i, (t, w) in enumerate(zip(toks, words, strict=True))
        if t.is_number or w in COUNTING_WORDS
    }
    out = []
    for i, value in values.items():
        gap_before = text[toks[i - 1].end : toks[i].start] if i else ""
        if gap_before == "-" and i - 1 not in values:
            continue  # part of a name such as IL-1 or COVID-19
        if value is None or is_year(words[i]):
            continue  # a date places a finding; it is not a quantity the finding measures
        low = high = value
        for j in (i - 1, i + 1):
            # "5-10", "5 to 10": both ends stand for the range.
            first, last = sorted((i, j))
            gap = text[toks[first].end : toks[last].start] if j in values else ""
            end = values.get(j)
            if end is not None and joint(gap) in RANGE_JOINTS:
                low, high = min(low, end), max(high, end)
        before = next((stems[j] for j in range(i - 1, max(-1, i - 4), -1) if content_at[j]), "")
        unit = words[i + 1] if i + 1 < len(words) and content_at[i + 1] else ""
        rough = any(w in APPROXIMATORS for w in words[max(0, i - 2) : i])
        value_text = stems[i]  # a number's stem is its norm, number words as digits
        out.append(Quantity(value_text, low, high, rough, before, unit if len(unit) <= 5 else ""))
    return tuple(out)


def _value(norm: str) -> float | None:
    amount = value_of(norm)
    return None if amount is None else float(amount)
