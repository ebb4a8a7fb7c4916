"""The router's verdict as a value: answer or abstain, the ordered reasons, every derivation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.core.epistemics import HonestyViolation, Tier, Verdict
from engine.core.model import ReasoningDAG
from engine.core.traceability import Traceability
from engine.core.verifiers import VerifierResult


class Outcome(StrEnum):
    ANSWER = "answer"
    ABSTAIN = "abstain"


class Reason(StrEnum):
    """Abstain reasons, in the order they are reported."""

    MISSING_HOP = "missing-hop"
    STALE = "stale"
    FALSE_PREMISE = "false-premise"
    LOW_COVERAGE = "low-coverage"


REASON_EXPLANATIONS = {
    Reason.MISSING_HOP: (
        "A node the conclusion depends on was cited but never checked: nothing says "
        "whether it is grounded, so the chain has a missing hop."
    ),
    Reason.STALE: (
        "The conclusion rests on a note whose tethered file changed so much that the "
        "anchored text is gone; the grounding no longer holds."
    ),
    Reason.FALSE_PREMISE: (
        "A verifier refuted a ground the conclusion rests on: a quote is not in its "
        "source, a figure did not recompute, an equation is malformed or a clause is excluded."
    ),
    Reason.LOW_COVERAGE: (
        "The conclusion is not verified, or the prose says something no single verified "
        "claim licenses, or the coverage report shows a blocking gap."
    ),
}


@dataclass(frozen=True)
class Confabulation:
    """Whether the answer could have been produced without the retrieved material."""

    closed_book: bool
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"closed_book": self.closed_book, "detail": self.detail}


@dataclass(frozen=True)
class Decision:
    """The router's verdict with every part of its derivation."""

    outcome: Outcome
    status: Tier | None
    reasons: tuple[Reason, ...]
    conclusion: str
    outdated: bool
    dag: ReasoningDAG
    node_verdicts: Mapping[str, Verdict]
    claim_verdicts: Mapping[str, Verdict]
    verifier_results: Mapping[str, VerifierResult]
    traceability: Traceability
    confabulation: Confabulation
    honesty_violations: tuple[HonestyViolation, ...]
    floored: tuple[str, ...] = ()
    floor_reasons: Mapping[str, str] = field(default_factory=dict)
    missing_refs: tuple[str, ...] = ()
    asserted: Mapping[str, Tier] = field(default_factory=dict)
    detail: str = ""

    @property
    def answered(self) -> bool:
        return self.outcome is Outcome.ANSWER

    @property
    def cited(self) -> tuple[str, ...]:
        """Every node the conclusion's premise closure cites, sorted."""
        return self.dag.closure_cites(self.conclusion)

    @property
    def hedged(self) -> bool:
        return self.answered and self.status is Tier.INFERRED

    @property
    def label(self) -> str:
        """`ANSWER`, `HEDGED ANSWER` or `ABSTAIN`."""
        if not self.answered:
            return "ABSTAIN"
        return "HEDGED ANSWER" if self.hedged else "ANSWER"

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data, in the wire format's field names."""
        claims = {}
        for claim in self.dag.claims:
            verdict = self.claim_verdicts[claim.id]
            asserted = self.asserted.get(claim.id)
            claims[claim.id] = {
                **verdict.to_dict(),
                "kind": claim.kind.value,
                "asserted": asserted.value if asserted else None,
                "floored": claim.id in self.floored,
                "floor_reason": self.floor_reasons.get(claim.id),
            }
        trace = self.traceability
        return {
            "verdict": self.outcome.value,
            "label": self.label,
            "hedged": self.hedged,
            "status": self.status.value if self.status else None,
            "reasons": [r.value for r in self.reasons],
            "outdated": self.outdated,
            "conclusion": self.conclusion,
            "claims": claims,
            "nodes": {ref: v.to_dict() for ref, v in sorted(self.node_verdicts.items())},
            "traceability": trace.to_dict(),
            "verifiers": {ref: r.to_dict() for ref, r in sorted(self.verifier_results.items())},
            "confabulation": self.confabulation.to_dict(),
            "honesty_violations": [v.to_dict() for v in self.honesty_violations],
            "missing_refs": list(self.missing_refs),
            "floored": list(self.floored),
            "floor_reasons": dict(self.floor_reasons),
            "detail": self.detail,
        }
