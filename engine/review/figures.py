"""Figures in text: digits with their units and spelled magnitudes, read to compare.

Figures are digits (with `%`, `percent`, `bps`, `basis points`, or a magnitude word:
`2 million`) and spelled numbers that carry a magnitude word or a unit ("two million",
"twenty percent", "four hundred basis points"), as the number reader reads them
(`engine.text.units`). A bare spelled cardinal ("one of our decisions") is prose, not a
figure. Each figure reads as a canonical (value, unit) pair: its norm and unit.
"""

from __future__ import annotations

from engine.text.lines import one_line
from engine.text.units import digit_figures, spelled_figures
from engine.text.units import without_spelled_figures as without_spelled_figures


def figures(text: str) -> set[tuple[str, str]]:
    """The (value, unit) figures of `text`, digits and spelled magnitudes alike."""
    found = {(figure.norm, figure.unit) for figure in digit_figures(text)}
    return found | {(figure.norm, figure.unit) for figure in spelled_figures(text)}


def untraced_figures(brief: str, material: str) -> list[str]:
    """The figures of `brief` (as displayed) that do not trace to `material`."""
    known = figures(material)
    values = {value for value, _ in known}
    spelled_material = one_line(material).lower()
    missing = []
    for figure in digit_figures(brief):
        pair = (figure.norm, figure.unit)
        if pair not in known and not (figure.unit == "" and figure.norm in values):
            missing.append(figure.text)
    for figure in spelled_figures(brief):
        pair = (figure.norm, figure.unit)
        if pair not in known and one_line(figure.text).lower() not in spelled_material:
            missing.append(figure.text)
    return missing
