"""A quoted sentence the trained reader reads as an answer in other words, with its measure.

Words alone cannot tell that "a 20% lower incidence of adenoma" answers "reduces the risk
of colorectal cancer"; the reader (a cross-encoder trained in `lab/`) can, some of the time.
When it does, the offline reasoner may answer with that sentence, and the router then keeps
the answer at most hedged (never green: a green rests only on confirmed text covering every
topic word) and says how often, held out, the reader was right at that confidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.errors import PayloadError


@dataclass(frozen=True)
class Band:
    """A band of the reader's confidence and its held-out record: `right` of `read` such
    answers on SciFact train claims cited an abstract the annotators tied to the claim."""

    low: float
    high: float
    right: int
    read: int

    @property
    def precision(self) -> float:
        return self.right / self.read if self.read else 0.0


@dataclass(frozen=True)
class Paraphrased:
    """The reader's confidence that the sentence answers the question, and its band.

    `evidence` is the reader's probability that the sentence speaks to the claim (either
    way); `band` is the confidence band it fell in, with that band's held-out record.
    """

    evidence: float
    band: Band

    @property
    def in_ten(self) -> int:
        """The band's precision as "about N in 10"."""
        return round(self.band.precision * 10)

    @property
    def words(self) -> str:
        """The reading and its measure, in words for a person."""
        return (
            f"the trained reader reads the cited sentence as an answer in other words "
            f"(confidence {self.evidence:.2f}); about {self.in_ten} in 10 at this confidence "
            f"were right ({self.band.right} of {self.band.read}, held out)"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "evidence": round(self.evidence, 4),
            "band": [self.band.low, self.band.high],
            "right": self.band.right,
            "read": self.band.read,
        }


def parse_paraphrased(raw: object) -> Paraphrased | None:
    """The payload's `paraphrased` field, or None; PayloadError names what is wrong."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise PayloadError("paraphrased must be null or an object")
    band = raw.get("band")
    right, read = raw.get("right"), raw.get("read")
    evidence = raw.get("evidence")
    if not (isinstance(band, list) and len(band) == 2 and all(_number(b) for b in band)):
        raise PayloadError("paraphrased.band must be two numbers")
    if not _number(evidence) or not 0.0 <= float(evidence) <= 1.0:  # type: ignore[arg-type]
        raise PayloadError("paraphrased.evidence must be a number from 0 to 1")
    if not (_count(right) and _count(read)) or right > read:  # type: ignore[operator]
        raise PayloadError("paraphrased.right and .read must be counts, right at most read")
    return Paraphrased(
        float(evidence),  # type: ignore[arg-type]
        Band(float(band[0]), float(band[1]), int(right), int(read)),  # type: ignore[arg-type]
    )


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
