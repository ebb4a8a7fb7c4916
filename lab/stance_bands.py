"""Measure how often a machine contradiction is right in each band of its confidence, out of fold.

`python -m lab.stance_bands [--write] [--climate-fever PATH]` reads every
overlay-shaped SciFact train pair (each claim against the abstracts retrieval offers it in the demo
workspace; `make demo`) and every Climate-FEVER claim/evidence pair once with the offline
stance model, then replays the contradiction calibration out of fold:

- SciFact: five folds, claims that cite one abstract sharing a fold; for each, the
  calibration is fitted on the other four and the denial family's bar and rate chosen on
  the other four of both sets;
- Climate-FEVER: five folds by the claim's words; the calibration (fitted on SciFact only)
  never saw it, and the family's bar and rate come from the other four folds.

Each pair the replay flags (a named cue and a calibrated probability of at least the lowest
band, or the family) falls in the band of its confidence. The report gives, per band,
flagged and right in domain, out of domain and pooled; a band is called `contradicts`
when its pooled precision reaches 0.70 (`engine.review.calibration.CONTRADICTS_PRECISION`)
and stays a possible tension otherwise. With `--write` the calibration fitted on every
SciFact pair, the family refitted on both sets and the bands are saved into the stance model.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

import numpy as np

from engine.core.stance import ContradictionCue
from engine.evaluation.folds import claim_folds
from engine.review import calibration, offline_stance
from engine.review.calibration import CONTRADICTS_PRECISION, Band, Family
from engine.review.sentence_reading import passage
from lab.fit_relevance import cited_docs
from lab.train_stance import _standardise, fit_binary
from lab.tune_stance import (
    CLIMATE_FEVER,
    FAMILY_BARS,
    ROOT,
    SCIFACT,
    Pair,
    _fold,
    climate_pairs,
    overlay_pairs,
    shipped_calibration,
)

FOLDS = 5
L2 = 3.0
EDGES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)
FAMILY = "denial"
FAMILY_MINIMUM = 5


@dataclass(frozen=True)
class Read:
    """One pair as the stance model reads it, once: what every replay needs."""

    domain: str
    fold: int
    right: bool  # gold: contradicts
    candidate: bool  # both directions reach the candidate floor
    cued: bool
    features: dict[str, float] | None  # calibration inputs of a candidate
    family: float  # the family feature of a candidate, else -1


def read(pairs: list[Pair], domain: str, folds: dict[str, int]) -> list[Read]:
    calibrated = shipped_calibration()
    out = []
    for pair in pairs:
        claim = passage(pair.claim)
        fold = folds.get(pair.claim_id, _fold(pair.claim))
        right = pair.gold == "contradicts"
        scored = offline_stance.score(pair.claim, pair.canon) if claim.content else ()
        if not scored or not scored[0].sentence.content:
            out.append(Read(domain, fold, right, False, False, None, -1.0))
            continue
        evidence = offline_stance.contradiction_candidate(claim, pair.claim, scored).evidence
        candidate = calibrated.is_candidate(evidence)
        out.append(
            Read(
                domain,
                fold,
                right,
                candidate,
                evidence.cue is not ContradictionCue.NONE,
                calibration.calibration_features(evidence) if candidate else None,
                evidence.features.get(FAMILY, 0.0) if candidate else -1.0,
            )
        )
    return out


@dataclass(frozen=True)
class Fitted:
    names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def probability(self, features: dict[str, float]) -> float:
        x = (np.array([features[n] for n in self.names]) - self.mean) / self.scale
        return float(1.0 / (1.0 + math.exp(-(float(self.weights @ x) + self.bias))))


def fit(reads: list[Read], names: tuple[str, ...]) -> Fitted:
    rows = [(r.right, r.features) for r in reads if r.features is not None]
    x = np.array([[features[n] for n in names] for _, features in rows])
    y = np.array([right for right, _ in rows], dtype=float)
    mean, scale = _standardise(x)
    w, b = fit_binary((x - mean) / scale, y, L2)
    return Fitted(names, mean, scale, w, b)


def confidence(r: Read, model: Fitted, family: Family | None) -> float | None:
    """The confidence the typer would flag the pair with, or None when it is not flagged."""
    if r.features is None:
        return None
    p = model.probability(r.features)
    if r.cued and p >= EDGES[0]:
        return p
    if family is not None and r.cued and r.family >= family.bar:
        return family.rate
    return None


def choose_family(reads: list[Read], model: Fitted) -> Family | None:
    """The lowest denial bar at which the pairs only the family admits were right at least
    `CONTRADICTS_PRECISION` of the time (at least `FAMILY_MINIMUM` of them); its rate is
    theirs less one standard error (Wilson), and its band then decides what it is called."""
    extra = [(r.family, r.right) for r in reads if confidence(r, model, None) is None and r.cued]
    for bar in FAMILY_BARS:
        admitted = [right for value, right in extra if value >= bar]
        n = len(admitted)
        if n >= FAMILY_MINIMUM and sum(admitted) / n >= CONTRADICTS_PRECISION:
            p = sum(admitted) / n
            centre, spread = p + 1 / (2 * n), math.sqrt(p * (1 - p) / n + 1 / (4 * n * n))
            return Family(FAMILY, FAMILY, bar, round((centre - spread) / (1 + 1 / n), 4))
    return None


def out_of_fold(reads: list[Read], names: tuple[str, ...]) -> list[tuple[Read, float]]:
    """Every flagged pair with its out-of-fold confidence."""
    scifact = [r for r in reads if r.domain == "scifact"]
    on_all = fit(scifact, names)
    flagged = []
    for k in range(FOLDS):
        model = fit([r for r in scifact if r.fold != k], names)
        family = choose_family([r for r in reads if r.fold != k], model)
        for r in reads:
            if r.fold != k:
                continue
            # Climate-FEVER was never fitted on: SciFact's calibration is out of domain for it.
            c = confidence(r, model if r.domain == "scifact" else on_all, family)
            if c is not None:
                flagged.append((r, c))
    return flagged


def bands(flagged: list[tuple[Read, float]]) -> list[Band]:
    out = []
    for low, high in pairwise(EDGES):
        inside = [r for r, c in flagged if low <= c < high]
        mine = [r.right for r in inside if r.domain == "scifact"]
        theirs = [r.right for r in inside if r.domain != "scifact"]
        n = len(inside)
        out.append(
            Band(
                low,
                high,
                round(sum(r.right for r in inside) / n, 4) if n else 0.0,
                n,
                (sum(mine), len(mine)),
                (sum(theirs), len(theirs)),
            )
        )
    return out


def report(found: list[Band]) -> list[str]:
    lines = [
        "band          SciFact (in domain)   Climate-FEVER (out)   pooled           called",
    ]
    for b in found:

        def cell(pair: tuple[int, int]) -> str:
            right, n = pair
            return f"{right:>3}/{n:<4} {right / n:.2f}" if n else f"{0:>3}/{0:<4}  -  "

        called = "contradicts" if b.contradicts and b.count else "possible tension"
        lines.append(
            f"[{b.low:.1f}, {min(b.high, 1.0):.1f})   {cell(b.in_domain):<20}  "
            f"{cell(b.out_of_domain):<20}  {cell((round(b.precision * b.count), b.count)):<15}  "
            f"{called}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m lab.stance_bands")
    parser.add_argument("--climate-fever", type=Path, default=CLIMATE_FEVER)
    parser.add_argument("--write", action="store_true", help="save calibration and bands")
    args = parser.parse_args()
    shaped = overlay_pairs()
    climate = climate_pairs(args.climate_fever)
    if not shaped or not climate:
        raise SystemExit("error: needs the demo workspace (make demo) and Climate-FEVER")
    folds = claim_folds(cited_docs(SCIFACT / "claims_train.jsonl"))
    reads = read(shaped, "scifact", folds) + read(climate, "climate-fever", {})
    names = shipped_calibration().features
    found = bands(out_of_fold(reads, names))
    print(f"{len(shaped)} SciFact overlay-shaped pairs, {len(climate)} Climate-FEVER pairs")
    print("out-of-fold precision of flagged contradictions by band of confidence:")
    for line in report(found):
        print("  " + line)
    if not args.write:
        return
    scifact = [r for r in reads if r.domain == "scifact"]
    final = fit(scifact, names)
    family = choose_family(reads, final)
    shipped = shipped_calibration()
    fitted = replace(
        shipped,
        mean=final.mean,
        scale=final.scale,
        weights=final.weights,
        bias=final.bias,
        threshold=EDGES[0],
        families=(family,) if family is not None else (),
        bands=tuple(found),
    )
    raw = json.loads(offline_stance.MODEL_PATH.read_text(encoding="utf-8"))
    raw["calibration"] = fitted.to_json()
    offline_stance.MODEL_PATH.write_text(
        json.dumps(raw, sort_keys=True, separators=(",", ":")) + "\n"
    )
    print(f"wrote {offline_stance.MODEL_PATH.relative_to(ROOT)} (family: {family})")


if __name__ == "__main__":
    main()
