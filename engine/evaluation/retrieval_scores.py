"""Retrieval on SciFact claims: nDCG@10 and recall@10 of BM25 alone and of the hybrid fusion.

Each claim with evidence asks the SciFact box; the gold abstracts are relevant (graded 1),
as in the BEIR convention for SciFact. A passage of an abstract counts as its abstract.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from engine.evaluation.navigation_scores import SCIFACT_BOX, GoldClaim
from engine.navigation.retrieval import retrieve
from engine.workspace.notes import Store
from engine.workspace.opened import OpenWorkspace

CUTOFF = 10


def ndcg(ranked: list[str], gold: frozenset[str], k: int = CUTOFF) -> float:
    """Normalised discounted cumulative gain of `ranked` at `k`, binary relevance."""
    gain = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranked[:k]) if doc in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), k)))
    return gain / ideal if ideal else 0.0


def recall(ranked: list[str], gold: frozenset[str], k: int = CUTOFF) -> float:
    return len(set(ranked[:k]) & gold) / len(gold) if gold else 0.0


def retrieval_figures(opened: OpenWorkspace, claims: Iterable[GoldClaim]) -> dict[str, Any]:
    """nDCG@10 and recall@10 over claims with evidence, BM25 alone and (with an encoder)
    fused with meaning."""
    semantic = opened.meaning.semantic
    runs = {"bm25": None} | ({"hybrid": semantic} if semantic is not None else {})
    scores: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for gold in claims:
        if not gold.evidence:
            continue
        for name, meaning in runs.items():
            found = retrieve(
                opened.index,
                meaning,
                gold.claim,
                CUTOFF,
                store=Store.CANON.value,
                box=SCIFACT_BOX,
            )
            ranked = [address.rsplit(":", 1)[-1] for address in found]
            scores[name].append((ndcg(ranked, gold.evidence), recall(ranked, gold.evidence)))
    out = {}
    for name, pairs in scores.items():
        n = len(pairs)
        out[name] = {
            "claims": n,
            "ndcg@10": round(sum(p[0] for p in pairs) / n, 4) if n else None,
            "recall@10": round(sum(p[1] for p in pairs) / n, 4) if n else None,
        }
    return out
