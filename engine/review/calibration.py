"""Calibrated contradiction confidence: how often a flagged contradiction of this kind is right.

The stance model's contradiction probability ranks sentences within one note well but
does not say how often a flagged pair is truly a contradiction: across a whole overlay
most of its confident flags were pairs that merely share words. `Calibration` is a small
logistic model fitted by `lab.train_stance` on overlay-shaped candidates of SciFact
train (each claim against the abstracts retrieval offers it, cited or not) to the gold
label "contradicts". Its output is a probability of being right, and the overlay's gate
keeps a contradiction only when that probability reaches `threshold`.

A `Family` is a kind of contradiction the logistic model under-rates out of domain: a
named alignment feature at or above a bar. Its bar is chosen on train folds of both tuning
sets (`lab.tune_stance --fit-families`) and its confidence is the family's pooled rate
of being right there, so a family edge is admitted on its own evidence, not the model's.

A `Band` is a range of that confidence with how often, out of fold, a flagged pair in it
was right, in domain (SciFact, folds grouped by abstract) and out (Climate-FEVER, folds by
claim text), measured by `lab.stance_bands`. The typer calls a pair `contradicts` only
in a band whose measured precision reaches `CONTRADICTS_PRECISION`; a lower band's pair
is a *possible tension*, kept for a reviewer with the band's precision beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.core.stance import ContradictionCue

_CUED = tuple(c for c in ContradictionCue if c is not ContradictionCue.NONE)
# The out-of-fold precision a band must reach for its pairs to be called contradictions.
CONTRADICTS_PRECISION = 0.70


@dataclass(frozen=True)
class Band:
    """A confidence range [low, high) and how often a flagged pair in it was right.

    `precision` and `count` pool both tuning sets out of fold; `in_domain` and
    `out_of_domain` are (right, flagged) on SciFact and on Climate-FEVER.
    """

    low: float
    high: float
    precision: float
    count: int
    in_domain: tuple[int, int] = (0, 0)
    out_of_domain: tuple[int, int] = (0, 0)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Band:
        return cls(
            low=float(raw["low"]),
            high=float(raw["high"]),
            precision=float(raw["precision"]),
            count=int(raw["count"]),
            in_domain=_pair(raw.get("in_domain")),
            out_of_domain=_pair(raw.get("out_of_domain")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "high": self.high,
            "precision": round(self.precision, 4),
            "count": self.count,
            "in_domain": list(self.in_domain),
            "out_of_domain": list(self.out_of_domain),
        }

    def holds(self, confidence: float) -> bool:
        return self.low <= confidence < self.high

    @property
    def contradicts(self) -> bool:
        """Whether pairs in this band are called contradictions (else possible tensions)."""
        return self.precision >= CONTRADICTS_PRECISION

    @property
    def in_ten(self) -> int:
        """The precision as "about N in 10", rounded down so it never flatters."""
        return math.floor(self.precision * 10 + 1e-9)

    def phrase(self) -> str:
        """The band for a reviewer: "about 7 in 10 at this confidence were right (n = 41)"."""
        return (
            f"about {self.in_ten} in 10 at this confidence were right "
            f"(out of fold, {self.count} flagged)"
        )


def _pair(raw: object) -> tuple[int, int]:
    if isinstance(raw, list | tuple) and len(raw) == 2:
        return int(raw[0]), int(raw[1])
    return 0, 0


@dataclass(frozen=True)
class Evidence:
    """What the calibration reads about one candidate contradiction."""

    forward: float  # stance model: practice contradicts the sentence
    backward: float  # stance model: the sentence contradicts the practice
    supports: float  # stance model: the note's best support for the practice
    features: dict[str, float]  # alignment features of the practice against the sentence
    cue: ContradictionCue
    hedged: bool


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1.0 - 1e-4)
    return math.log(p / (1.0 - p))


def calibration_features(evidence: Evidence) -> dict[str, float]:
    """The named inputs of the calibration for one candidate.

    Few and general on purpose: with the word-level and length features of the stance
    model as well, the calibration fitted SciFact better and transferred to Climate-FEVER
    worse (see `lab.train_stance`).
    """
    f = evidence.features
    out = {
        "logit_forward": _logit(evidence.forward),
        "logit_backward": _logit(evidence.backward),
        "logit_supports": _logit(evidence.supports),
        "cov_c": f["cov_c"],
        "cov_s": f["cov_s"],
        "fuzz": f["fuzz"],
        "hedged": float(evidence.hedged),
    }
    for cue in _CUED:
        out[f"cue_{cue.value}"] = float(evidence.cue is cue)
    return out


@dataclass(frozen=True)
class Family:
    """Contradictions whose `feature` reaches `bar`; `rate` is how often they were right."""

    name: str
    feature: str
    bar: float
    rate: float

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Family:
        return cls(
            name=str(raw["name"]),
            feature=str(raw["feature"]),
            bar=float(raw["bar"]),
            rate=float(raw["rate"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "feature": self.feature,
            "bar": self.bar,
            "rate": self.rate,
        }

    def admits(self, evidence: Evidence) -> bool:
        """Whether the candidate's feature reaches the bar and a named cue says what disagrees."""
        named = evidence.cue is not ContradictionCue.NONE
        return named and evidence.features.get(self.feature, 0.0) >= self.bar


@dataclass(frozen=True)
class Calibration:
    """Logistic weights over `calibration_features`, and the bar a contradiction must reach.

    A candidate is read at all only when both stance directions reach `candidate_floor`.
    """

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    candidate_floor: float
    families: tuple[Family, ...] = ()
    bands: tuple[Band, ...] = ()

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Calibration:
        return cls(
            features=tuple(raw["features"]),
            mean=np.asarray(raw["mean"], dtype=float),
            scale=np.asarray(raw["scale"], dtype=float),
            weights=np.asarray(raw["weights"], dtype=float),
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
            candidate_floor=float(raw["candidate_floor"]),
            families=tuple(Family.from_json(f) for f in raw.get("families", ())),
            bands=tuple(Band.from_json(b) for b in raw.get("bands", ())),
        )

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "features": list(self.features),
                "mean": [round(float(v), 6) for v in self.mean],
                "scale": [round(float(v), 6) for v in self.scale],
                "weights": [round(float(v), 6) for v in self.weights],
                "bias": round(self.bias, 6),
                "threshold": self.threshold,
                "candidate_floor": self.candidate_floor,
            }
            | ({"families": [f.to_json() for f in self.families]} if self.families else {})
            | ({"bands": [b.to_json() for b in self.bands]} if self.bands else {})
        )

    def band(self, confidence: float) -> Band | None:
        """The measured band a confidence falls in, or None (below every band, or unmeasured)."""
        return next((b for b in self.bands if b.holds(confidence)), None)

    def is_candidate(self, evidence: Evidence) -> bool:
        """Whether both directions of the stance model say enough to consider a contradiction."""
        return min(evidence.forward, evidence.backward) >= self.candidate_floor

    def family(self, evidence: Evidence) -> Family | None:
        """The first family that admits this candidate, or None."""
        if not self.is_candidate(evidence):
            return None
        return next((f for f in self.families if f.admits(evidence)), None)

    def probability(self, evidence: Evidence) -> float:
        """The calibrated probability that this candidate is a real contradiction."""
        named = calibration_features(evidence)
        x = (np.array([named[name] for name in self.features]) - self.mean) / self.scale
        return float(1.0 / (1.0 + math.exp(-(float(self.weights @ x) + self.bias))))
