"""Train the offline stance model and write `engine/data/stance_model.json`.

Run with `python -m lab.train_stance` (or `--calibration-only` to refit only the
contradiction calibration over the weights already in the file). Deterministic: the same
data gives the same file. Only the `fit` half of SciFact train is used, to learn the
weights, to pick the thresholds and to fit the calibration (its strength and bar chosen by
cross-validation over folds of the fit half); the `held` half and Climate-FEVER are left
for `lab.tune_stance` to report.

The calibration learns from overlay-shaped pairs: each fit-half claim against the
abstracts that retrieval over the demo workspace (`make demo`) offers it, cited or not, as
the overlay does. An uncited abstract counts as not contradicting, which is what the
overlay's evaluation charges.

Word rarities come from all SciFact abstracts (no labels involved). Each training example
is one (claim, abstract sentence) pair, read in both directions so that the model also
serves the reverse side of the symmetric gate: a gold rationale sentence carries its
claim's label, and every other sentence among the claim's best-aligned four is "none".
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np

from engine.evaluation.folds import FOLDS, claim_folds, fold_of
from engine.evaluation.navigation_scores import load_gold
from engine.review import alignment, calibration, offline_stance, sentence_reading
from engine.text.stems import alignment_stem
from engine.text.tokens import tokens
from lab.tune_stance import ROOT, Pair, corpus, overlay_pairs, scifact_pairs

MIN_DF = 8  # rarer stems fall back to the default rarity, which keeps the table small
L2 = 1e-2
STEPS = 3000
RATE = 0.5
# Contradicts must keep this precision on the fit half at the one-sided 95% lower bound (Wilson
# score), so a setting that is lucky on a handful of predictions does not win.
TARGET_PRECISION = 0.7
RELATED = 0.3  # share of the claim's content a sentence needs to count as related
GRID = [round(0.3 + 0.02 * i, 2) for i in range(34)]
FLOORS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
DEMO = ROOT / "demo" / "scifact"
STRENGTHS = (1.0, 3.0, 10.0, 30.0)  # L2 penalties tried for the calibration
BARS = [round(0.3 + 0.05 * i, 2) for i in range(13)]
# The calibration's bar: cross-validated precision at least this, with at least this many
# flagged over the fit half, so a held-out set keeps above the target with room to spare.
CALIBRATED_PRECISION = 0.75
CALIBRATED_MINIMUM = 24
# Both stance directions must reach this for a pair to be a contradiction candidate at all;
# it is also the symmetric gate's floor for the offline typer, whose calibration then
# decides with both directions among its inputs.
CANDIDATE_FLOOR = 0.2


def rarities() -> tuple[dict[str, float], float]:
    """Inverse document frequency of stems over the SciFact abstracts."""
    docs = corpus()
    df: Counter[str] = Counter()
    for doc in docs.values():
        text = " ".join([doc["title"], *doc["sentences"]])
        df.update({alignment_stem(t.norm) for t in tokens(text) if not t.is_number})
    n = len(docs)
    table = {s: round(math.log((n + 1) / (c + 1)), 3) for s, c in sorted(df.items()) if c >= MIN_DF}
    return table, round(math.log((n + 1) / (MIN_DF + 1)), 3)


def examples(
    pairs: list[Pair], model: offline_stance.StanceModel
) -> tuple[list[dict[str, float]], list[int]]:
    """Sentence-level feature dicts and labels (indices into `offline_stance.CLASSES`)."""
    rarity = model.rarity
    rows, labels = [], []
    for pair in pairs:
        claim = sentence_reading.passage(pair.claim)
        read = [sentence_reading.passage(s) for s in pair.sentences]
        ranked = sorted(range(len(read)), key=lambda i: -alignment.overlap(claim, read[i], rarity))
        for i in sorted(set(ranked[:4]) | set(pair.rationale)):
            label = offline_stance.CLASSES.index(pair.gold) if i in pair.rationale else 2
            for a, b in ((claim, read[i]), (read[i], claim)):
                rows.append(alignment.pair_features(a, b, rarity))
                labels.append(label)
    return rows, labels


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by full-batch gradient descent, classes half-balanced."""
    k = len(offline_stance.CLASSES)
    counts = np.bincount(y, minlength=k)
    sample_weight = (len(y) / (k * counts))[y] ** 0.5
    onehot = np.eye(k)[y]
    w = np.zeros((k, x.shape[1]))
    b = np.zeros(k)
    total = sample_weight.sum()
    for _ in range(STEPS):
        z = x @ w.T + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) * sample_weight[:, None]
        w -= RATE * (g.T @ x / total + L2 * w)
        b -= RATE * g.sum(axis=0) / total
    return w, b


# Gold label, scored sentences, reverse stance of the likeliest contradiction, the claim read.
Replayed = tuple[str, tuple[offline_stance.Scored, ...], float, sentence_reading.Passage]
Confusion = Counter[tuple[str, str]]  # (gold, decided) -> pairs


def replay(pairs: list[Pair], model: offline_stance.StanceModel) -> list[Replayed]:
    """Per pair: gold label, scored sentences, reverse stance of the likeliest contradiction."""
    out: list[Replayed] = []
    for pair in pairs:
        claim = sentence_reading.passage(pair.claim)
        scored = offline_stance.score(pair.claim, pair.canon, model)
        against = max(scored[: offline_stance._AGAINST], key=lambda s: s.contradicts)
        reverse = offline_stance.offline_stance(against.sentence.text, pair.claim, model)
        out.append((pair.gold, scored, reverse, claim))
    return out


def confusion(cached: list[Replayed], thresholds: dict[str, float]) -> Confusion:
    """Gold against the gated typer's decision, replayed from cached scores."""
    c: Confusion = Counter()
    for gold, scored, reverse, claim in cached:
        relation, _ = offline_stance.decide(claim, scored, thresholds)
        label = {"supports": "supports", "contradicts": "contradicts"}.get(str(relation), "none")
        if label == "contradicts" and reverse < thresholds["floor"]:
            label = "none"
        c[gold, label] += 1
    return c


def precision_recall(c: Confusion, label: str) -> tuple[float, float, int]:
    tp = c[label, label]
    predicted = sum(v for (_, p), v in c.items() if p == label)
    actual = sum(v for (g, _), v in c.items() if g == label)
    return (tp / predicted if predicted else 0.0), (tp / actual if actual else 0.0), predicted


def wilson_lower(p: float, n: int, z: float = 1.645) -> float:
    """The Wilson score interval's lower end for a proportion `p` seen over `n` trials."""
    if n == 0:
        return 0.0
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def pick_thresholds(cached: list[Replayed]) -> dict[str, float]:
    """Supports: best F1. Contradicts and the gate's floor: best F0.5 at target precision.

    F0.5 weighs precision twice as much as recall; the precision that must reach the target
    is its one-sided 95% lower bound, which a handful of lucky predictions cannot satisfy.
    """
    th = {"contradicts": 2.0, "supports": 0.5, "related": RELATED, "floor": 0.0}

    def f_beta(label: str, setting: dict[str, float], beta: float) -> tuple[float, float]:
        p, r, n = precision_recall(confusion(cached, th | setting), label)
        b2 = beta * beta
        return ((1 + b2) * p * r / (b2 * p + r) if p + r else 0.0), wilson_lower(p, n)

    th["supports"] = max(GRID, key=lambda t: f_beta("supports", {"supports": t}, 1.0)[0])
    best = (-1.0, 0.0, 0.0)
    for floor in FLOORS:
        for t in GRID:
            f, lower = f_beta("contradicts", {"contradicts": t, "floor": floor}, 0.5)
            if lower >= TARGET_PRECISION and (f, t, floor) > best:
                best = (f, t, floor)
    th["contradicts"], th["floor"] = best[1] or GRID[-1], best[2]
    for floor in FLOORS:
        p, r, _ = precision_recall(confusion(cached, th | {"floor": floor}), "contradicts")
        print(f"  contradicts >= {th['contradicts']:.2f}, floor {floor:.1f}: P {p:.3f} R {r:.3f}")
    return th


def calibration_rows(
    pairs: list[Pair], model: offline_stance.StanceModel
) -> tuple[list[dict[str, float]], list[int], list[str]]:
    """Calibration features, gold (1: contradicts) and claim ids of the candidate pairs."""
    floor = CANDIDATE_FLOOR
    rows, gold, ids = [], [], []
    for pair in pairs:
        claim = sentence_reading.passage(pair.claim)
        if not claim.content:
            continue
        scored = offline_stance.score(pair.claim, pair.canon, model)
        if not scored[0].sentence.content:
            continue
        evidence = offline_stance.contradiction_candidate(claim, pair.claim, scored, model).evidence
        if min(evidence.forward, evidence.backward) < floor:
            continue
        rows.append(calibration.calibration_features(evidence))
        gold.append(int(pair.gold == "contradicts"))
        ids.append(pair.claim_id)
    return rows, gold, ids


def fit_binary(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Logistic regression by full-batch gradient descent (standardised inputs)."""
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        g = p - y
        w -= 0.3 * (x.T @ g / len(y) + l2 * w / len(y))
        b -= 0.3 * float(g.mean())
    return w, b


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    spread = x.std(axis=0)
    return x.mean(axis=0), np.where(spread > 1e-6, spread, 1.0)


@lru_cache(maxsize=1)
def train_folds() -> dict[str, int]:
    """The fold of every SciFact train claim, grouped by the abstracts it cites."""
    gold = load_gold(str(ROOT / "data" / "scifact" / "claims_train.jsonl"))
    return claim_folds({claim.id: claim.evidence for claim in gold})


def cross_validated(x: np.ndarray, y: np.ndarray, ids: list[str], l2: float) -> np.ndarray:
    """Out-of-fold probabilities, claims citing one abstract in one fold (see `folds`)."""
    grouped = train_folds()
    folds = np.array([grouped.get(i, fold_of(i)) for i in ids])
    out = np.zeros(len(y))
    for k in range(FOLDS):
        train, test = folds != k, folds == k
        mean, scale = _standardise(x[train])
        w, b = fit_binary((x[train] - mean) / scale, y[train], l2)
        out[test] = 1.0 / (1.0 + np.exp(-(((x[test] - mean) / scale) @ w + b)))
    return out


def fit_calibration(
    pairs: list[Pair], model: offline_stance.StanceModel
) -> calibration.Calibration:
    """Pick the calibration's strength and bar by cross-validation, then fit it on all pairs."""
    rows, gold, ids = calibration_rows(pairs, model)
    names = tuple(rows[0])
    x = np.array([[r[n] for n in names] for r in rows])
    y = np.array(gold, dtype=float)
    print(f"calibration: {len(y)} candidates, {int(y.sum())} contradict")
    best = (-1, 0.0, STRENGTHS[0], BARS[-1])
    for l2 in STRENGTHS:
        p = cross_validated(x, y, ids, l2)
        for bar in BARS:
            flagged = p >= bar
            n = int(flagged.sum())
            precision = float(y[flagged].mean()) if n else 0.0
            print(f"  L2 {l2:>4}: bar {bar:.2f} flags {n:>3}, CV precision {precision:.3f}")
            if n >= CALIBRATED_MINIMUM and precision >= CALIBRATED_PRECISION:
                best = max(best, (int(y[flagged].sum()), -bar, l2, bar))
    _, _, l2, bar = best
    out_of_fold = cross_validated(x, y, ids, l2)
    print("calibration, out of fold: precision by band of calibrated confidence")
    for low, high in zip(BARS[4::2], [*BARS[6::2], 1.01], strict=False):
        inside = (out_of_fold >= low) & (out_of_fold < high)
        n = int(inside.sum())
        share = f"{float(y[inside].mean()):.2f}" if n else "-"
        print(f"  [{low:.2f}, {min(high, 1.0):.2f}): {n:>3} candidates, precision {share}")
    mean, scale = _standardise(x)
    w, b = fit_binary((x - mean) / scale, y, l2)
    print(f"calibration: L2 {l2}, bar {bar:.2f}")
    return calibration.Calibration(names, mean, scale, w, b, bar, CANDIDATE_FLOOR)


def calibrate(raw: dict[str, Any]) -> dict[str, Any]:
    """`raw` with a calibration fitted on the overlay-shaped pairs of the fit half."""
    base = {k: v for k, v in raw.items() if k != "calibration"}
    pairs = overlay_pairs(DEMO)
    fitted = fit_calibration(pairs, offline_stance.StanceModel.from_json(base)).to_json()
    # The families are cross-validated on both tuning sets by tune_stance; keep them.
    families = raw.get("calibration", {}).get("families")
    if families:
        fitted["families"] = families
    return base | {
        "calibration": fitted,
        "thresholds": base["thresholds"] | {"floor": CANDIDATE_FLOOR},
    }


def main() -> None:
    if "--calibration-only" in sys.argv[1:]:
        _write(calibrate(json.loads(offline_stance.MODEL_PATH.read_text(encoding="utf-8"))))
        return
    idf, default_idf = rarities()
    raw: dict[str, Any] = {"idf": idf, "default_idf": default_idf}
    pairs = scifact_pairs("fit")
    rows, labels = examples(pairs, offline_stance.StanceModel.from_json(raw))
    names = tuple(rows[0])
    x = np.array([[r[n] for n in names] for r in rows])
    y = np.array(labels)
    mean, spread = x.mean(axis=0), x.std(axis=0)
    scale = np.where(spread > 1e-6, spread, 1.0)  # a feature constant in training stays inert
    w, b = fit((x - mean) / scale, y)
    raw |= {
        "features": list(names),
        "mean": _rounded(mean),
        "scale": _rounded(scale),
        "weights": [_rounded(row) for row in w],
        "bias": _rounded(b),
    }
    trained = offline_stance.StanceModel.from_json(raw)
    print(f"{len(rows)} examples; weights (supports, contradicts, none):")
    for name, row in zip(names, w.T, strict=True):
        print(f"  {name:<16} " + " ".join(f"{v:+.2f}" for v in row))
    raw["thresholds"] = pick_thresholds(replay(pairs, trained))
    print("thresholds:", raw["thresholds"])
    _write(calibrate(raw))


def _write(raw: dict[str, Any]) -> None:
    offline_stance.MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    offline_stance.MODEL_PATH.write_text(
        json.dumps(raw, sort_keys=True, separators=(",", ":")) + "\n"
    )
    print("wrote", offline_stance.MODEL_PATH.relative_to(offline_stance.MODEL_PATH.parents[3]))


def _rounded(values: Iterable[float]) -> list[float]:
    return [round(float(v), 6) for v in values]


if __name__ == "__main__":
    main()
