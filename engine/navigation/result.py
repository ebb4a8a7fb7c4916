"""Everything one navigation produced, as one value: decision, draft, neighbourhood and trace."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.decision import Cause
from engine.core.reads import FileRead
from engine.core.router import Decision
from engine.core.stance import Stance
from engine.core.wire import RouteInput, parse_payload
from engine.navigation.budget import Budget
from engine.navigation.coverage import CoverageReport
from engine.navigation.outcomes import AlsoStated, Failure, GiveUp
from engine.navigation.steps import Step
from engine.navigation.substrate import Neighbourhood


@dataclass(frozen=True)
class NavResult:
    """Everything one navigation produced: decision, draft, neighbourhood and trace."""

    question: str
    reasoner: str
    budget: Budget
    neighbourhood: Neighbourhood
    steps: tuple[Step, ...]
    decision: Decision | None = None
    route_input: RouteInput | None = None
    coverage: CoverageReport | None = None
    failure: Failure | None = None
    latency_ms: float = 0.0
    stance: Stance | None = None
    given_up: GiveUp | None = None
    # Other papers that state the answer's sentence word for word (the first is cited).
    also_stated: AlsoStated | None = None
    # The payload as submitted, for an answer routed from the wire rather than walked.
    submitted: Mapping[str, Any] | None = None
    # Every workspace file the walk's checks read, with the hash of the bytes read then.
    reads: tuple[FileRead, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_route(cls, decision: Decision, payload: Mapping[str, Any]) -> NavResult:
        """A routed wire payload as an answer with no walk behind it (the Audit page)."""
        return cls(
            question="",
            reasoner="audit",
            budget=Budget(),
            neighbourhood=Neighbourhood(),
            steps=(),
            decision=decision,
            route_input=parse_payload(payload),
            submitted=payload,
        )

    @property
    def label(self) -> str:
        return self.decision.label if self.decision else "ABSTAIN"

    @property
    def payload(self) -> dict[str, Any] | None:
        """The wire payload the answer was routed from (for output), or None."""
        if self.submitted is not None:
            return dict(self.submitted)
        if self.route_input is None:
            return None
        inp = self.route_input
        out = inp.to_dict()
        if self.coverage is not None:
            # The gaps as routed (a paraphrase names its salient gaps instead of stopping
            # on them), so that routed again the payload stands as it stood.
            out["coverage_report"] = self.coverage.to_dict() | {
                "blocking_count": inp.blocking_count,
                "uncovered": list(inp.uncovered),
                "unmentioned": list(inp.unmentioned),
            }
        return out

    @property
    def gaps(self) -> tuple[str, ...]:
        """Question words the answer never says that kept it back, as the user typed them.

        The rare words nothing cited mentions; for an abstention, also the words its quoted
        text leaves unsaid.
        """
        if self.coverage is not None:
            gaps = self.coverage.uncovered
            if self.decision is not None and not self.decision.answered:
                gaps += tuple(w for w in self.coverage.unmentioned if w not in gaps)
            return gaps
        return self.route_input.uncovered if self.route_input is not None else ()

    @property
    def causes(self) -> tuple[Cause, ...]:
        """Why an abstention was kept back, in the router's order; () for an answer.

        The decision's causes, with the question's gaps (`gaps`) counted as an uncovered
        term even where the reasoner gave up before routing them.
        """
        decision = self.decision
        if decision is None or decision.answered:
            return ()
        found = set(decision.causes)
        if self.gaps:
            found.add(Cause.UNCOVERED_TERM)
            found.discard(Cause.UNVERIFIED_CONCLUSION)
        return tuple(c for c in Cause if c in found)

    @property
    def prose(self) -> str:
        """The answer's prose as the reasoner wrote it; "" when there is none."""
        if self.route_input is not None:
            return self.route_input.prose
        prose = (self.submitted or {}).get("prose", "")
        return prose if isinstance(prose, str) else ""

    @property
    def spelt_prose(self) -> str:
        """The prose as a reader is shown it: each claim the router licensed only in its
        source's spelling (a typo-tolerant quote) written as the source spells it, so no
        page or report shows a word the source does not say."""
        prose, decision = self.prose, self.decision
        if decision is None or not decision.as_in_source:
            return prose
        spans = sorted(decision.dag.prose_citations, key=lambda c: c.start, reverse=True)
        if not spans:
            texts = {c.id: c.text for c in decision.dag.claims}
            for cid, spelt in decision.as_in_source.items():
                prose = prose.replace(texts[cid], spelt) if texts.get(cid) else prose
            return prose
        for cite in spans:  # from the end, so the offsets before each still hold
            said = prose[cite.start : cite.end]
            prose = prose[: cite.start] + self.shown_as(cite.claim, said) + prose[cite.end :]
        return prose

    def shown_as(self, claim_id: str, said: str) -> str:
        """A span of prose citing `claim_id` as a reader is shown it: the claim as its source
        spells it where the span restates a claim the router licensed only so, else `said`."""
        decision = self.decision
        spelt = decision.as_in_source.get(claim_id) if decision is not None else None
        if spelt is None or decision is None:
            return said
        claim = next((c for c in decision.dag.claims if c.id == claim_id), None)
        return spelt if claim is not None and said.strip() == claim.text.strip() else said

    @property
    def cited(self) -> tuple[str, ...]:
        """Every node the conclusion rests on; empty without a decision."""
        return self.decision.cited if self.decision else ()

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """JSON-ready result; without `timings` it is identical across identical runs."""
        decision = self.decision.to_dict() if self.decision else _failed_decision(self.failure)
        dag = self.decision.dag if self.decision else None
        payload = self.payload
        steps = [s.to_dict() for s in self.steps]
        if not timings:
            for step in steps:
                step.pop("ms")
        out: dict[str, Any] = {
            "question": self.question,
            "reasoner": self.reasoner,
            "budget": self.budget.to_dict(),
            "cited": list(self.cited),
            "stance": self.stance.to_dict() if self.stance else None,
            "prose": self.prose,
            "dag": dag.to_dict() if dag else None,
            "decision": decision,
            "payload": payload,
            "failure": self.failure.message if self.failure else None,
            "failure_kind": self.failure.kind.value if self.failure else None,
            "given_up": self.given_up.to_dict() if self.given_up else None,
            "also_stated": self.also_stated.to_dict() if self.also_stated else None,
            "trace": steps,
            "neighbourhood": {
                "nodes": [n.to_dict() for n in self.neighbourhood.nodes.values()],
                "edges": [e.to_dict() for e in self.neighbourhood.edges],
                "hops": dict(self.neighbourhood.hops),
                "expanded": sorted(self.neighbourhood.expanded),
            },
        }
        if timings:
            out["latency_ms"] = round(self.latency_ms, 3)
        return out

    def to_json(self, *, timings: bool = True) -> str:
        return json.dumps(self.to_dict(timings=timings), sort_keys=True, ensure_ascii=False)


def _failed_decision(failure: Failure | None) -> dict[str, Any]:
    return {
        "verdict": "abstain",
        "label": "ABSTAIN",
        "status": None,
        "reasons": ["low-coverage"],
        "detail": failure.message if failure else "no answer was produced",
    }
