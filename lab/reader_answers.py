"""What the reader adds to the answer path, out of fold: as a gate input and for paraphrases.

`python -m lab.reader_answers [--cache PATH]` reads the cases `lab.fit_relevance --cache`
kept (each SciFact train claim's best candidate, per cosine weight, in claim order) and the
fold models `make reader` leaves with `--keep-folds` (`build/reader/fold-K.onnx`, int8 as
shipped). Each claim's candidate sentence is read by the model trained without that claim's
fold, so every reader score here is held out. It prints, from one run:

- the curve (evidence recall at citation precision 0.80 / 0.85 / 0.90) for words, words +
  cosine (the shipped blend) and the blend with the reader's P(evidence) as one more input,
  over the candidates the gate may admit (every salient word named, standing out);
- the paraphrase route: among the candidates words leave (a salient word the note never
  uses, or a runner-up as close), those the reader reads as evidence at each bar, with how
  often the cited abstract was right, and the pooled figures when they answer hedged beside
  the gate's greens;
- the bands a paraphrase answer shows: per band of P(evidence), answered and right.
"""

from __future__ import annotations

import argparse
import json
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from engine.evaluation.folds import FOLDS
from engine.evaluation.navigation_scores import load_gold
from engine.models.onnx_files import session_options
from engine.models.onnx_files import tokenizer as read_tokenizer
from engine.models.reader import MAX_TOKENS, TOKENIZER, Reader
from engine.navigation.reasoners.offline import paraphrasable
from lab.fit_relevance import (
    BLEND,
    Case,
    _relevance,
    best_bar,
    curve_of,
    figures,
    out_of_fold_x,
)
from lab.reader_data import scifact_folds

READER_FINGERPRINT = Reader.fingerprint
ROOT = Path(__file__).resolve().parents[1]
FOLD_MODELS = ROOT / "build" / "reader"
CLAIMS = ROOT / "data" / "scifact" / "claims_train.jsonl"
BAND_EDGES = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01)
PARAPHRASE_FLOOR = 0.70  # the held-out precision a band needs before it may answer
MIN_READ = 10  # a band with fewer candidates says too little to answer on
OUT = ROOT / "engine" / "models" / "data" / "reader" / "paraphrase.json"


@dataclass(frozen=True)
class Scored:
    """A case with the held-out reader's reading of its candidate sentence."""

    case: Case
    evidence: float
    support: float
    contradict: float


def fold_readers() -> list[Reader]:
    import onnxruntime as ort

    data = TOKENIZER.read_bytes()
    out = []
    for k in range(FOLDS):
        path = FOLD_MODELS / f"fold-{k}.onnx"
        if not path.exists():
            raise SystemExit(f"error: {path} is missing (make reader READER_FLAGS=--keep-folds)")
        session = ort.InferenceSession(
            path.read_bytes(), session_options(ort), providers=["CPUExecutionProvider"]
        )
        out.append(Reader(session, read_tokenizer(data, MAX_TOKENS)))
    return out


def score_cases(cases: list[Case], claims: list[str], folds: list[int]) -> list[Scored]:
    readers = fold_readers()
    memo: dict[tuple[int, str, str], tuple[float, float, float]] = {}
    out = []
    for case, claim, fold in zip(cases, claims, folds, strict=True):
        if case.best is None:
            out.append(Scored(case, 0.0, 0.0, 0.0))
            continue
        key = (fold, claim, case.best.text)
        if key not in memo:
            (r,) = readers[fold].read(claim, [case.best.text])
            memo[key] = (r.evidence, r.support, r.contradict)
        e, s, c = memo[key]
        out.append(Scored(case, e, s, c))
    return out


def _x(pool: list[Scored], reader: bool) -> np.ndarray:
    rows = []
    for item in pool:
        assert item.case.best is not None
        named = _relevance(item.case.best).features()
        row = [named[n] for n in BLEND]
        if reader:
            row.append(item.evidence)
        rows.append(row)
    return np.array(rows, dtype=float)


def oof(pool: list[Scored], reader: bool) -> np.ndarray:
    """Each case's gate probability from a blend fitted on the other folds."""
    return out_of_fold_x([s.case for s in pool], _x(pool, reader))


def curve(all_cases: list[Scored], pool: list[Scored], p: np.ndarray) -> list[str]:
    points = curve_of([s.case for s in all_cases], [s.case for s in pool], p)
    return [f"P{level:.2f}: {r:.3f} ({a:.3f})" for level, (r, a) in points.items()]


def eligible(s: Scored) -> bool:
    return s.case.eligible and s.case.claim


def may_read(s: Scored) -> bool:
    """A candidate the product would show the reader: a finding, no number left unsaid."""
    best = s.case.best
    return best is not None and s.case.claim and paraphrasable(best)


def kind(s: Scored) -> str:
    best = s.case.best
    if best is not None and best.gaps:
        return "a word unused"
    return "a close runner-up" if not s.case.eligible else "the gate's no"


def band_rows(items: Iterable[Scored]) -> list[dict[str, float | int]]:
    items = list(items)
    out: list[dict[str, float | int]] = []
    for low, high in pairwise(BAND_EDGES):
        inside = [s for s in items if low <= s.evidence < high]
        out.append(
            {
                "low": low,
                "high": high,
                "read": len(inside),
                "right": sum(s.case.hit for s in inside),
                "false": sum(not s.case.has_evidence for s in inside),
            }
        )
    return out


def show_bands(rows: list[dict[str, float | int]]) -> list[str]:
    out = []
    for r in rows:
        share = f"{r['right'] / r['read']:.2f}" if r["read"] else "-"
        out.append(
            f"  [{r['low']:.2f}, {min(float(r['high']), 1.0):.2f}): {r['read']} read, "
            f"{r['right']} right ({share}), {r['false']} on no-evidence claims"
        )
    return out


def answering(rows: list[dict[str, float | int]], floor: float) -> list[tuple[float, float]]:
    """The bands whose precision reaches `floor` (with at least MIN_READ read)."""
    return [
        (float(r["low"]), float(r["high"]))
        for r in rows
        if int(r["read"]) >= MIN_READ and int(r["right"]) / int(r["read"]) >= floor
    ]


def inside(value: float, bands: list[tuple[float, float]]) -> bool:
    return any(low <= value < high for low, high in bands)


def greens(scored: list[Scored]) -> set[int]:
    """The claims the shipped blend answers green, each fold's gate and bar fitted on the others."""
    pool = [s for s in scored if eligible(s)]
    p = oof(pool, False)
    out: set[int] = set()
    for k in range(FOLDS):
        train_all = [s for s in scored if s.case.fold != k]
        train = [(s, q) for s, q in zip(pool, p, strict=True) if s.case.fold != k]
        bar = _bar(train_all, [s for s, _ in train], np.array([q for _, q in train]))
        out |= {id(s) for s, q in zip(pool, p, strict=True) if s.case.fold == k and q >= bar}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m lab.reader_answers")
    ap.add_argument("--cache", type=Path, default=ROOT / "build" / "relevance_cases.pkl")
    ap.add_argument("--weight", type=float, default=0.25, help="the cosine weight's cases")
    ap.add_argument("--floor", type=float, default=PARAPHRASE_FLOOR)
    ap.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = ap.parse_args()
    with args.cache.open("rb") as handle:
        _, by_weight, fingerprint = _Cases(handle).load()
    items = [json.loads(line) for line in CLAIMS.read_text().splitlines() if line.strip()]
    folds_by_id = scifact_folds(items)
    golds = load_gold(CLAIMS)
    folds = [folds_by_id[g.id] for g in golds]
    scored = score_cases(by_weight[args.weight], [g.claim for g in golds], folds)
    pool = [s for s in scored if eligible(s)]
    print(f"{len(scored)} claims, {len(pool)} candidates the gate may admit")
    print("curve: evidence recall (abstention) at citation precision, out-of-fold scores")
    for name, reader in (("words + cosine (blend)", False), ("blend + reader", True)):
        p = oof(pool, reader)
        print(f"  {name:<24} " + "  ".join(curve(scored, pool, p)))
    green = greens(scored)
    print("greens, the blend per fold: " + _show(scored, green))
    rest = [s for s in scored if id(s) not in green and may_read(s)]
    print(f"left by words and shown to the reader ({len(rest)}), by band of P(evidence):")
    rows = band_rows(rest)
    print("\n".join(show_bands(rows)))
    for name in ("a word unused", "a close runner-up", "the gate's no"):
        part = [s for s in rest if kind(s) == name]
        print(f" of which {name} ({len(part)}):")
        print("\n".join(show_bands(band_rows(part))))
    # Held out: each fold's answering bands chosen on the other folds.
    chosen: set[int] = set()
    for k in range(FOLDS):
        bands = answering(band_rows(s for s in rest if s.case.fold != k), args.floor)
        chosen |= {id(s) for s in rest if s.case.fold == k and inside(s.evidence, bands)}
    print(
        f"paraphrases in bands at precision >= {args.floor} on the other folds: "
        + _show(scored, chosen)
    )
    print("greens and paraphrases together: " + _show(scored, green | chosen))
    if args.write:
        payload = {
            "encoder": fingerprint,
            "reader": READER_FINGERPRINT,
            "min_precision": args.floor,
            "min_read": MIN_READ,
            "measured": "python -m lab.reader_answers --write: SciFact train claims, the "
            "candidates words alone leave, each read by the fold model that never saw it",
            "bands": [{k: r[k] for k in ("low", "high", "right", "read")} for r in rows],
        }
        OUT.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")
        print(f"wrote {OUT.relative_to(ROOT)}")


class _Cases(pickle.Unpickler):
    """The cache `python -m lab.fit_relevance --cache` wrote, whose classes it named __main__."""

    def find_class(self, module: str, name: str) -> Any:
        return super().find_class("lab.fit_relevance" if module == "__main__" else module, name)


def _bar(scored: list[Scored], pool: list[Scored], p: np.ndarray) -> float:
    return best_bar([s.case for s in scored], [s.case for s in pool], p)


def _show(scored: list[Scored], chosen: set[int]) -> str:
    f = figures((s.case, id(s) in chosen) for s in scored)
    return (
        f"recall {f['recall']:.3f} precision {f['precision']:.3f} abstain {f['abstain']:.3f} "
        f"({f['hits']} right of {f['answered']}, {f['false']} on no-evidence claims)"
    )


if __name__ == "__main__":
    main()
