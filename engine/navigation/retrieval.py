"""Hybrid retrieval: BM25 and nearest-sentence meaning, fused by reciprocal rank.

Each list is cut at `POOL` and a note scores the sum of 1 / (`RRF_K` + rank) over the lists
that hold it, so a note both find comes first, and one only meaning finds (a paraphrase
sharing no rare word) can still be a seed. Without an encoder it is BM25 alone. Retrieval
only proposes candidates: what the answer may say is decided on the notes' current text.
`RRF_K` was chosen on SciFact train (`python -m bench.bench_encoder` prints nDCG@10 and
recall@10 for BM25, meaning alone and the fusion).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.workspace.index import Index
from engine.workspace.semantic import Semantic

RRF_K = 10
POOL = 50


@dataclass(frozen=True)
class Found:
    """One retrieved note with its fused score."""

    address: str
    score: float


def fuse(*ranked: list[str], k: int, rrf_k: int = RRF_K) -> list[Found]:
    """The `k` best addresses by reciprocal-rank fusion of `ranked` lists, ties by address."""
    scores: dict[str, float] = {}
    for addresses in ranked:
        for rank, address in enumerate(addresses, start=1):
            scores[address] = scores.get(address, 0.0) + 1.0 / (rrf_k + rank)
    order = sorted(scores.items(), key=lambda item: (-round(item[1], 12), item[0]))
    return [Found(address, round(score, 9)) for address, score in order[:k]]


def retrieve(
    index: Index,
    semantic: Semantic | None,
    query: str,
    k: int,
    *,
    store: str | None = None,
    box: str | None = None,
) -> list[str]:
    """The `k` best notes for `query`: BM25 fused with meaning when an encoder is present."""
    lexical = [hit.address for hit in index.search(query, k=max(k, POOL), store=store, box=box)]
    # A question no note shares a word with finds nothing: the reasoner restates only a note
    # that mentions the question's terms, so meaning alone would only name a near miss.
    if semantic is None or not lexical:
        return lexical[:k]
    vector = semantic.question(query)
    near = [n.address for n in semantic.nearest(vector, POOL, store=store, source=box)]
    return [found.address for found in fuse(lexical, near, k=k)]
