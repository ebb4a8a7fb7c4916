"""Traceability cost in citation mode on about 1, 10 and 100 KB of prose."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from bench.timing import median, row, sample_ms
from engine.core.model import ProseCitation
from engine.core.traceability import check_traceability

_CLAIMS = {
    "c1": "Dose 5 mg cut pain by 30% in adults (Fig. 2); 10 mg had no effect.",
    "c2": "Smith et al. found that aspirin reduced fever by 1.5 °C, but ibuprofen did not.",
    "c3": "Mice given the high-fat diet gained 12 % more weight than controls.",
    "c4": "The effect held across 1,204 patients, i.e. in every age group.",
    "c5": "Serum levels rose whereas urinary levels fell after 3.5 weeks.",
    "c6": "Adverse events were rare (approx. 0.4%) and did not differ between arms.",
}
# Mostly whole claims, some single atoms, and one unlicensed sentence in ten.
_SENTENCES = (
    ("Dose 5 mg cut pain by 30% in adults (Fig. 2); 10 mg had no effect.", "c1"),
    ("Smith et al. found that aspirin reduced fever by 1.5 °C, but ibuprofen did not.", "c2"),
    ("Mice given the high-fat diet gained 12 % more weight than controls.", "c3"),
    ("The effect held across 1,204 patients, i.e. in every age group.", "c4"),
    ("Serum levels rose.", "c5"),
    ("Urinary levels fell after 3.5 weeks.", "c5"),
    ("Adverse events were rare (approx. 0.4%) and did not differ between arms.", "c6"),
    ("10 mg had no effect.", "c1"),
    ("Dose 10 mg cut pain by 30% in adults.", "c1"),
    ("Ibuprofen did not.", "c2"),
)
_SIZES_KB = ((1, 200), (10, 40), (100, 6))


def _prose(size_kb: int) -> tuple[str, list[ProseCitation]]:
    """Prose of about `size_kb` kilobytes with one citation per sentence."""
    parts: list[str] = []
    citations: list[ProseCitation] = []
    length = 0
    i = 0
    while length < size_kb * 1024:
        text, claim = _SENTENCES[i % len(_SENTENCES)]
        citations.append(ProseCitation(length, length + len(text), claim))
        parts.append(text)
        length += len(text) + 1
        i += 1
    return " ".join(parts), citations


def run() -> Iterator[dict[str, Any]]:
    per_kb: dict[int, float] = {}
    for size_kb, repeat in _SIZES_KB:
        prose, citations = _prose(size_kb)
        ms = median(
            sample_ms(
                partial(check_traceability, prose, _CLAIMS, citations=citations),
                repeat=repeat,
            )
        )
        per_kb[size_kb] = ms / size_kb
        yield row(f"citation mode, {size_kb} KB prose (median)", ms, "ms")
    ratio = per_kb[100] / per_kb[1]
    yield row(
        "cost per KB, 100 KB / 1 KB",
        ratio,
        "x",
        target="linear",
        meets=ratio <= 2.0,
    )
