"""Figures in text: digits with their units and spelled magnitudes, read to compare.

Figures are digits (with `%`, `percent`, `bps`, `basis points`, or a magnitude word:
`2 million`) and spelled numbers that carry a magnitude word or a unit ("two million",
"twenty percent", "four hundred basis points"). A bare spelled cardinal ("one of our
decisions") is prose, not a figure. Each figure reads as a canonical (value, unit) pair.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from engine.text.fold import SIGNS
from engine.text.lexicon import NUMBER_WORDS
from engine.text.lines import one_line
from engine.text.tokens import SIGN_GAP, sign_start

_UNITS = (
    (r"%|percent\b|per\s+cent\b|pct\b", "%"),
    (r"percentage\s+points?\b|pp\b", "pp"),
    (r"basis\s+points?\b|bps?\b", "bp"),
)
_UNIT_RE = "|".join(f"(?P<u{n}>{pattern})" for n, (pattern, _) in enumerate(_UNITS))
_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}
_DIGIT_FIGURE = re.compile(
    rf"(?P<sign>(?<![\w.%])-{{1,3}}{SIGN_GAP})?"
    r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    rf"(?:\s*(?:{_UNIT_RE})|\s+(?P<scale>thousand|million|billion)\b)?",
    re.IGNORECASE,
)
_WORD = "(?:" + "|".join(sorted([*NUMBER_WORDS, *_SCALES], key=len, reverse=True)) + ")"
_SPELLED_FIGURE = re.compile(
    rf"\b(?P<run>(?:a\s+(?=(?:{'|'.join(_SCALES)})\b))?{_WORD}(?:(?:\s+and\s+|[\s-]+){_WORD})*)\b"
    rf"(?:\s*(?:{_UNIT_RE}))?",
    re.IGNORECASE,
)


def figures(text: str) -> set[tuple[str, str]]:
    """The (value, unit) figures of `text`, digits and spelled magnitudes alike."""
    found = {(value, unit) for value, unit, _ in _digit_figures(text)}
    found |= {(value, unit) for value, unit, _ in _spelled_figures(text)}
    return found


def untraced_figures(brief: str, material: str) -> list[str]:
    """The figures of `brief` (as written) that do not trace to `material`."""
    known = figures(material)
    values = {value for value, _ in known}
    spelled_material = one_line(material).lower()
    missing = []
    for value, unit, written in _digit_figures(brief):
        if (value, unit) not in known and not (unit == "" and value in values):
            missing.append(written)
    for value, unit, written in _spelled_figures(brief):
        if (value, unit) not in known and one_line(written).lower() not in spelled_material:
            missing.append(written)
    return missing


def without_spelled_figures(text: str) -> str:
    """`text` with every spelled figure blanked out."""
    return _SPELLED_FIGURE.sub(" ", text)


def _digit_figures(text: str) -> Iterable[tuple[str, str, str]]:
    # Every minus look-alike reads as a minus, so a sign added, dropped or written with a
    # look-alike never passes as the same figure.
    signed = text.translate(SIGNS)
    for match in _DIGIT_FIGURE.finditer(signed):
        try:
            value = Decimal(match.group("num").replace(",", ""))
        except InvalidOperation:
            continue
        # The one sign rule: spaced or glued, a dash is a sign unless a number precedes it
        # ("10 - 20" is a range).
        if match.group("sign") and sign_start(signed, match.start("num")) < match.start("num"):
            value = -value
        if match.group("scale"):
            value *= _SCALES[match.group("scale").lower()]
        yield _canonical(value), _unit(match), match.group(0)


def _spelled_figures(text: str) -> Iterable[tuple[str, str, str]]:
    for match in _SPELLED_FIGURE.finditer(text):
        words = re.findall(r"[a-z]+", match.group("run").lower())
        unit = _unit(match)
        if not any(word in NUMBER_WORDS or word == "a" for word in words):
            continue  # a lone "million" or "hundred" is the tail of a digit figure or prose
        if not unit and not any(word in _SCALES for word in words):
            continue  # a bare cardinal is ordinary prose
        total, current = 0, 0
        for word in words:
            if word == "a":
                current = 1
            elif word in NUMBER_WORDS:
                current += NUMBER_WORDS[word]
            elif word == "hundred":
                current = max(current, 1) * 100
            elif word in _SCALES:
                total += max(current, 1) * _SCALES[word]
                current = 0
        yield _canonical(Decimal(total + current)), unit, match.group(0).strip()


def _unit(match: re.Match[str]) -> str:
    for n, (_, unit) in enumerate(_UNITS):
        if match.group(f"u{n}"):
            return unit
    return ""


def _canonical(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
