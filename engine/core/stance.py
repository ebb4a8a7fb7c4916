"""The stance of an answer's evidence toward the claim a question states: a value of the answer.

Review computes it and navigation carries it on the answer, so the value lives in the core
both may import.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class StanceRelation(StrEnum):
    """Whether the evidence supports the claim, contradicts it, or says neither in so many words."""

    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    NEITHER = "neither"


@dataclass(frozen=True)
class Stance:
    """Whether the answer's evidence supports or contradicts the claim a question states.

    `cue` names what decided it in plain words; `evidence` is the cited sentence compared.
    Shown beside the router's verdict, never changing it.
    """

    relation: StanceRelation
    cue: str
    confidence: float
    evidence: str = ""
    # How often a stance like this one was right, out of fold ("about 7 in 10 at this
    # confidence were right …"), or "" when nothing was measured for it.
    measured: str = ""
    # A contradiction from a confidence band right too rarely out of fold to call it one.
    tension: bool = False

    def to_dict(self) -> dict:
        return {
            "relation": self.relation.value,
            "cue": self.cue,
            "confidence": round(self.confidence, 4),
            "evidence": self.evidence,
            "measured": self.measured,
            "tension": self.tension,
        }
