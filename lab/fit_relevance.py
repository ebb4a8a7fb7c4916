"""Fit the offline reasoner's relevance gate on SciFact train, out of fold, and report it.

`python -m lab.fit_relevance [--write] [--climate-fever PATH]` navigates every SciFact
train claim over the demo workspace twice, once on words alone (no encoder) and once with
hybrid retrieval and meaning, keeps what the reasoner saw when it answered, and replays
the answer choice:

- **before**: words alone, the shipped coverage thresholds, and those thresholds picked per
  fold on the other folds (as `lab.tune_offline` does);
- **after**: the relevance gate (`engine/navigation/relevance.py`), a logistic blend of the
  lexical measurements with nearest-sentence cosines; for each held-out fold, its
  weights, its bar and the sentence choice's weight on meaning are fitted and picked on the
  other folds only (the bar by an inner cross-validation over them), so the pooled figures
  are held out;
- the curve: evidence recall at citation precision 0.80, 0.85 and 0.90 of out-of-fold gate
  scores, for the blend, for the earlier six-input blend (without the title's cosine and
  the count of salient terms) and for a gate over the lexical measurements alone, from one
  run.

Folds: five, claims that cite one abstract (directly or along a chain) share a fold.
With `--write`, the gate fitted on every claim, with the bar its out-of-fold scores call
for, is saved to `engine/navigation/data/relevance.json`. With `--climate-fever` it also
builds a throwaway workspace (under a temporary folder, never in the product) from
Climate-FEVER's evidence sentences, one note per Wikipedia article, and asks its claims
with words alone and with the shipped gate: an out-of-domain check, nothing fitted there.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from engine.api import ask, open_workspace
from engine.core.environment import ENV_ENCODER
from engine.evaluation.folds import FOLDS, claim_folds
from engine.evaluation.navigation_scores import GoldClaim, load_gold, run_claims, score
from engine.navigation.coverage import claim_shaped
from engine.navigation.navigator import Action, NavState
from engine.navigation.reasoners.candidates import (
    Candidate,
    OfflineConfig,
    best_candidate,
    stands_out,
    strong,
)
from engine.navigation.reasoners.offline import OfflineReasoner
from engine.navigation.relevance import GATE_PATH, Relevance, RelevanceGate
from engine.workspace.notes import Store
from engine.workspace.passage_notes import PASSAGE_BOX
from lab.climate import climate_rows
from lab.train_stance import _standardise, fit_binary

ROOT = Path(__file__).resolve().parents[1]
L2 = 1.0
FLOOR = 0.80  # citation precision and no-evidence abstention asked of every setting
LEVELS = (0.80, 0.85, 0.90)
COSINE_WEIGHTS = (0.0, 0.25, 0.5, 1.0)
# The gate's inputs before the title's cosine and the count of salient terms were added;
# fitted and reported beside the shipped blend, from the same run.
EARLIER = ("coverage", "sentence", "margin", "cosine", "sentence_cosine", "cosine_margin")
BLEND = (*EARLIER, "title_cosine", "salient")
LEXICAL = ("coverage", "sentence", "margin")
# The coverage thresholds tried per fold for the lexical baseline (as in tune_offline).
GRID = [
    (c, m, s) for c in (0.5, 0.6, 0.7) for m in (0.0, 0.04, 0.06, 0.08, 0.1) for s in (0.2, 0.3)
]


class _Recorder(OfflineReasoner):
    """The shipped reasoner with a gate that admits everything, keeping the state it saw."""

    def __init__(self, config: OfflineConfig):
        super().__init__(config)
        self.state: NavState | None = None

    def answer(self, state: NavState) -> Action:
        self.state = state
        return super().answer(state)


def probe(fingerprint: str) -> RelevanceGate:
    """A gate that admits every candidate: candidates then carry their measurements."""
    zeros = tuple(0.0 for _ in BLEND)
    return RelevanceGate(fingerprint, BLEND, zeros, tuple(1.0 for _ in BLEND), zeros, 0.0, 0.0)


@dataclass(frozen=True)
class Seen:
    """One claim: its gold abstracts, its fold, and the state the reasoner answered from."""

    gold: GoldClaim
    fold: int
    state: NavState | None


def cited_docs(path: Path) -> dict[str, list[str]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            docs = [str(d) for d in item.get("cited_doc_ids", [])] + list(item.get("evidence", {}))
            out[str(item["id"])] = docs
    return out


def record(workspace: Path, claims: Path, *, meaning: bool) -> list[Seen]:
    """Every claim with the state the reasoner answered it from, with or without meaning."""
    golds = load_gold(claims)
    folds = claim_folds(cited_docs(claims))
    with _encoder(meaning):
        opened = open_workspace(workspace)
    try:
        semantic = opened.meaning.semantic
        if meaning and semantic is None:
            raise SystemExit(f"error: no encoder: {opened.meaning_notice}")
        config = OfflineConfig(ground_practice=False)
        if semantic is not None:
            config = replace(config, gate=probe(semantic.encoder.fingerprint))
        out = []
        for gold in golds:
            recorder = _Recorder(config)
            ask(opened, gold.claim, reasoner=recorder)
            out.append(Seen(gold, folds[gold.id], recorder.state))
        return out
    finally:
        opened.close()


class _encoder:
    """Run with the encoder on or off ($SYNAPSE_ENCODER), restoring the setting after."""

    def __init__(self, on: bool):
        self.on, self.saved = on, os.environ.get(ENV_ENCODER)

    def __enter__(self) -> None:
        if not self.on:
            os.environ[ENV_ENCODER] = "none"

    def __exit__(self, *exc: object) -> None:
        if self.saved is None:
            os.environ.pop(ENV_ENCODER, None)
        else:
            os.environ[ENV_ENCODER] = self.saved


@dataclass(frozen=True)
class Case:
    """One claim's best candidate under one sentence choice, as the gate would see it."""

    fold: int
    has_evidence: bool
    hit: bool
    claim: bool
    best: Candidate | None

    @property
    def eligible(self) -> bool:
        """Names every salient term, is no aim and stands out: the gate may admit it."""
        best = self.best
        config = OfflineConfig(ground_practice=False)
        return best is not None and not best.gaps and not best.asks and stands_out(best, config)


def cases(seen: list[Seen], weight: float, gate: RelevanceGate | None) -> list[Case]:
    """Each claim's best candidate when a sentence's cosine weighs `weight` in its choice."""
    config = OfflineConfig(ground_practice=False, gate=gate, cosine_weight=weight)
    out = []
    for item in seen:
        state = item.state
        best = best_candidate(state, config) if state is not None else None
        found = _abstract(state, best.address) if state is not None and best is not None else None
        hit = found is not None and found in item.gold.evidence
        claim = claim_shaped(item.gold.claim)
        out.append(Case(item.fold, bool(item.gold.evidence), hit, claim, best))
    return out


def _abstract(state: NavState, address: str) -> str | None:
    note = state.workspace.note(address)
    if note is None:
        return None
    if note.store is Store.CANON and note.source == PASSAGE_BOX:
        return note.citekey
    return note.id


def figures(picked: Iterable[tuple[Case, bool]]) -> dict[str, float]:
    """Recall, precision and no-evidence abstention of the cases answered (`True`)."""
    picked = list(picked)
    with_evidence = sum(c.has_evidence for c, _ in picked)
    without = len(picked) - with_evidence
    answered = [c for c, yes in picked if yes]
    hits = sum(c.hit for c in answered)
    false = sum(not c.has_evidence for c in answered)
    return {
        "recall": hits / with_evidence if with_evidence else 0.0,
        "precision": hits / len(answered) if answered else 0.0,
        "abstain": 1 - false / without if without else 1.0,
        "hits": hits,
        "answered": len(answered),
        "false": false,
    }


def _x(pool: list[Case], names: tuple[str, ...]) -> np.ndarray:
    rows = []
    for case in pool:
        if case.best is None:
            raise ValueError("only a case with a candidate is measured")
        features = _relevance(case.best).features()
        rows.append([features[n] for n in names])
    return np.array(rows, dtype=float)


def _relevance(best: Candidate) -> Relevance:
    """The candidate's measurements; on words alone the cosines are absent (and unused)."""
    if best.relevance is not None:
        return best.relevance
    return Relevance(best.note_coverage, best.sentence_coverage, best.margin, 0.0, 0.0, 0.0)


def fitted(
    pool: list[Case], names: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    x = _x(pool, names)
    y = np.array([c.hit for c in pool], dtype=float)
    mean, scale = _standardise(x)
    w, b = fit_binary((x - mean) / scale, y, L2)
    return mean, scale, w, b


def out_of_fold(pool: list[Case], names: tuple[str, ...]) -> np.ndarray:
    """Each eligible case's probability from a gate fitted on the other folds."""
    return out_of_fold_x(pool, _x(pool, names))


def out_of_fold_x(pool: list[Case], x: np.ndarray) -> np.ndarray:
    """`out_of_fold` over given inputs, one row a case (a lab may add inputs of its own)."""
    p = np.zeros(len(pool))
    folds = np.array([c.fold for c in pool])
    y = np.array([c.hit for c in pool], dtype=float)
    for k in sorted(set(folds)):
        train = folds != k
        mean, scale = _standardise(x[train])
        w, b = fit_binary((x[train] - mean) / scale, y[train], L2)
        p[~train] = 1 / (1 + np.exp(-(((x[~train] - mean) / scale) @ w + b)))
    return p


def best_bar(all_cases: list[Case], pool: list[Case], p: np.ndarray) -> float:
    """The bar with the best recall among those keeping precision and abstention at FLOOR."""
    scored = dict(zip(map(id, pool), p, strict=True))
    best = (-1.0, 1.01)
    for bar in sorted(set(np.round(p, 6)), reverse=True):
        f = figures((c, id(c) in scored and scored[id(c)] >= bar) for c in all_cases)
        if min(f["precision"], f["abstain"]) >= FLOOR and f["recall"] > best[0]:
            best = (f["recall"], float(bar))
    return best[1]


def gate_cv(
    by_weight: dict[float, list[Case]], names: tuple[str, ...]
) -> tuple[dict[str, float], list[tuple[int, float, float]]]:
    """Held-out figures, each fold's weight, gate and bar chosen on the other folds."""
    picked: list[tuple[Case, bool]] = []
    chosen: list[tuple[int, float, float]] = []
    for k in range(FOLDS):
        options = []
        for weight, all_cases in by_weight.items():
            train = [c for c in all_cases if c.fold != k]
            pool = [c for c in train if c.eligible and c.claim]
            bar = best_bar(train, pool, out_of_fold(pool, names))
            answered = {
                id(c) for c, p in zip(pool, out_of_fold(pool, names), strict=True) if p >= bar
            }
            inner = figures((c, id(c) in answered) for c in train)
            options.append((inner["recall"], -weight, weight, bar))
        _, _, weight, bar = max(options)
        all_cases = by_weight[weight]
        train = [c for c in all_cases if c.fold != k and c.eligible and c.claim]
        mean, scale, w, b = fitted(train, names)
        for c in all_cases:
            if c.fold != k:
                continue
            yes = False
            if c.eligible and c.claim:
                x = (_x([c], names)[0] - mean) / scale
                yes = 1 / (1 + np.exp(-(x @ w + b))) >= bar
            picked.append((c, yes))
        chosen.append((k, weight, round(bar, 3)))
    return figures(picked), chosen


def curve(all_cases: list[Case], names: tuple[str, ...]) -> dict[float, tuple[float, float]]:
    """Recall (and abstention) at each precision level, over pooled out-of-fold scores."""
    pool = [c for c in all_cases if c.eligible and c.claim]
    return curve_of(all_cases, pool, out_of_fold(pool, names))


def curve_of(
    all_cases: list[Case], pool: list[Case], p: np.ndarray
) -> dict[float, tuple[float, float]]:
    """`curve` for given scores `p` of the cases in `pool`."""
    order = np.argsort(-p, kind="stable")
    with_evidence = sum(c.has_evidence for c in all_cases)
    without = len(all_cases) - with_evidence
    out = {}
    for level in LEVELS:
        best = (0.0, 1.0)
        hits = false = 0
        for n, i in enumerate(order, start=1):
            hits += pool[i].hit
            false += not pool[i].has_evidence
            if hits / n >= level and hits / with_evidence > best[0]:
                best = (hits / with_evidence, 1 - false / without)
        out[level] = best
    return out


def lexical_cv(base: list[Case]) -> dict[str, float]:
    """Words alone, the coverage thresholds picked per fold on the other folds."""
    picked = []
    for k in range(FOLDS):
        train = [c for c in base if c.fold != k]
        options = []
        for gate in GRID:
            f = figures((c, _lexical(c, gate)) for c in train)
            sound = min(f["precision"], f["abstain"]) >= FLOOR
            options.append((sound, f["recall"], f["precision"], gate))
        gate = max(options)[3]
        picked += [(c, _lexical(c, gate)) for c in base if c.fold == k]
    return figures(picked)


def _lexical(case: Case, gate: tuple[float, float, float]) -> bool:
    coverage, margin, sentence = gate
    config = OfflineConfig(
        ground_practice=False,
        min_coverage=coverage,
        min_margin=margin,
        min_sentence=sentence,
        relevance=False,
    )
    return case.best is not None and strong(case.best, config, claim=case.claim)


def _show(name: str, f: Mapping[str, float]) -> str:
    return (
        f"{name}: recall {f['recall']:.3f}  precision {f['precision']:.3f}  "
        f"abstain {f['abstain']:.3f}  ({f['hits']} right of {f['answered']} answered, "
        f"{f['false']} on no-evidence claims)"
    )


def final_gate(by_weight: dict[float, list[Case]], fingerprint: str) -> tuple[RelevanceGate, float]:
    """The gate fitted on every claim, with the weight and bar out-of-fold scores call for."""
    options = []
    for weight, all_cases in by_weight.items():
        pool = [c for c in all_cases if c.eligible and c.claim]
        bar = best_bar(all_cases, pool, out_of_fold(pool, BLEND))
        answered = {id(c) for c, p in zip(pool, out_of_fold(pool, BLEND), strict=True) if p >= bar}
        f = figures((c, id(c) in answered) for c in all_cases)
        options.append((f["recall"], -weight, weight, bar))
    _, _, weight, bar = max(options)
    pool = [c for c in by_weight[weight] if c.eligible and c.claim]
    mean, scale, w, b = fitted(pool, BLEND)
    gate = RelevanceGate(
        fingerprint,
        BLEND,
        tuple(float(v) for v in mean),
        tuple(float(v) for v in scale),
        tuple(float(v) for v in w),
        float(b),
        round(bar, 6),
    )
    return gate, weight


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m lab.fit_relevance")
    parser.add_argument("--workspace", type=Path, default=ROOT / "demo" / "scifact")
    parser.add_argument("--claims", type=Path, default=ROOT / "data/scifact/claims_train.jsonl")
    parser.add_argument("--write", action="store_true", help="save the gate fitted on all claims")
    parser.add_argument("--climate-fever", type=Path, default=None, help="check out of domain")
    parser.add_argument("--cache", type=Path, default=None, help="keep the replayed cases here")
    args = parser.parse_args()
    if args.cache is not None and args.cache.exists():
        with args.cache.open("rb") as handle:
            words, by_weight, fingerprint = pickle.load(handle)
    else:
        lexical = record(args.workspace, args.claims, meaning=False)
        hybrid = record(args.workspace, args.claims, meaning=True)
        fingerprint = _fingerprint(hybrid)
        words = cases(lexical, 0.0, None)
        by_weight = {w: cases(hybrid, w, probe(fingerprint)) for w in COSINE_WEIGHTS}
        if args.cache is not None:
            with args.cache.open("wb") as handle:
                pickle.dump((words, by_weight, fingerprint), handle)
    shipped = figures((c, _lexical(c, (0.6, 0.06, 0.3))) for c in words)
    print(_show("before, words alone, shipped thresholds (train fit)", shipped))
    print(_show("before, words alone, thresholds picked per fold (held out)", lexical_cv(words)))
    earlier, chosen = gate_cv(by_weight, EARLIER)
    print(_show("hybrid retrieval, the earlier six-input gate (held out)", earlier))
    print(f"  per fold (fold, cosine weight, bar): {chosen}")
    after, chosen = gate_cv(by_weight, BLEND)
    print(_show("after, hybrid retrieval and the relevance gate (held out)", after))
    print(f"  per fold (fold, cosine weight, bar): {chosen}")
    hybrid_lexical, _ = gate_cv({0.0: by_weight[0.0]}, LEXICAL)
    print(_show("  hybrid retrieval, gate over words alone (held out)", hybrid_lexical))
    print("curve, out-of-fold gate scores: evidence recall (abstention) at citation precision")
    rows = {
        "words alone, lexical retrieval": curve(words, LEXICAL),
        "words alone, hybrid retrieval": curve(by_weight[0.0], LEXICAL),
    }
    rows |= {f"earlier blend, cosine weight {w}": curve(c, EARLIER) for w, c in by_weight.items()}
    rows |= {f"blend, cosine weight {w}": curve(c, BLEND) for w, c in by_weight.items()}
    for name, points in rows.items():
        cells = "  ".join(f"P{lv:.2f}: {r:.3f} ({a:.3f})" for lv, (r, a) in points.items())
        print(f"  {name:<38} {cells}")
    fitted_gate, weight = final_gate(by_weight, fingerprint)
    print(f"fitted on all claims: cosine weight {weight}, bar {fitted_gate.threshold:.3f}")
    print("  weights: " + ", ".join(
        f"{n} {w:+.2f}" for n, w in zip(fitted_gate.features, fitted_gate.weights, strict=True)
    ))  # fmt: skip
    if args.write:
        payload = replace(fitted_gate, cosine_weight=weight).to_json()
        GATE_PATH.parent.mkdir(parents=True, exist_ok=True)
        GATE_PATH.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")
        print(f"  wrote {GATE_PATH.relative_to(ROOT)}")
    if args.climate_fever is not None:
        for line in climate_check(args.climate_fever):
            print(line)


def climate_check(where: Path) -> Iterator[str]:
    """Ask Climate-FEVER's claims over a throwaway workspace of its evidence, both ways."""
    rows = climate_rows(where)
    with tempfile.TemporaryDirectory(prefix="synapse-cf-") as tmp:
        corpus, claims = _scifact_shaped(rows, Path(tmp))
        from engine.datasets.scifact import import_scifact

        import_scifact(corpus, claims, Path(tmp) / "ws")
        golds = load_gold(claims)
        for name, on in (("words alone", False), ("hybrid and the relevance gate", True)):
            with _encoder(on):
                opened = open_workspace(Path(tmp) / "ws")
            try:
                if on and opened.meaning.semantic is None:
                    raise SystemExit(f"error: no encoder: {opened.meaning_notice}")
                figures_ = score(run_claims(opened, golds))
            finally:
                opened.close()
            yield (
                f"Climate-FEVER ({len(golds)} claims, {figures_['claims_with_evidence']} with "
                f"evidence), {name}: recall {figures_['evidence_recall']}  precision "
                f"{figures_['citation_precision']}  abstain "
                f"{figures_['abstain_rate_no_evidence']}  answered {figures_['answer_rate']}  "
                f"median ask {figures_['median_latency_ms']} ms"
            )


def _fingerprint(seen: list[Seen]) -> str:
    """The encoder the claims were read with."""
    for item in seen:
        if item.state is not None and item.state.semantic is not None:
            return item.state.semantic.encoder.fingerprint
    raise SystemExit("error: no claim was read with the sentence encoder on")


def _scifact_shaped(rows: list[dict[str, Any]], folder: Path) -> tuple[Path, Path]:
    """Climate-FEVER as SciFact files: one abstract per article, its evidence sentences."""
    articles: dict[str, list[str]] = {}
    for row in rows:
        for ev in row["evidences"]:
            sentences = articles.setdefault(ev["article"], [])
            if ev["evidence"] not in sentences:
                sentences.append(ev["evidence"])
    ids = {title: n for n, title in enumerate(sorted(articles), start=1)}
    corpus = folder / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"doc_id": ids[t], "title": t, "sentences": s}) + "\n"
            for t, s in sorted(articles.items())
        )
    )
    claims = folder / "claims.jsonl"
    lines = []
    for row in rows:
        evidence: dict[str, list[dict[str, Any]]] = {}
        for ev in row["evidences"]:
            if ev["evidence_label"] in ("SUPPORTS", "REFUTES"):
                label = "SUPPORT" if ev["evidence_label"] == "SUPPORTS" else "CONTRADICT"
                doc = str(ids[ev["article"]])
                index = articles[ev["article"]].index(ev["evidence"])
                evidence.setdefault(doc, [{"label": label, "sentences": []}])[0][
                    "sentences"
                ].append(index)
        cited = sorted({ids[ev["article"]] for ev in row["evidences"]})
        lines.append(
            json.dumps(
                {
                    "id": row["claim_id"],
                    "claim": row["claim"],
                    "evidence": evidence,
                    "cited_doc_ids": cited,
                }
            )
        )
    claims.write_text("\n".join(lines) + "\n")
    return corpus, claims


if __name__ == "__main__":
    main()
