"""Overlay edges for tests, built from the pair they join."""

from __future__ import annotations

from engine.review.overlay import OverlayEdge
from engine.review.relations import EdgeKey, Relation


def contradiction(
    key: EdgeKey,
    *,
    confidence: float = 0.9,
    priority: float = 0.6,
    rationale: str = "",
    evidence: str = "",
    cue: str = "none",
) -> OverlayEdge:
    """A kept contradiction between the practice note and canon claim of `key`."""
    return OverlayEdge(
        practice_id=key.practice_id,
        canon_source=key.canon_source,
        canon_id=key.canon_id,
        relation=Relation.CONTRADICTS,
        confidence=confidence,
        claim_strength=None,
        priority=priority,
        rationale=rationale,
        evidence=evidence,
        cue=cue,
    )
