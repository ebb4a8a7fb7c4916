"""The claim overlay: practice entries aligned to canon claims, typed, weighted and saved.

Candidates. Each practice entry (decision, experiment, checkpoint) is a search query (its
title and body) against the canon store. The index is asked for `k × overfetch` hits,
because many canon hits are sources or concepts; the claims and findings among them are
kept, at most `k`. BM25 scores do not compare across queries, so each hit is scaled by the
query's best claim/finding score and kept when it reaches `sim_floor` of it. The best hit
always survives: whether it is related at all is the typer's call. Cost is one search and
at most `k` typer calls per practice entry, linear in the number of entries.

Gate. Every candidate pair goes through the gated typer of `engine.review.typers`; an edge is kept
when its relation is not `unrelated` and its confidence reaches `min_confidence`; a possible
tension (a contradiction candidate of a band measured too rarely right to be called one) is
kept whatever its confidence, for a reviewer. Nothing else drops an edge.

Priority = confidence × priority_weight(strength), where strength is the canon note's claim
strength (see `engine.review.strength`). It orders edges, never drops one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import EngineError, WorkspaceError
from engine.core.registry import Registry
from engine.review.overlay_config import OverlayConfig as OverlayConfig
from engine.review.relations import WIRE_KEYS, EdgeKey, Relation, Typing
from engine.review.strength import ClaimStrength, priority_weight
from engine.review.typers import TyperFactory, TyperSpec, gate_for, make_typer
from engine.workspace.atomic import read_app_file, synapse_path, write_atomic
from engine.workspace.layout import OVERLAY_PATH
from engine.workspace.notes import Note, NoteKind, Store
from engine.workspace.opened import OpenWorkspace
from engine.workspace.stores import Workspace

KIND = "claim"
PRACTICE_KINDS = frozenset({NoteKind.DECISION, NoteKind.EXPERIMENT, NoteKind.CHECKPOINT})
CANON_KINDS = frozenset({NoteKind.CLAIM, NoteKind.FINDING})

Progress = Callable[[int, int], None]
Pairwise = Callable[[str, str], Typing]  # a gated typer: (practice text, canon text) -> Typing
# Types the candidate pairs in order, a None for a pair left untyped.
PairTyping = Callable[[Pairwise, Sequence["Candidate"], Progress | None], Sequence[Typing | None]]


DEFAULTS = OverlayConfig()


@dataclass(frozen=True)
class Candidate:
    """A practice entry and a canon note worth typing; `similarity` is the scaled BM25 score."""

    practice: Note
    canon: Note
    similarity: float


@dataclass(frozen=True)
class OverlayEdge:
    """One kept, typed pair; `evidence` is the canon sentence the typer aligned with."""

    practice_id: str
    canon_source: str
    canon_id: str
    relation: Relation
    confidence: float
    claim_strength: float | None
    priority: float
    rationale: str
    evidence: str
    cue: str = "none"  # what disagrees, for a contradiction (see ContradictionCue)

    @property
    def key(self) -> EdgeKey:
        return EdgeKey(self.practice_id, self.canon_source, self.canon_id)

    def to_dict(self) -> dict[str, Any]:
        fields = {name: value for name, value in asdict(self).items() if name not in WIRE_KEYS}
        return {**self.key.to_dict(), **fields, "relation": self.relation.value}

    @classmethod
    def from_dict(cls, data: object) -> OverlayEdge:
        """Raises ValueError naming the first bad field."""
        key = EdgeKey.from_dict(data)
        if not isinstance(data, dict):  # EdgeKey.from_dict refused it already
            raise ValueError("edge is not an object")
        strength = data.get("claim_strength")
        if strength is not None and not _is_number(strength):
            raise ValueError("claim_strength is not a number")
        if not (_is_number(data.get("confidence")) and _is_number(data.get("priority"))):
            raise ValueError("confidence and priority must be numbers")
        relation = jsonsafe.member(Relation, data.get("relation"))
        if relation is None:
            raise ValueError(f"{data.get('relation')!r} is not a valid Relation")
        return cls(
            key.practice_id,
            key.canon_source,
            key.canon_id,
            relation=relation,
            confidence=float(data["confidence"]),
            claim_strength=None if strength is None else float(strength),
            priority=float(data["priority"]),
            rationale=_text(data, "rationale"),
            evidence=_text(data, "evidence"),
            cue=_text(data, "cue") or "none",
        )


@dataclass(frozen=True, eq=False)
class Overlay:
    """A built overlay with what built it; `counts` has practice, candidates, typed, kept."""

    built_at: str
    typer: str
    parameters: dict[str, Any]
    counts: dict[str, Any]
    seconds: float
    edges: tuple[OverlayEdge, ...] = field(default=())

    def header(self) -> dict[str, Any]:
        """What built the overlay, without its edges."""
        return {
            "built_at": self.built_at,
            "typer": self.typer,
            "parameters": self.parameters,
            "counts": self.counts,
            "seconds": self.seconds,
        }

    def to_dict(self) -> dict[str, Any]:
        return {"kind": KIND, **self.header(), "edges": [e.to_dict() for e in self.edges]}

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
        parameters = data.get("parameters") or {}
        if not isinstance(parameters, dict):
            raise ValueError("parameters is not an object")
        seconds = data.get("seconds") or 0.0
        if not _is_number(seconds):
            raise ValueError("seconds is not a number")
        return cls(
            built_at=_text(data, "built_at"),
            typer=_text(data, "typer"),
            parameters=parameters,
            counts=_counts(data.get("counts") or {}),
            seconds=float(seconds),
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


def practice_entries(workspace: Workspace, *, limit: int | None = None) -> list[Note]:
    """The decisions, experiments and checkpoints of the workspace, in address order."""
    entries = [
        note
        for note in workspace.notes.written.values()
        if note.store is Store.PRACTICE and note.type in PRACTICE_KINDS
    ]
    return entries if limit is None else entries[:limit]


def note_text(note: Note) -> str:
    """Title and body as one text, without repeating a title the body already starts with."""
    title, body = note.title.strip(), note.body.strip()
    if not body or body == title:
        return title
    return body if body.startswith(title) else f"{title}\n{body}"


def candidates(opened: OpenWorkspace, config: OverlayConfig = DEFAULTS) -> list[Candidate]:
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


def build_overlay(
    opened: OpenWorkspace,
    *,
    typer: TyperSpec = "offline",
    config: OverlayConfig = DEFAULTS,
    progress: Progress | None = None,
    typers: Registry[TyperFactory] | None = None,
    typing: PairTyping | None = None,
) -> Overlay:
    """Type the candidate pairs, keep the confident edges and replace the overlay file.

    `typer` is a name registered in `typers` (`engine.review.typers.TYPERS` by default),
    or a typer object (say a model typer for an endpoint set in the app), put behind its
    gate (`typers.gate_for`: a model typer is gated by its own model, any other by the
    offline classifier) unless it is gated already. `typing` types the pairs (by default
    here, one after the other; a cluster's may leave a pair untyped, None, and it is counted
    out). The file is written once, at the end: if typing fails part-way the previous
    overlay stays. Raises ConfigError for an unknown or unconfigured typer.
    """
    started = time.perf_counter()
    typed_by = make_typer(typer, registry=typers) if isinstance(typer, str) else gate_for(typer)
    pairs = candidates(opened, config)
    strength = ClaimStrength(opened.workspace)
    edges: list[OverlayEdge] = []
    typings = (typing or type_pairs)(typed_by, pairs, progress)
    for pair, typed in zip(pairs, typings, strict=True):
        if typed is None:
            continue
        # A possible tension is kept below the confidence floor, for a reviewer to weigh.
        kept = typed.confidence >= config.min_confidence or typed.relation is Relation.TENSION
        if typed.relation is not Relation.UNRELATED and kept:
            edges.append(_edge(pair, typed, strength(pair.canon.address)))
    edges.sort(key=lambda e: (-e.priority, e.practice_id, e.canon_source, e.canon_id))
    by_relation = {r.value: 0 for r in Relation if r is not Relation.UNRELATED}
    for edge in edges:
        by_relation[edge.relation.value] += 1
    overlay = Overlay(
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        typer=typed_by.name,
        parameters={
            **config.to_dict(),
            "stance_floor": getattr(typed_by, "floor", None),
            "stance_gate": getattr(typed_by, "gate", None),
        },
        counts={
            "practice": len(practice_entries(opened.workspace, limit=config.limit)),
            "candidates": len(pairs),
            "typed": sum(typed is not None for typed in typings),
            "kept": len(edges),
            "by_relation": by_relation,
        },
        seconds=round(time.perf_counter() - started, 3),
        edges=tuple(edges),
    )
    save_overlay(opened.root, overlay)
    return overlay


def type_pairs(
    typed_by: Pairwise, pairs: Sequence[Candidate], progress: Progress | None
) -> list[Typing | None]:
    """Type every pair here, in order, counting them on `progress`: the serial `PairTyping`."""
    out: list[Typing | None] = []
    if progress is not None:
        progress(0, len(pairs))
    for done, pair in enumerate(pairs, start=1):
        out.append(typed_by(note_text(pair.practice), note_text(pair.canon)))
        if progress is not None:
            progress(done, len(pairs))
    return out


def save_overlay(root: str | os.PathLike[str], overlay: Overlay) -> None:
    """Replace the overlay file of the workspace at `root` with `overlay`, atomically."""
    text = json.dumps(overlay.to_dict(), ensure_ascii=False, indent=1, sort_keys=True)
    try:
        write_atomic(synapse_path(root, OVERLAY_PATH), text + "\n")
    except OSError as exc:  # a full disk or a read-only workspace
        raise WorkspaceError(
            f"cannot save the overlay: {exc.strerror or exc}; the previous overlay is unchanged"
        ) from None


def _edge(pair: Candidate, typing: Typing, strength: float | None) -> OverlayEdge:
    return OverlayEdge(
        practice_id=pair.practice.id,
        canon_source=pair.canon.source,
        canon_id=pair.canon.id,
        relation=typing.relation,
        confidence=round(float(typing.confidence), 4),
        claim_strength=strength,
        priority=round(typing.confidence * priority_weight(strength), 4),
        rationale=typing.rationale,
        evidence=typing.evidence,
        cue=typing.cue.value,
    )


def read_overlay(root: str | os.PathLike[str]) -> OverlayRead:
    """Read the overlay file of the workspace at `root`; never raises for a bad file.

    Links, FIFOs, devices, files over the app-file cap, bad UTF-8, nesting deeper than
    `jsonsafe.MAX_DEPTH` and fields of the wrong type all make it `corrupt`, with the reason.
    """
    try:
        raw = read_app_file(synapse_path(root, OVERLAY_PATH))
    except FileNotFoundError:
        return OverlayRead.missing()
    except (OSError, EngineError) as exc:
        return OverlayRead.corrupt(str(exc))
    try:
        return OverlayRead.found(Overlay.from_dict(jsonsafe.loads(raw)))
    except (ValueError, TypeError) as exc:
        return OverlayRead.corrupt(str(exc))


def load_overlay(root: str | os.PathLike[str]) -> Overlay | None:
    """The saved overlay, or None when there is none or it is corrupt (see `read_overlay`)."""
    return read_overlay(root).overlay


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name, "")
    if not isinstance(value, str):
        raise ValueError(f"{name} is not a string")
    return value


def _counts(value: object) -> dict[str, Any]:
    """`counts` as saved: names to whole numbers, `by_relation` one level deeper."""
    if not isinstance(value, dict):
        raise ValueError("counts is not an object")
    for name, count in value.items():
        inner = count.items() if isinstance(count, dict) else [(name, count)]
        for key, number in inner:
            if not isinstance(key, str) or not isinstance(number, int) or isinstance(number, bool):
                raise ValueError(f"counts: {name} is not a whole number")
    return value
