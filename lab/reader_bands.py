"""The reader's out-of-fold figures and the bands the product shows, from the lab's held-out scores.

`python -m lab.reader_bands [--oof PATH] [--write]` reads the scores
`lab/train_reader.py` wrote for every pair while its fold was held out (`build/reader/oof.jsonl`)
and prints:

- evidence: over every sentence of the abstracts a SciFact claim cites, recall of the gold
  rationales at citation precision 0.80 / 0.85 / 0.90 for words (the share of the claim's
  content words a sentence has), words + cosine (a logistic blend of that and MiniLM's cosine,
  fitted on the other four folds) and the reader (P(SUPPORT) + P(CONTRADICT)); and, at the
  threshold that reaches 0.80, the share of claims without evidence where nothing is cited;
- contradictions, per band of P(CONTRADICT): flagged and right on SciFact overlay-shaped pairs
  (a claim against each abstract it cites or BM25 offers it, the abstract's score its best
  sentence's) and on Climate-FEVER claim/evidence pairs. A band is called `contradicts`
  when its precision, the lower of the two domains' (each with at least `MIN_FLAGGED`
  flagged, else pooled), reaches 0.70, and every band above it is too.

With `--write` the bands and figures go to `engine/models/data/reader/bands.json`.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from engine.models.encoder import load_encoder
from engine.models.reader import DATA
from engine.review.calibration import CONTRADICTS_PRECISION
from engine.text.tokens import word_sequence
from lab.train_stance import _standardise, fit_binary

ROOT = Path(__file__).resolve().parents[1]
OOF = ROOT / "build" / "reader" / "oof.jsonl"
EDGES = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01)
TARGETS = (0.80, 0.85, 0.90)
MIN_FLAGGED = 10
STOP = frozenset(
    ("a", "an", "the", "of", "in", "on", "and", "or", "to", "for", "with", "by", "is", "are")
)


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def coverage(claim: str, sentence: str) -> float:
    """The share of the claim's content words the sentence uses (the words baseline)."""
    want = {w for w in word_sequence(claim) if w not in STOP}
    have = set(word_sequence(sentence))
    return len(want & have) / len(want) if want else 0.0


def recall_at(scores: np.ndarray, gold: np.ndarray, precision: float) -> tuple[float, float]:
    """The best recall at or above `precision`, and the lowest score that reaches it."""
    order = np.argsort(-scores, kind="stable")
    hits = np.cumsum(gold[order])
    prec = hits / np.arange(1, len(order) + 1)
    ok = np.nonzero(prec >= precision)[0]
    if not len(ok) or not gold.sum():
        return 0.0, float("inf")
    at = int(ok[np.argmax(hits[ok])])
    return float(hits[at] / gold.sum()), float(scores[order[at]])


def blended(feats: np.ndarray, gold: np.ndarray, folds: np.ndarray) -> np.ndarray:
    """Words + cosine: a logistic blend fitted on the other folds, scored on each fold."""
    out = np.zeros(len(gold))
    for fold in np.unique(folds):
        train, test = folds != fold, folds == fold
        mean, scale = _standardise(feats[train])
        w, b = fit_binary((feats[train] - mean) / scale, gold[train].astype(float), 1.0)
        out[test] = ((feats[test] - mean) / scale) @ w + b
    return out


def evidence_figures(data: list[dict[str, Any]]) -> dict[str, Any]:
    cited = [r for r in data if r["source"] == "scifact" and r["cited"]]
    gold = np.array([r["label"] != 0 for r in cited])
    folds = np.array([r["fold"] for r in cited])
    words = np.array([coverage(r["claim"], r["sentence"]) for r in cited])
    choice = load_encoder()
    scores = {"words": words, "reader": np.array([r["p"][1] + r["p"][2] for r in cited])}
    if choice.encoder is not None:
        texts = sorted({t for r in cited for t in (r["claim"], r["sentence"])})
        vec = dict(zip(texts, choice.encoder.encode(texts), strict=True))
        cos = np.array([float(vec[r["claim"]] @ vec[r["sentence"]]) for r in cited])
        scores["words+cosine"] = blended(np.stack([words, cos], axis=1), gold, folds)
    claims_without = {r["claim_id"] for r in cited} - {r["claim_id"] for r in cited if r["label"]}
    out: dict[str, Any] = {"pairs": len(cited), "rationales": int(gold.sum())}
    for name, score in scores.items():
        curve = {f"recall@{p:.2f}": round(recall_at(score, gold, p)[0], 4) for p in TARGETS}
        bar = recall_at(score, gold, TARGETS[0])[1]
        cites = {r["claim_id"] for r, s in zip(cited, score, strict=True) if s >= bar}
        curve["no_evidence_abstention@0.80"] = round(
            len(claims_without - cites) / max(1, len(claims_without)), 4
        )
        out[name] = curve
    return out


def contradiction_pairs(data: list[dict[str, Any]]) -> list[tuple[str, float, bool]]:
    """(domain, P(CONTRADICT), gold) per SciFact claim/abstract pair and Climate-FEVER pair."""
    docs: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    out = []
    for r in data:
        if r["source"] == "scifact":
            docs[(r["claim_id"], r["doc_id"])].append(r)
        elif r["source"] == "climate":
            out.append(("climate", float(r["p"][2]), r["label"] == 2))
    for sentences in docs.values():
        top = max(float(r["p"][2]) for r in sentences)
        out.append(("scifact", top, any(r["label"] == 2 for r in sentences)))
    return out


def bands(pairs: list[tuple[str, float, bool]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for low, high in pairwise(EDGES):
        inside = [(d, g) for d, p, g in pairs if low <= p < high]
        count = {
            d: (sum(g for x, g in inside if x == d), sum(x == d for x, _ in inside))
            for d in ("scifact", "climate")
        }
        pooled = sum(g for _, g in inside) / len(inside) if inside else 0.0
        each = [r / n for r, n in count.values() if n >= MIN_FLAGGED]
        precision = min(each) if len(each) == len(count) else pooled
        out.append(
            {
                "low": low,
                "high": high,
                "precision": round(precision, 4),
                "count": len(inside),
                "in_domain": list(count["scifact"]),
                "out_of_domain": list(count["climate"]),
            }
        )
    called = True
    for band in reversed(out):  # a band is called only when every band above it is too
        called = called and band["precision"] >= CONTRADICTS_PRECISION
        band["relation"] = "contradicts" if called else "tension"
    return out


def called_figures(
    pairs: list[tuple[str, float, bool]], table: list[dict[str, Any]]
) -> dict[str, Any]:
    bar = min((b["low"] for b in table if b["relation"] == "contradicts"), default=2.0)
    out: dict[str, Any] = {"contradicts_from": bar}
    for domain in ("scifact", "climate"):
        mine = [(p, g) for d, p, g in pairs if d == domain]
        said = [g for p, g in mine if p >= bar]
        truly = sum(g for _, g in mine)
        out[domain] = {
            "pairs": len(mine),
            "contradictions": truly,
            "predicted": len(said),
            "precision": round(sum(said) / len(said), 4) if said else None,
            "recall": round(sum(said) / truly, 4) if truly else None,
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oof", type=Path, default=OOF)
    ap.add_argument("--write", action="store_true", help="save into the shipped bands.json")
    args = ap.parse_args()
    data = rows(args.oof)
    pairs = contradiction_pairs(data)
    table = bands(pairs)
    report = {
        "evidence": evidence_figures(data),
        "contradicts": called_figures(pairs, table),
        "bands": table,
    }
    print(json.dumps(report, indent=1))
    if args.write:
        (DATA / "bands.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
