"""The relevance gate: whether the best candidate is evidence for the claim, or only its topic.

Words alone cannot tell an abstract that tests a claim from one on the same topic (SciFact's
claims without evidence cite abstracts on the very same subject). With an encoder, the gate
blends the lexical measurements the offline reasoner already makes (how much of the
question the note and the sentence cover, how far the note stands out from the runner-up)
with meaning (how close the note's nearest sentence, its title and the restated sentence
come to the question, and how far the note's nearest sentence stands out from the
runner-up's) and with how many salient terms the claim names, in a logistic model fitted
out of fold on SciFact train by `python -m lab.fit_relevance`, folds grouped
by abstract, and checked on Climate-FEVER.

The gate only chooses whether the reasoner restates or gives up. A salient term the note
never mentions, or a sentence that only says what a study set out to do, still gives up
whatever the gate says, and what it restates is licensed (or not) by the router on the
exact confirmed text. Its vectors are sealed (`engine.workspace.embeddings`), so a tampered
file cannot move it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

GATE_PATH = Path(__file__).parent / "data" / "relevance.json"
# Margins are clipped so a note with no rival (margin 1) does not dominate the blend.
MARGIN_CLIP = 0.3
# SciFact train claims name one to three salient terms; a question naming more (a pasted
# quote) is read as naming three, so the count never outweighs the cosines it was fitted with.
SALIENT_CLIP = 3


@dataclass(frozen=True)
class Relevance:
    """What the gate reads of one candidate: lexical coverage and nearest-sentence meaning.

    `coverage` is the share of the question's rarity-weighted terms the note mentions,
    `sentence` the restated sentence's (with its title), `margin` how much better the note
    covers it than the runner-up; `cosine` is the note's nearest sentence to the question,
    `sentence_cosine` the restated sentence's, `cosine_margin` how much nearer the note's
    nearest sentence is than the runner-up note's; `title_cosine` is the note's title's,
    and `salient` counts the question's salient terms (a claim naming many specific things
    is more often tested by the one abstract that names them all).
    """

    coverage: float
    sentence: float
    margin: float
    cosine: float
    sentence_cosine: float
    cosine_margin: float
    title_cosine: float = 0.0
    salient: int = 0

    def features(self) -> dict[str, float]:
        """The named inputs of the gate."""
        return {
            "coverage": self.coverage,
            "sentence": self.sentence,
            "margin": _clip(self.margin),
            "cosine": self.cosine,
            "sentence_cosine": self.sentence_cosine,
            "cosine_margin": _clip(self.cosine_margin),
            "title_cosine": self.title_cosine,
            "salient": float(min(self.salient, SALIENT_CLIP)),
        }


def _clip(value: float) -> float:
    return max(-MARGIN_CLIP, min(MARGIN_CLIP, value))


@dataclass(frozen=True)
class RelevanceGate:
    """Logistic weights over `Relevance.features` and the probability a candidate must reach.

    `encoder` names the fingerprint the weights were fitted with: cosines of another model
    mean something else, so the gate applies only to vectors of that encoder.
    """

    encoder: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float
    # How much a sentence's cosine adds to its score when the reasoner picks what to restate.
    cosine_weight: float = 0.0

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> RelevanceGate:
        return cls(
            encoder=str(raw["encoder"]),
            features=tuple(str(f) for f in raw["features"]),
            mean=tuple(float(v) for v in raw["mean"]),
            scale=tuple(float(v) for v in raw["scale"]),
            weights=tuple(float(v) for v in raw["weights"]),
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
            cosine_weight=float(raw.get("cosine_weight", 0.0)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "encoder": self.encoder,
            "features": list(self.features),
            "mean": [round(v, 6) for v in self.mean],
            "scale": [round(v, 6) for v in self.scale],
            "weights": [round(v, 6) for v in self.weights],
            "bias": round(self.bias, 6),
            "threshold": round(self.threshold, 6),
            "cosine_weight": self.cosine_weight,
        }

    def probability(self, relevance: Relevance) -> float:
        """How likely, on SciFact train out of fold, a candidate like this one was evidence."""
        named = relevance.features()
        z = self.bias + sum(
            w * (named[f] - m) / s
            for f, m, s, w in zip(self.features, self.mean, self.scale, self.weights, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-z))

    def admits(self, relevance: Relevance) -> bool:
        """Whether the candidate is likely enough to be evidence to restate."""
        return round(self.probability(relevance), 9) >= self.threshold

    def applies_to(self, fingerprint: str) -> bool:
        """Whether the gate was fitted on vectors of the encoder with this fingerprint."""
        return fingerprint == self.encoder


@lru_cache(maxsize=1)
def shipped_gate() -> RelevanceGate | None:
    """The gate fitted by `lab.fit_relevance`, or None when the file is absent."""
    try:
        return RelevanceGate.from_json(json.loads(GATE_PATH.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
