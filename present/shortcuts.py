"""The triage page's keyboard shortcuts: which key presses which button, and their list.

Streamlit presses a button for its own `shortcut` (a single key is ignored while typing in
a field, so a note can hold any letter); this module only chooses the keys, one place for
the buttons and the list shown on the page. No script of ours is involved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import TriageDecision
from present.sides import RESET_LABEL, TRIAGE_CHOICES

# Streamlit reserves C and R; punctuation is not supported.
_RESERVED = frozenset("CR")


@dataclass(frozen=True)
class Shortcut:
    """The key that presses the button keyed `widget`; `does` says what, for the list."""

    key: str
    widget: str
    does: str

    def __post_init__(self) -> None:
        if len(self.key) != 1 or not self.key.isalnum() or self.key.upper() in _RESERVED:
            raise ValueError(f"a shortcut is one letter or digit, not C or R: {self.key!r}")


def triage_shortcuts(
    next_key: str, previous_key: str, decision_key: Callable[[TriageDecision], str]
) -> tuple[Shortcut, ...]:
    """N next, P previous, 1–5 each side in the buttons' order, U reset to unreviewed.

    `decision_key(decision)` names the button of a decision (the page's `KEYS.triage`).
    """
    sides = tuple(
        Shortcut(str(n), decision_key(decision), label)
        for n, (label, decision) in enumerate(TRIAGE_CHOICES, start=1)
    )
    reset = Shortcut("U", decision_key(TriageDecision.RESET), RESET_LABEL.lower())
    return (
        Shortcut("N", next_key, "next pair to review"),
        Shortcut("P", previous_key, "previous pair"),
        *sides,
        reset,
    )


def shortcut_list(shortcuts: Sequence[Shortcut]) -> str:
    """The keys in one line for the page: "N next pair to review · P previous pair · 1 …"."""
    return " · ".join(f"{s.key} {s.does}" for s in shortcuts)
