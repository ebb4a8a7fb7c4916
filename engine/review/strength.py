"""Claim strength of canon notes, and the weight it lends an edge's priority.

Claim strength, in [0, 1], from three terms of the canon note:
    0.4 · quotes      share of its first `QUOTE_CAP` quotes that `verify_quote` confirms
                      against the note's source text
    0.3 · sources     1 − 0.5ⁿ for n distinct citekeys among the note and the canon notes
                      linking to it as `supports` (or that it lists as `supported-by`)
    0.3 · centrality  PageRank of the canon link graph, min-max scaled over linked notes
A term with no data (no quotes or no source text; no citekey and no supporters; no links)
is unknown, and the weights of the known terms are renormalised. All unknown → None.

An edge's priority is its confidence × priority_weight(strength): 0.75 for an unknown
strength and 0.5 + 0.5 · strength otherwise.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engine.core.quote import verify_quote
from engine.workspace.notes import Note, Store
from engine.workspace.stores import Workspace

SUPPORT_LINKS = frozenset({"supports"})
SUPPORTED_BY_LINKS = frozenset({"supported-by"})
QUOTE_CAP = 5
WEIGHTS = {"quotes": 0.4, "sources": 0.3, "centrality": 0.3}


def priority_weight(strength: float | None) -> float:
    """A weight in [0.5, 1] for ordering: 0.75 when the strength is unknown."""
    if strength is None:
        return 0.75
    return 0.5 + 0.5 * min(1.0, max(0.0, strength))


class ClaimStrength:
    """Claim strength of canon notes in one workspace, computed on first use and cached."""

    def __init__(self, workspace: Workspace, *, quote_cap: int = QUOTE_CAP) -> None:
        self.workspace = workspace
        self.quote_cap = quote_cap
        self._cache: dict[str, float | None] = {}

    def __call__(self, address: str) -> float | None:
        if address not in self._cache:
            self._cache[address] = combine(self.terms(address))
        return self._cache[address]

    def terms(self, address: str) -> dict[str, float | None]:
        """The three terms of the note at `address`, each None when it has no data."""
        note = self.workspace.note(address)
        if note is None:
            return dict.fromkeys(WEIGHTS)
        return {
            "quotes": self._quote_share(note),
            "sources": self._sources(note),
            "centrality": self._centrality.get(address),
        }

    def _quote_share(self, note: Note) -> float | None:
        quotes = note.quotes[: self.quote_cap]
        fulltext = self.workspace.source_text(note.citekey) if note.citekey else None
        if not quotes or fulltext is None or not note.citekey:
            return None
        highlights = [
            {"text": a.text, "page": a.page} for a in self.workspace.annotations(note.citekey)
        ]
        confirmed = sum(verify_quote(q.body, fulltext, highlights).verified for q in quotes)
        return confirmed / len(quotes)

    def _sources(self, note: Note) -> float | None:
        backers = self._supporters.get(note.address, set())
        citekeys = {note.citekey} | {self.workspace.notes[a].citekey for a in backers}
        citekeys.discard(None)
        return 1.0 - 0.5 ** len(citekeys) if citekeys else None

    @cached_property
    def _supporters(self) -> dict[str, set[str]]:
        """Canon address → addresses of canon notes that back it."""
        backers: dict[str, set[str]] = {}
        for note in self._canon:
            for link in note.links:
                if link.target_address not in self.workspace.notes:
                    continue
                if link.relation in SUPPORT_LINKS:
                    backers.setdefault(link.target_address, set()).add(note.address)
                elif link.relation in SUPPORTED_BY_LINKS:
                    backers.setdefault(note.address, set()).add(link.target_address)
        return backers

    @cached_property
    def _centrality(self) -> dict[str, float]:
        """Min-max scaled PageRank of every canon note that has at least one canon link."""
        nodes = [note.address for note in self._canon]
        known = set(nodes)
        edges = {
            (note.address, link.target_address)
            for note in self._canon
            for link in note.links
            if link.target_address in known and link.target_address != note.address
        }
        if not edges:
            return {}
        rank = pagerank(nodes, edges)
        linked = {node: rank[node] for edge in edges for node in edge}
        low, high = min(linked.values()), max(linked.values())
        spread = high - low
        return {node: (value - low) / spread if spread else 1.0 for node, value in linked.items()}

    @cached_property
    def _canon(self) -> list[Note]:
        return [note for note in self.workspace.notes.values() if note.store is Store.CANON]


def pagerank(
    nodes: list[str], edges: set[tuple[str, str]], *, damping: float = 0.85
) -> dict[str, float]:
    """PageRank by power iteration; a node without out-links spreads its rank evenly.

    Written with numpy because networkx's own PageRank needs scipy, which the app does
    not ship.
    """
    at = {node: i for i, node in enumerate(nodes)}
    src = np.array([at[a] for a, _ in sorted(edges)], dtype=np.int64)
    dst = np.array([at[b] for _, b in sorted(edges)], dtype=np.int64)
    n = len(nodes)
    out_degree = np.bincount(src, minlength=n)
    dangling = out_degree == 0
    rank = np.full(n, 1.0 / n)
    for _ in range(200):
        spread = np.zeros(n)
        np.add.at(spread, dst, rank[src] / out_degree[src])
        new = (1.0 - damping) / n + damping * (spread + rank[dangling].sum() / n)
        converged = np.abs(new - rank).sum() < 1e-12
        rank = new
        if converged:
            break
    return dict(zip(nodes, rank.tolist(), strict=True))


def combine(terms: dict[str, float | None]) -> float | None:
    """The weighted mean of the known terms (weights renormalised); None if none is known."""
    known = {name: value for name, value in terms.items() if value is not None}
    if not known:
        return None
    total = sum(WEIGHTS[name] for name in known)
    return round(sum(WEIGHTS[name] * value for name, value in known.items()) / total, 4)
