"""The one number reader: a text's numbers as values, each with its sign as displayed.

Every number rule reads numbers here: the tokeniser's number tokens (their grammar, norm
and sign rule), the numbers a reader sees in a sentence (`read`: "10/66", "95% CI 1.2–3.4"
as one), the ranges quantities compare and the values deductions compare (`value_of`); figures
with units and spelled figures are read on the same rules by `engine.text.units`.

- A sign is what is displayed: any dash or minus look-alike (folded to `-`) or a `+`
  before the digits, glued or set apart by any space (U+0020, U+2009, U+00A0, U+202F, a
  line break, but not a blank line), is the number's sign, unless a word is glued to its
  left (`COVID-19`) or a number precedes it (`5 - 10` is a range): `sign_start`.
- A value is a `Decimal` of the digits with their sign; an exponent (`10^-3`) or a trailing
  marker (`3-`) makes a token a label, never an amount compared by its digits (`value_of`).
- Numbers join into the one number a reader sees by what stands between them (`Joint`);
  each rule reads the joints its decision needs (`READER_JOINTS`, `RANGE_JOINTS`), so no
  rule is loosened by another's reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Protocol

from engine.text.fold import SIGNS

# The spaces a sign may stand apart from its number by: any (thin, no-break, a line break),
# but not a blank line. "− 1.2%" as PDF and LaTeX output write it is still -1.2%.
SIGN_GAP = r"[^\S\n]*(?:\n[^\S\n]*)?"
# A number as the tokeniser reads it from folded text (minus look-alikes are `-`): a sign,
# the digits (thousands groups joined, a bare `.05`) and an exponent (`10^-3`, `10^(-3)`).
NUMBER_PATTERN = (
    r"(?P<sign>(?<!\w)(?:-{1,3}" + SIGN_GAP + r"|\+))?"
    r"(?P<base>(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|(?<![\w.])\.\d+)"
    r"(?:\^\(?(?P<exp>[-+]?\d+(?:\.\d+)?)\)?)?"
)
# Not the minus of a plus-minus (`+/-`, `+-`), which is a symbol of its own.
_SIGN_BEFORE = re.compile(rf"(?<![\w/+])-{{1,3}}{SIGN_GAP}\Z")
# A number token's norm: signed digits, an exponent, a percent, a trailing marker.
_NORM = re.compile(
    r"(?P<value>-?\d+(?:\.\d+)?)(?:\^(?P<exp>-?\d+(?:\.\d+)?))?(?P<percent>%)?(?P<marker>[-+]|/[-+])?"
)
_YEAR = re.compile(r"1[89]\d\d|20\d\d")


def digit_before(text: str, at: int) -> bool:
    """Whether a number (a digit or a percent sign) precedes `at`, spaces and tabs aside."""
    before = text[max(0, at - 32) : at].rstrip(" \t")
    return before[-1:].isdigit() or before[-1:] == "%"


def range_dash(text: str, at: int, sign: str) -> bool:
    """Whether the `sign` matched at `at` in folded `text` is a range's dash, not a sign."""
    return sign.startswith("-") and digit_before(text, at)


def sign_start(text: str, at: int) -> int:
    """Where the sign of the number starting at `at` in folded `text` begins; `at` if unsigned.

    The one sign rule, for readers that cut text by offsets (the quote check): a dash
    (folded to `-`) before a number is its sign, glued or set apart by spaces, unless a
    word is glued to its left (`COVID-19`, a name) or a number precedes it (`5 - 10`, a
    range). Read where a cut would start at the number and drop the sign.
    """
    floor = max(0, at - 24)
    if text.rfind("-", floor, at) < 0:
        return at  # no dash to be a sign: spares trying the pattern at every position
    found = _SIGN_BEFORE.search(text, floor, at)
    if found is None or digit_before(text, found.start()):
        return at
    return found.start()


def number_norm(sign: str, base: str, *, percent: bool, exponent: str | None = None) -> str:
    """The norm of a number token: `-0.05`, `1000`, `12%`, `10^-3` (a `+` sign reads as none)."""
    norm = (sign.rstrip() + base).replace(",", "").removeprefix("+")
    if norm.startswith("."):
        norm = "0" + norm
    elif norm.startswith("-."):
        norm = "-0" + norm[1:]
    if exponent is not None:
        norm += "^" + exponent.removeprefix("+")
    return norm + "%" if percent else norm


def value_of(norm: str) -> Decimal | None:
    """The amount a number token's norm states, or None when it is not an amount.

    `-1.2%` is -1.2 (a percent); `10^-3` (an exponent is never compared by its digits), a
    marked `3-` and any word are None.
    """
    found = _NORM.fullmatch(norm)
    if found is None or found.group("exp") or found.group("marker"):
        return None
    return Decimal(found.group("value"))


def is_plain_figure(norm: str) -> bool:
    """Whether a token's norm is an unsigned integer or decimal ("12", "0.5"): no sign, no %."""
    return norm.replace(".", "", 1).isdigit()


def is_percent(norm: str) -> bool:
    """Whether a number token's norm is a percentage."""
    return norm.endswith("%")


def is_year(norm: str) -> bool:
    """Whether a number token's norm reads as a year (1800–2099): a date, not an amount."""
    return _YEAR.fullmatch(norm) is not None


class Spanned(Protocol):
    """A token as the reader takes it: its norm, whether it is a number, and its span."""

    @property
    def norm(self) -> str: ...
    @property
    def is_number(self) -> bool: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Number:
    """One number: `[start, end)` and its text as displayed, its sign and its value.

    `sign` is the sign's character as displayed (`−`, `-`, `+`) or ""; `value` is the
    digits' value with it (`10^-3`: 10, raised to `exponent` -3). A trailing `marker`
    (`3-`) makes the number a label. `unit` is a figure's unit where stated (`%`, `pp`,
    `bp`), `spelled` a figure written in words.
    """

    text: str
    start: int
    end: int
    norm: str
    sign: str
    value: Decimal | None
    exponent: Decimal | None = None
    percent: bool = False
    marker: str = ""
    unit: str = ""
    spelled: bool = False


def number(text: str, token: Spanned) -> Number:
    """The number token `token` of `text` read as a value."""
    shown = text[token.start : token.end]
    found = _NORM.fullmatch(token.norm)
    sign = shown[0] if shown[:1] and not (shown[0].isdigit() or shown[0] == ".") else ""
    if found is None:
        return Number(shown, token.start, token.end, token.norm, sign, None)
    exponent = found.group("exp")
    return Number(
        shown,
        token.start,
        token.end,
        token.norm,
        sign,
        Decimal(found.group("value")),
        Decimal(exponent) if exponent else None,
        percent=bool(found.group("percent")),
        marker=found.group("marker") or "",
    )


class Joint(StrEnum):
    """What stands between two numbers that a reader may see as one."""

    DASH = "dash"  # a range: "5-10" written tight, "1.2–3.4", "18 – 20" (en or em dash)
    MINUS_DASH = "minus-dash"  # "5−10" written tight with a minus sign
    SPACED_HYPHEN = "spaced-hyphen"  # "5 - 10": a range, or two numbers of a list
    TO = "to"  # "5 to 10"
    RATIO = "ratio"  # "10/66", "3:1" written tight ("Group 1: 45" is two numbers)
    DECIMAL_POINT = "decimal-point"  # "18·2": a decimal point written as a middle dot
    PLUS_MINUS = "plus-minus"  # "4 ± 1", "4 +/- 1"
    INTERVAL = "interval"  # "95% CI 1.2–3.4": an interval after its level
    TIMES_TEN = "times-ten"  # "1.2 × 10^-3": a mantissa and its power of ten
    E_NOTATION = "e-notation"  # "1e-3", "2.5E+04" (a signed exponent; "1e3" is 1 and a word)


_JOINTS = (
    (Joint.E_NOTATION, re.compile(r"[eE][-−+]")),
    (Joint.DASH, re.compile(r"-|\s*[–—]\s*")),
    (Joint.MINUS_DASH, re.compile(r"−")),
    (Joint.SPACED_HYPHEN, re.compile(r"\s*-\s*")),
    (Joint.TO, re.compile(r"\s*to\s*")),
    (Joint.RATIO, re.compile(r"[/:]")),
    (Joint.DECIMAL_POINT, re.compile(r"\s*[·•]\s*")),
    (Joint.PLUS_MINUS, re.compile(r"\s*(?:±|\+/?-)\s*")),
    (
        Joint.INTERVAL,
        re.compile(
            r"\s*\(?\s*(?:CI|CrI|confidence\s+interval|credible\s+interval)\s*[,:=]?\s*\(?\s*",
            re.IGNORECASE,
        ),
    ),
)
# The joints of the one number a reader sees (a sentence's numbers, named one by one): a
# spaced hyphen may separate list items, "to" is a word of the sentence.
READER_JOINTS = frozenset(Joint) - {Joint.SPACED_HYPHEN, Joint.TO}
# The joints of a range whose ends a quantity spans ("5-10", "5 to 10"). A tight minus is
# not one: reading it as a range widens what a quantity agrees with.
RANGE_JOINTS = frozenset({Joint.DASH, Joint.SPACED_HYPHEN, Joint.TO})
# The joints between a range's or an interval's two ends, however a rule reads them.
_BOUNDED = RANGE_JOINTS | {Joint.MINUS_DASH}
# Tokens that may stand between the parts of one number ("·" is a token of its own).
_JOINERS = frozenset(
    {"·", "•", "±", "×", "+", "e", "e+", "ci", "cri", "confidence", "credible", "interval", "to"}
)
_TIMES = re.compile(r"\s*[×x·⋅]\s*")


def joint(gap: str, right: str = "") -> Joint | None:
    """What joins two numbers with `gap` (the text as given) between them; None if nothing.

    `right` is the norm of the number after the gap: a power of ten (`10^-3`) after a
    multiplication sign is the left number's exponent.
    """
    if right.startswith("10^") and _TIMES.fullmatch(gap):
        return Joint.TIMES_TEN
    return next((kind for kind, pattern in _JOINTS if pattern.fullmatch(gap)), None)


@dataclass(frozen=True, slots=True)
class Reading:
    """One number as a reader sees it: its parts and the joints between them.

    `label` names it: a lone number's norm, a joined one's text as written on one line.
    """

    text: str
    start: int
    end: int
    parts: tuple[Number, ...]
    joints: tuple[Joint, ...]

    @property
    def label(self) -> str:
        """The lone number's norm, or the joined number's text as written on one line."""
        return " ".join(self.text.split()) if self.joints else self.parts[0].norm

    @property
    def amount(self) -> Decimal | None:
        """The value a lone number or one in scientific notation states; None for others.

        `10^-3` is 0.001, `1.2 × 10^-3` is 0.0012, `1e-3` is 0.001; a marked label (`3-`),
        a range, a ratio or an interval states no one amount.
        """
        first = self.parts[0]
        if not self.joints:
            return _amount(first)
        if first.value is None or first.exponent is not None or first.marker:
            return None
        power = _amount(self.parts[1]) if self.joints == (Joint.TIMES_TEN,) else None
        if power is not None:
            return first.value * power
        if self.joints == (Joint.E_NOTATION,) and _integral(self.parts[1]):
            gap = self.text[first.end - self.start : self.parts[1].start - self.start]
            exponent = self.parts[1].value or Decimal(0)
            return first.value.scaleb(-exponent if "-" in gap.translate(SIGNS) else exponent)
        return None

    @property
    def bounds(self) -> tuple[Decimal, Decimal] | None:
        """The low and high ends of a range or interval ("5-10", "95% CI 0.8 to 1.2")."""
        ends = [p.value for p in self.parts[-2:]]
        if len(ends) < 2 or self.joints[-1] not in _BOUNDED or None in ends:
            return None
        low, high = sorted(value for value in ends if value is not None)
        return low, high


def _integral(part: Number) -> bool:
    """Whether a number is a plain whole number: no exponent, marker, fraction or percent."""
    value = part.value
    plain = not (part.exponent is not None or part.marker or part.percent)
    return plain and value is not None and value == value.to_integral_value()


def _amount(part: Number) -> Decimal | None:
    """A number token's amount: its value raised to its exponent; None for a label."""
    if part.value is None or part.marker:
        return None
    if part.exponent is None:
        return part.value
    if part.exponent != part.exponent.to_integral_value():
        return None  # a fractional power is no figure written to compare
    return part.value**part.exponent


def read(
    text: str, spans: Sequence[Spanned], *, joints: frozenset[Joint] = READER_JOINTS
) -> tuple[Reading, ...]:
    """The numbers of `text` (tokenised as `spans`) as a reader sees them, in order.

    With the reader's joints "10/66", "18·2", "95% CI 1.2–3.4", "1,234" and "−0.5" are each
    one number; pass `RANGE_JOINTS` to read ranges only.
    """
    out: list[Reading] = []
    previous: Spanned | None = None
    for token in spans:
        if not token.is_number:
            if token.norm not in _JOINERS:
                previous = None
            continue
        part = number(text, token)
        gap = text[previous.end : token.start] if previous is not None else None
        kind = joint(gap, token.norm) if gap is not None else None
        # The bounds of an interval may be written with "to" ("95% CI 0.8 to 1.2").
        bound = kind is Joint.TO and out and out[-1].joints[-1:] == (Joint.INTERVAL,)
        if out and (kind in joints or (bound and Joint.INTERVAL in joints)):
            last = out[-1]
            shown = text[last.start : token.end]
            joined = (*last.joints, kind) if kind is not None else last.joints
            out[-1] = Reading(shown, last.start, token.end, (*last.parts, part), joined)
        else:
            out.append(Reading(part.text, part.start, part.end, (part,), ()))
        previous = token
    return tuple(out)
