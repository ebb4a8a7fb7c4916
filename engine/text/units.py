"""Figures with their units and scales, in digits or spelled, on the number reader's rules.

A figure is digits (with `%`, `percent`, `pp`, `bps`, `basis points`, or a scale word:
`2 million`) or a spelled number that carries a scale or a unit ("two million", "twenty
percent"), read through the lexicon's number words and scales only. Signs follow the one
sign rule (`engine.text.numbers.sign_start`); each figure is a `Number` whose norm is its
canonical value (`canonical`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from engine.text.fold import SIGNS
from engine.text.lexicon import NUMBER_SCALES, NUMBER_WORDS
from engine.text.numbers import SIGN_GAP, Number, sign_start

_UNITS = (
    (r"%|percent\b|per\s+cent\b|pct\b", "%"),
    (r"percentage\s+points?\b|pp\b", "pp"),
    (r"basis\s+points?\b|bps?\b", "bp"),
)
_UNIT_RE = "|".join(f"(?P<u{n}>{pattern})" for n, (pattern, _) in enumerate(_UNITS))
_BIG = "|".join(scale for scale in NUMBER_SCALES if scale != "hundred")
_DIGIT_FIGURE = re.compile(
    rf"(?P<sign>(?<![\w.%])-{{1,3}}{SIGN_GAP})?"
    r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    rf"(?:\s*(?:{_UNIT_RE})|\s+(?P<scale>{_BIG})\b)?",
    re.IGNORECASE,
)
_WORD = "(?:" + "|".join(sorted([*NUMBER_WORDS, *NUMBER_SCALES], key=len, reverse=True)) + ")"
_SPELLED_FIGURE = re.compile(
    rf"\b(?P<run>(?:a\s+(?=(?:{'|'.join(NUMBER_SCALES)})\b))?{_WORD}(?:(?:\s+and\s+|[\s-]+){_WORD})*)\b"
    rf"(?:\s*(?:{_UNIT_RE}))?",
    re.IGNORECASE,
)


def digit_figures(text: str) -> Iterator[Number]:
    """The figures of `text` written in digits, with their unit or scale, signs as displayed.

    Every minus look-alike reads as a minus, so a sign added, dropped or written with a
    look-alike never passes as the same figure.
    """
    signed = text.translate(SIGNS)
    for match in _DIGIT_FIGURE.finditer(signed):
        try:
            value = Decimal(match.group("num").replace(",", ""))
        except InvalidOperation:
            continue
        start = match.start("num")
        if match.group("sign") and sign_start(signed, start) < start:
            start = match.start()
            value = -value
        if match.group("scale"):
            value *= NUMBER_SCALES[match.group("scale").lower()]
        shown = text[start : match.end()]
        sign = shown[0] if start < match.start("num") else ""
        unit = _unit(match)
        yield Number(
            shown, start, match.end(), canonical(value), sign, value, percent=unit == "%", unit=unit
        )


def spelled_figures(text: str) -> Iterator[Number]:
    """The figures of `text` spelled in words that carry a scale or a unit ("two million").

    A bare spelled cardinal ("one of our decisions") is prose, not a figure, and a lone
    scale word ("million") is the tail of a digit figure or prose.
    """
    for match in _SPELLED_FIGURE.finditer(text):
        words = re.findall(r"[a-z]+", match.group("run").lower())
        unit = _unit(match)
        if not any(word in NUMBER_WORDS or word == "a" for word in words):
            continue
        if not unit and not any(word in NUMBER_SCALES for word in words):
            continue
        total, current = 0, 0
        for word in words:
            if word == "a":
                current = 1
            elif word in NUMBER_WORDS:
                current += NUMBER_WORDS[word]
            elif word == "hundred":
                current = max(current, 1) * 100
            elif word in NUMBER_SCALES:
                total += max(current, 1) * NUMBER_SCALES[word]
                current = 0
        shown = match.group(0).strip()
        start = match.start() + match.group(0).index(shown)
        yield Number(
            shown,
            start,
            start + len(shown),
            canonical(Decimal(total + current)),
            "",
            Decimal(total + current),
            percent=unit == "%",
            unit=unit,
            spelled=True,
        )


def without_spelled_figures(text: str) -> str:
    """`text` with every spelled figure blanked out."""
    return _SPELLED_FIGURE.sub(" ", text)


def canonical(value: Decimal) -> str:
    """A figure's value written one way: `1000000`, `0.5`, `-3` (no exponent, no trailing 0)."""
    shown = format(value.normalize(), "f")
    return shown.rstrip("0").rstrip(".") if "." in shown else shown


def _unit(match: re.Match[str]) -> str:
    for n, (_, unit) in enumerate(_UNITS):
        if match.group(f"u{n}"):
            return unit
    return ""
