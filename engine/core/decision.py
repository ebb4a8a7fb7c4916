"""The router's verdict as a value: answer or abstain, the ordered reasons, every derivation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.core.deduction import Unlike
from engine.core.epistemics import HonestyViolation, Tier, Verdict
from engine.core.model import ReasoningDAG
from engine.core.paraphrase import Paraphrased
from engine.core.stance import Overstated
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


class Cause(StrEnum):
    """What, concretely, kept an answer back: finer than the wire's reasons, in report order.

    The wire keeps its four reasons; a cause names which of the things a reason covers
    happened here, so the headline can say "honesty violation" rather than "low-coverage".
    Words for a cause are made in one place, from the value (`present/causes.py`).
    """

    MISSING_HOP = "missing-hop"  # a premise the conclusion rests on has no verdict
    STALE = "stale"  # a tether's anchored text is gone
    FALSE_PREMISE = "false-premise"  # a verifier refuted a ground
    HONESTY_VIOLATION = "honesty-violation"  # a status asserted above the derived one
    CONTESTED_SOURCE = "contested-source"  # a cited node is an endpoint of a contradiction
    UNRESOLVED_GROUND = "unresolved-ground"  # a ground whose file or note cannot be found
    UNCOVERED_TERM = "uncovered-term"  # a salient question word nothing cited mentions
    UNLICENSED_SENTENCE = "unlicensed-sentence"  # a prose sentence no verified claim licenses
    NOT_FOUND_VERBATIM = "not-found-verbatim"  # a restatement its source does not contain
    UNVERIFIED_CONCLUSION = "unverified-conclusion"  # an inference with no verified premise
    CLOSED_BOOK = "closed-book"  # nothing verified that was retrieved anchors the answer


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
    # Why each floored deduction is not proven from its premises' numbers.
    unproven: Mapping[str, Unlike] = field(default_factory=dict)
    # Claims licensed by a typo-tolerant quote match, in the source's own spelling.
    as_in_source: Mapping[str, str] = field(default_factory=dict)
    missing_refs: tuple[str, ...] = ()
    asserted: Mapping[str, Tier] = field(default_factory=dict)
    detail: str = ""
    blocking_count: int = 0  # salient question terms nothing in the closure mentions
    # Common question words nothing in the closure mentions: an answer is at most hedged.
    unmentioned: tuple[str, ...] = ()
    # How the cited text withholds the yes the question asks: an answer is at most hedged.
    withheld: Overstated | None = None
    withheld_no: bool = False  # the reading withheld was a no rather than a yes
    # The trained reader read the quoted sentence as an answer in other words: at most hedged.
    paraphrased: Paraphrased | None = None
    # The prose restates the DAG's claims word for word, verified or not (for the causes).
    prose_restates_claims: bool = False

    @property
    def answered(self) -> bool:
        return self.outcome is Outcome.ANSWER

    @property
    def cited(self) -> tuple[str, ...]:
        """Every node the conclusion's premise closure cites, sorted."""
        return self.dag.closure_cites(self.conclusion)

    @property
    def causes(self) -> tuple[Cause, ...]:
        """Every concrete thing that kept the answer back, in `Cause` order; () for an answer."""
        if self.answered:
            return ()
        final = self.claim_verdicts.get(self.conclusion)
        missing = bool(self.missing_refs) or Reason.MISSING_HOP in self.reasons
        found = {
            Cause.MISSING_HOP: missing,
            Cause.STALE: Reason.STALE in self.reasons,
            Cause.FALSE_PREMISE: Reason.FALSE_PREMISE in self.reasons,
            Cause.HONESTY_VIOLATION: bool(self.honesty_violations),
            Cause.CONTESTED_SOURCE: final is not None and final.contested,
            Cause.UNRESOLVED_GROUND: final is not None and final.unresolved and not missing,
            Cause.UNCOVERED_TERM: self.blocking_count > 0 or bool(self.unmentioned),
            Cause.NOT_FOUND_VERBATIM: bool(self.floored),
        }
        causes = {cause for cause, happened in found.items() if happened}
        # Prose that restates the DAG's claims is unlicensed only because a cause above kept
        # them from being verified; then that cause is the one to name.
        if not self.traceability.ok and not (causes and self.prose_restates_claims):
            causes.add(Cause.UNLICENSED_SENTENCE)
        # A closed book and an unverified conclusion follow from any cause above; each is
        # the cause only when nothing above is.
        if not causes and self.confabulation.closed_book:
            causes.add(Cause.CLOSED_BOOK)
        elif not causes and (final is None or not final.verified):
            causes.add(Cause.UNVERIFIED_CONCLUSION)
        return tuple(c for c in Cause if c in causes)

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
            claims[claim.id] = entry = verdict.to_dict()
            entry |= {
                "kind": claim.kind._value_,  # read directly: `.value` is a descriptor call
                "asserted": asserted.value if asserted else None,
                "floored": claim.id in self.floored,
                "floor_reason": self.floor_reasons.get(claim.id),
                "unproven": unproven.value if (unproven := self.unproven.get(claim.id)) else None,
                "as_in_source": self.as_in_source.get(claim.id),
            }
        trace = self.traceability
        return {
            "verdict": self.outcome.value,
            "label": self.label,
            "hedged": self.hedged,
            "status": self.status.value if self.status else None,
            "reasons": [r.value for r in self.reasons],
            "causes": [c.value for c in self.causes],
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
            "unmentioned": list(self.unmentioned),
            "withheld": None if self.withheld is None else self.withheld.value,
            "withheld_no": self.withheld_no,
            "paraphrased": None if self.paraphrased is None else self.paraphrased.to_dict(),
            "detail": self.detail,
        }
