"""Invisible format characters: bidi controls and zero-width characters, found and shown.

Text is compared as it is displayed, so these are never silently dropped: a caller refuses
a text holding a bidi control, or shows each as its code point for a reader.
"""

from __future__ import annotations

import re
import unicodedata

from engine.text.fold import SOFT_HYPHEN

# Bidirectional controls: invisible, they reorder what is displayed around them, so a text
# holding one can show "p > 0.001" or "21" where its characters say "<" and "12".
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def format_controls(text: str) -> tuple[str, ...]:
    """The invisible format characters of `text` (bidi controls, zero-width characters), in order.

    A soft hyphen is not one: it only marks where a word may break.
    """
    if text.isascii():
        return ()
    return tuple(c for c in text if c != SOFT_HYPHEN and unicodedata.category(c) == "Cf")


def bidi_controls(text: str) -> tuple[str, ...]:
    """The bidirectional controls of `text`, which change the order it is displayed in."""
    if text.isascii():
        return ()
    return tuple(_BIDI.findall(text))  # one scan in C, not a Python loop over every character


_BIDI = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")


def control_names(controls: tuple[str, ...]) -> str:
    """Name format characters for a person: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    named = dict.fromkeys(
        f"U+{ord(c):04X} {unicodedata.name(c, 'FORMAT CHARACTER')}" for c in controls
    )
    return ", ".join(named)


def reveal(text: str) -> str:
    """`text` with every invisible format character shown as its code, `⟦U+202E⟧`, for display."""
    if text.isascii() or not format_controls(text):
        return text
    return "".join(
        f"\u27e6U+{ord(c):04X}\u27e7" if c != SOFT_HYPHEN and unicodedata.category(c) == "Cf" else c
        for c in text
    )
