"""The claim overlay: practice entries aligned to canon claims, typed, weighted and saved.

Candidates. Each practice entry (decision, experiment, checkpoint) is a search query (its
title and body) against the canon store. The index is asked for `k × overfetch` hits,
because many canon hits are sources or concepts; the claims and findings among them are
kept, at most `k`. BM25 scores do not compare across queries, so each hit is scaled by the
query's best claim/finding score and kept when it reaches `sim_floor` of it. The best hit
always survives: whether it is related at all is the typer's call. Cost is one search and
at most `k` typer calls per practice entry, linear in the number of entries.

Gate. Every candidate pair goes through the gated typer of `engine.typers`; an edge is kept
when its relation is not `unrelated` and its confidence reaches `min_confidence`. Nothing
else drops an edge.

Claim strength, in [0, 1], from three terms of the canon note:
    0.4 · quotes      share of its first `QUOTE_CAP` quotes that `verify_quote` confirms
                      against the note's source text
    0.3 · sources     1 − 0.5ⁿ for n distinct citekeys among the note and the canon notes
                      linking to it as `supports` (or that it lists as `supported-by`)
    0.3 · centrality  PageRank of the canon link graph, min-max scaled over linked notes
A term with no data (no quotes or no source text; no citekey and no supporters; no links)
is unknown, and the weights of the known terms are renormalised. All unknown → None.

Priority = confidence × priority_weight(strength), with priority_weight = 0.75 for an
unknown strength and 0.5 + 0.5 · strength otherwise. It orders edges, never drops one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from engine.atomic import synapse_path, write_atomic
from engine.errors import ConfigError, EngineError
from engine.notes import MEMORY_SOURCE, Note, NoteKind, Store, note_address
from engine.quote import verify_quote
from engine.stores import Workspace
from engine.typers import Relation, Typing, make_typer

if TYPE_CHECKING:  # engine.api will read review edges from here, so no runtime import
    from engine.api import OpenWorkspace

OVERLAY_PATH = ".synapse/links/claim_links.json"
KIND = "claim"
PRACTICE_KINDS = frozenset({NoteKind.DECISION, NoteKind.EXPERIMENT, NoteKind.CHECKPOINT})
CANON_KINDS = frozenset({NoteKind.CLAIM, NoteKind.FINDING})
SUPPORT_LINKS = frozenset({"supports"})
SUPPORTED_BY_LINKS = frozenset({"supported-by"})
QUOTE_CAP = 5
WEIGHTS = {"quotes": 0.4, "sources": 0.3, "centrality": 0.3}

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class OverlayConfig:
    """How candidates are drawn and which typed edges are kept."""

    k: int = 5
    overfetch: int = 3
    sim_floor: float = 0.3
    min_confidence: float = 0.55
    limit: int | None = None  # only the first N practice entries, in address order

    def __post_init__(self) -> None:
        if self.k < 1 or self.overfetch < 1:
            raise ConfigError("k and overfetch must be at least 1")
        if not (0.0 <= self.sim_floor <= 1.0 and 0.0 <= self.min_confidence <= 1.0):
            raise ConfigError("sim_floor and min_confidence must lie in [0, 1]")
        if self.limit is not None and self.limit < 0:
            raise ConfigError("limit must not be negative")

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, order=True)
class EdgeKey:
    """Which (practice entry, canon note) pair an edge, a brief or a triage decision is about."""

    memory_id: str
    zk_source: str
    zk_id: str

    @property
    def memory_address(self) -> str:
        return note_address(Store.PRACTICE, MEMORY_SOURCE, self.memory_id)

    @property
    def zk_address(self) -> str:
        return note_address(Store.CANON, self.zk_source, self.zk_id)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> EdgeKey:
        """Raises ValueError unless `data` holds the three ids as non-empty strings."""
        if not isinstance(data, dict):
            raise ValueError("edge is not an object")
        values = [data.get(name) for name in ("memory_id", "zk_source", "zk_id")]
        if not all(isinstance(value, str) and value for value in values):
            raise ValueError("edge needs memory_id, zk_source and zk_id as strings")
        return cls(*values)


@dataclass(frozen=True)
class Candidate:
    """A practice entry and a canon note worth typing; `similarity` is the scaled BM25 score."""

    memory: Note
    canon: Note
    similarity: float


@dataclass(frozen=True)
class OverlayEdge:
    """One kept, typed pair; `evidence` is the canon sentence the typer aligned with."""

    memory_id: str
    zk_source: str
    zk_id: str
    relation: Relation
    confidence: float
    claim_strength: float | None
    priority: float
    rationale: str
    evidence: str

    @property
    def key(self) -> EdgeKey:
        return EdgeKey(self.memory_id, self.zk_source, self.zk_id)

    def to_dict(self) -> dict:
        return {**asdict(self), "relation": self.relation.value}

    @classmethod
    def from_dict(cls, data: object) -> OverlayEdge:
        """Raises ValueError naming the first bad field."""
        key = EdgeKey.from_dict(data)
        strength = data.get("claim_strength")
        if strength is not None and not _is_number(strength):
            raise ValueError("claim_strength is not a number")
        if not (_is_number(data.get("confidence")) and _is_number(data.get("priority"))):
            raise ValueError("confidence and priority must be numbers")
        return cls(
            *asdict(key).values(),
            relation=Relation(data.get("relation")),
            confidence=float(data["confidence"]),
            claim_strength=None if strength is None else float(strength),
            priority=float(data["priority"]),
            rationale=str(data.get("rationale", "")),
            evidence=str(data.get("evidence", "")),
        )


@dataclass(frozen=True, eq=False)
class Overlay:
    """A built overlay with what built it; `counts` has practice, candidates, typed, kept."""

    built_at: str
    typer: str
    parameters: dict
    counts: dict
    seconds: float
    edges: tuple[OverlayEdge, ...] = field(default=())

    def to_dict(self) -> dict:
        return {
            "kind": KIND,
            "built_at": self.built_at,
            "typer": self.typer,
            "parameters": self.parameters,
            "counts": self.counts,
            "seconds": self.seconds,
            "edges": [edge.to_dict() for edge in self.edges],
        }

    @classmethod
    def from_dict(cls, data: object) -> Overlay:
        """Raises ValueError naming the problem."""
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise ValueError(f"not a {KIND} overlay")
        edges = data.get("edges")
        if not isinstance(edges, list):
            raise ValueError("edges is not a list")
        parsed = []
        for n, item in enumerate(edges, start=1):
            try:
                parsed.append(OverlayEdge.from_dict(item))
            except (ValueError, TypeError) as exc:
                raise ValueError(f"edge {n}: {exc}") from None
        return cls(
            built_at=str(data.get("built_at", "")),
            typer=str(data.get("typer", "")),
            parameters=dict(data.get("parameters") or {}),
            counts=dict(data.get("counts") or {}),
            seconds=float(data.get("seconds") or 0.0),
            edges=tuple(parsed),
        )


@dataclass(frozen=True)
class OverlayRead:
    """The outcome of reading the overlay file: the overlay, or None and the reason."""

    overlay: Overlay | None
    reason: str = ""

    @classmethod
    def found(cls, overlay: Overlay) -> OverlayRead:
        return cls(overlay)

    @classmethod
    def missing(cls) -> OverlayRead:
        return cls(None, "no overlay has been built yet")

    @classmethod
    def corrupt(cls, reason: str) -> OverlayRead:
        return cls(None, f"the overlay file is unreadable: {reason}")


def priority_weight(strength: float | None) -> float:
    """A weight in [0.5, 1] for ordering: 0.75 when the strength is unknown."""
    if strength is None:
        return 0.75
    return 0.5 + 0.5 * min(1.0, max(0.0, strength))


def practice_entries(workspace: Workspace, *, limit: int | None = None) -> list[Note]:
    """The decisions, experiments and checkpoints of the workspace, in address order."""
    entries = [
        note
        for note in workspace.notes.values()
        if note.store is Store.PRACTICE and note.type in PRACTICE_KINDS
    ]
    return entries if limit is None else entries[:limit]


def note_text(note: Note) -> str:
    """Title and body as one text, without repeating a title the body already starts with."""
    title, body = note.title.strip(), note.body.strip()
    if not body or body == title:
        return title
    return body if body.startswith(title) else f"{title}\n{body}"


def candidates(opened: OpenWorkspace, config: OverlayConfig = OverlayConfig()) -> list[Candidate]:
    """The pairs to type: at most `config.k` canon claims/findings per practice entry."""
    notes = opened.workspace.notes
    out: list[Candidate] = []
    for entry in practice_entries(opened.workspace, limit=config.limit):
        hits = opened.index.search(
            note_text(entry), k=config.k * config.overfetch, store=Store.CANON
        )
        usable = [
            (notes[hit.address], hit.score)
            for hit in hits
            if hit.address in notes and notes[hit.address].type in CANON_KINDS and hit.score > 0
        ][: config.k]
        if not usable:
            continue
        best = usable[0][1]
        out.extend(
            Candidate(entry, canon, round(score / best, 4))
            for canon, score in usable
            if score / best >= config.sim_floor
        )
    return out


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
        if not quotes or fulltext is None:
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


def build_overlay(
    opened: OpenWorkspace,
    *,
    typer: str = "offline",
    config: OverlayConfig = OverlayConfig(),
    progress: Progress | None = None,
) -> Overlay:
    """Type the candidate pairs, keep the confident edges and replace the overlay file.

    `typer` is a name known to `engine.typers.make_typer` (always gated). The file is
    written once, at the end: if typing fails part-way the previous overlay stays. Raises
    ConfigError for an unknown or unconfigured typer.
    """
    started = time.perf_counter()
    typed_by = make_typer(typer)
    pairs = candidates(opened, config)
    strength = ClaimStrength(opened.workspace)
    edges: list[OverlayEdge] = []
    if progress is not None:
        progress(0, len(pairs))
    for done, pair in enumerate(pairs, start=1):
        typing = typed_by(note_text(pair.memory), note_text(pair.canon))
        if typing.relation is not Relation.UNRELATED and typing.confidence >= config.min_confidence:
            edges.append(_edge(pair, typing, strength(pair.canon.address)))
        if progress is not None:
            progress(done, len(pairs))
    edges.sort(key=lambda e: (-e.priority, e.memory_id, e.zk_source, e.zk_id))
    by_relation = {r.value: 0 for r in Relation if r is not Relation.UNRELATED}
    for edge in edges:
        by_relation[edge.relation.value] += 1
    overlay = Overlay(
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        typer=typed_by.name,
        parameters={**config.to_dict(), "stance_floor": getattr(typed_by, "floor", None)},
        counts={
            "practice": len(practice_entries(opened.workspace, limit=config.limit)),
            "candidates": len(pairs),
            "typed": len(pairs),
            "kept": len(edges),
            "by_relation": by_relation,
        },
        seconds=round(time.perf_counter() - started, 3),
        edges=tuple(edges),
    )
    save_overlay(opened.root, overlay)
    return overlay


def save_overlay(root: str | os.PathLike[str], overlay: Overlay) -> None:
    """Replace the overlay file of the workspace at `root` with `overlay`, atomically."""
    text = json.dumps(overlay.to_dict(), ensure_ascii=False, indent=1, sort_keys=True)
    write_atomic(synapse_path(root, OVERLAY_PATH), text + "\n")


def _edge(pair: Candidate, typing: Typing, strength: float | None) -> OverlayEdge:
    return OverlayEdge(
        memory_id=pair.memory.id,
        zk_source=pair.canon.source,
        zk_id=pair.canon.id,
        relation=typing.relation,
        confidence=round(float(typing.confidence), 4),
        claim_strength=strength,
        priority=round(typing.confidence * priority_weight(strength), 4),
        rationale=typing.rationale,
        evidence=typing.evidence,
    )


def read_overlay(root: str | os.PathLike[str]) -> OverlayRead:
    """Read the overlay file of the workspace at `root`; never raises for a bad file."""
    try:
        raw = synapse_path(root, OVERLAY_PATH).read_bytes()
    except FileNotFoundError:
        return OverlayRead.missing()
    except (OSError, EngineError) as exc:
        return OverlayRead.corrupt(str(exc))
    try:
        return OverlayRead.found(Overlay.from_dict(json.loads(raw.decode("utf-8"))))
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        return OverlayRead.corrupt(str(exc))


def load_overlay(root: str | os.PathLike[str]) -> Overlay | None:
    """The saved overlay, or None when there is none or it is corrupt (see `read_overlay`)."""
    return read_overlay(root).overlay


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
