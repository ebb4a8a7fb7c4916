"""Train the offline stance model and write `engine/data/stance_model.json`.

Run with `python -m tools.train_stance`. Deterministic: the same data gives the same file.
Only the `fit` half of SciFact train is used, to learn the weights and to pick the
thresholds; the `held` half and Climate-FEVER are left for `tools.tune_stance` to report.

Word rarities come from all SciFact abstracts (no labels involved). Each training example
is one (claim, abstract sentence) pair, read in both directions so that the model also
serves the reverse side of the symmetric gate: a gold rationale sentence carries its
claim's label, and every other sentence among the claim's best-aligned four is "none".
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np

from engine.core.text import tokens
from engine.review import alignment, passages, stance
from tools.tune_stance import Pair, corpus, scifact_pairs

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


def rarities() -> tuple[dict[str, float], float]:
    """Inverse document frequency of stems over the SciFact abstracts."""
    docs = corpus()
    df: Counter = Counter()
    for doc in docs.values():
        text = " ".join([doc["title"], *doc["sentences"]])
        df.update({passages.stem(t.norm) for t in tokens(text) if not t.is_number})
    n = len(docs)
    table = {s: round(math.log((n + 1) / (c + 1)), 3) for s, c in sorted(df.items()) if c >= MIN_DF}
    return table, round(math.log((n + 1) / (MIN_DF + 1)), 3)


def examples(pairs: list[Pair]) -> tuple[list[dict[str, float]], list[int]]:
    """Sentence-level feature dicts and labels (indices into `stance.CLASSES`)."""
    rarity = stance.model().rarity
    rows, labels = [], []
    for pair in pairs:
        claim = passages.passage(pair.claim)
        read = [passages.passage(s) for s in pair.sentences]
        ranked = sorted(range(len(read)), key=lambda i: -alignment.overlap(claim, read[i], rarity))
        for i in sorted(set(ranked[:4]) | set(pair.rationale)):
            label = stance.CLASSES.index(pair.gold) if i in pair.rationale else 2
            for a, b in ((claim, read[i]), (read[i], claim)):
                rows.append(alignment.pair_features(a, b, rarity))
                labels.append(label)
    return rows, labels


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by full-batch gradient descent, classes half-balanced."""
    k = len(stance.CLASSES)
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


def replay(pairs: list[Pair]) -> list[tuple[str, tuple, float, object]]:
    """Per pair: gold label, scored sentences, reverse stance of the likeliest contradiction."""
    out = []
    for pair in pairs:
        claim = passages.passage(pair.claim)
        scored = stance.score(pair.claim, pair.canon)
        against = max(scored[: stance._AGAINST], key=lambda s: s.contradicts)
        reverse = stance.offline_stance(against.sentence.text, pair.claim)
        out.append((pair.gold, scored, reverse, claim))
    return out


def confusion(cached, thresholds: dict[str, float]) -> Counter:
    """Gold against the gated typer's decision, replayed from cached scores."""
    c: Counter = Counter()
    for gold, scored, reverse, claim in cached:
        relation, _ = stance.decide(claim, scored, thresholds)
        label = {"supports": "supports", "contradicts": "contradicts"}.get(str(relation), "none")
        if label == "contradicts" and reverse < thresholds["floor"]:
            label = "none"
        c[gold, label] += 1
    return c


def precision_recall(c: Counter, label: str) -> tuple[float, float, int]:
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


def pick_thresholds(cached) -> dict[str, float]:
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


def main() -> None:
    idf, default_idf = rarities()
    raw: dict = {"idf": idf, "default_idf": default_idf}
    stance.install(stance.StanceModel.from_json(raw))
    pairs = scifact_pairs("fit")
    rows, labels = examples(pairs)
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
    stance.install(stance.StanceModel.from_json(raw))
    print(f"{len(rows)} examples; weights (supports, contradicts, none):")
    for name, row in zip(names, w.T, strict=True):
        print(f"  {name:<16} " + " ".join(f"{v:+.2f}" for v in row))
    raw["thresholds"] = pick_thresholds(replay(pairs))
    print("thresholds:", raw["thresholds"])
    stance.MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    stance.MODEL_PATH.write_text(json.dumps(raw, sort_keys=True, separators=(",", ":")) + "\n")
    stance.install(None)
    print("wrote", stance.MODEL_PATH.relative_to(stance.MODEL_PATH.parents[2]))


def _rounded(values) -> list[float]:
    return [round(float(v), 6) for v in values]


if __name__ == "__main__":
    main()
