"""The router: derive every status from the substrate; decide answer, hedged answer or abstain."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from engine.core.deduction import COMPARISON_WORDS, prove
from engine.core.epistemics import (
    HonestyViolation,
    Tier,
    Verdict,
    check_honesty,
    derive_claims,
    mark_contested,
)
from engine.core.grounds import check, merge_status
from engine.core.licensing import extractively_licensed, novel_tokens, why_unlicensed
from engine.core.model import Claim, ClaimKind, ReasoningDAG
from engine.core.registry import Registry
from engine.core.traceability import Traceability, check_traceability
from engine.core.verifiers import Verifier, VerifierResult
from engine.core.wire import RouteInput


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

    def to_dict(self) -> dict:
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

    def to_dict(self) -> dict:
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


def route(
    inp: RouteInput,
    *,
    workspace: str | Path | None = None,
    verifiers: Registry[Verifier] | None = None,
) -> Decision:
    """Route a parsed payload to a decision. Deterministic; never raises on valid input.

    Each ground is checked with `verifiers` (the built-in registry by default) unless
    `inp.verified` already holds its result.
    """
    dag, conclusion = inp.dag, inp.dag.conclusion

    # 1. Ground each node (once), then merge it with its explicit status.
    results = {
        ref: check(spec, workspace=workspace, verifiers=verifiers, known=inp.verified.get(ref))
        for ref, spec in inp.groundings.items()
    }
    nodes = {}
    for ref in [*results, *(r for r in inp.node_status if r not in results)]:
        verdict = merge_status(results.get(ref), inp.node_status.get(ref))
        if verdict is not None:
            nodes[ref] = verdict
    nodes = mark_contested(nodes, inp.edges)

    # 2. Derive claim verdicts, floor restatements their sources do not license, then
    # deductions whose text says more than what they rest on.
    derived = derive_claims(dag, nodes)
    reasons_floored: dict[str, str] = {}
    for c in dag.claims:
        if c.kind is ClaimKind.RESTATEMENT and derived[c.id].tier.verified:
            sources = _licensing_texts(c.cites, inp, results)
            if not any(extractively_licensed(c.text, text) for text in sources):
                reasons_floored[c.id] = _unlicensed_reason(c, inp, results, sources)
    if reasons_floored:
        derived = derive_claims(dag, nodes, capped=reasons_floored)
    deductions = {}
    for c in dag.claims:
        if c.kind is ClaimKind.DEDUCTION and derived[c.id].tier.verified:
            support = [dag.claim(p).text for p in c.premises]
            support += _licensing_texts(c.cites, inp, results)
            if prove(c.text, support) is None:
                deductions[c.id] = _unproven_reason(c, support)
    if deductions:
        reasons_floored.update(deductions)
        derived = derive_claims(dag, nodes, capped=reasons_floored)
    floored = tuple(c.id for c in dag.claims if c.id in reasons_floored)
    violations = check_honesty(inp.asserted, derived)

    # 3. Prose must trace to verified claims in the conclusion's closure.
    closure = dag.premise_closure(conclusion)
    licensing = {cid: dag.claim(cid).text for cid in closure if derived[cid].verified}
    trace = check_traceability(
        inp.prose,
        licensing,
        citations=dag.prose_citations,
        known={c.id: c.text for c in dag.claims},
    )

    # 4. Closed-book signal: nothing retrieved and verified anchors the answer.
    closure_cites = dag.closure_cites(conclusion)
    anchored = any(ref in nodes and nodes[ref].verified for ref in closure_cites) or any(
        r.ok for r in results.values()
    )
    confab = Confabulation(
        closed_book=not anchored,
        detail=(
            "answer anchored in verified retrieved material"
            if anchored
            else "no verified retrieved ground anchors the answer"
        ),
    )

    # 5. Reasons, then the decision.
    final = derived[conclusion]
    missing = tuple(ref for ref in closure_cites if ref not in nodes)
    refuted = tuple(ref for ref in closure_cites if ref in results and results[ref].failed)
    reasons: set[Reason] = set()
    if missing:
        reasons.add(Reason.MISSING_HOP)
    if final.stale:
        reasons.add(Reason.STALE)
    if refuted:
        reasons.add(Reason.FALSE_PREMISE)
    structural = bool(reasons)
    if not trace.ok or inp.blocking_count > 0 or (not final.verified and not structural):
        reasons.add(Reason.LOW_COVERAGE)
    ordered = tuple(r for r in Reason if r in reasons)

    common = dict(
        conclusion=conclusion,
        outdated=final.outdated,
        dag=dag,
        node_verdicts=nodes,
        claim_verdicts=derived,
        verifier_results=results,
        traceability=trace,
        confabulation=confab,
        honesty_violations=violations,
        floored=floored,
        floor_reasons={cid: reasons_floored[cid] for cid in floored},
        missing_refs=missing,
        asserted=inp.asserted,
    )
    disclosure = "; grounded as of a superseded pin (outdated)" if final.outdated else ""
    if not ordered and final.verified and not violations and trace.ok:
        return Decision(
            Outcome.ANSWER,
            final.wire(),
            (),
            detail=f"conclusion {conclusion!r} is {final.wire().value}{disclosure}",
            **common,
        )
    hedgeable = (
        final.wire() is Tier.INFERRED
        and not structural
        and not (final.contested or final.unresolved)
        and not violations
        and trace.ok
        and inp.blocking_count == 0
        and not confab.closed_book
        and any(derived[cid].verified for cid in closure if cid != conclusion)
    )
    if hedgeable:
        return Decision(
            Outcome.ANSWER,
            Tier.INFERRED,
            (),
            detail=(
                f"hedged: conclusion {conclusion!r} extrapolates beyond its verified "
                f"premises (inferred){disclosure}"
            ),
            **common,
        )
    return Decision(
        Outcome.ABSTAIN,
        None,
        ordered or (Reason.LOW_COVERAGE,),
        detail=_abstain_detail(
            missing,
            refuted,
            trace,
            violations,
            final=final,
            floored=reasons_floored,
            gaps=_gaps(inp),
        ),
        **common,
    )


def _licensing_texts(
    cites: tuple[str, ...], inp: RouteInput, results: Mapping[str, VerifierResult]
) -> list[str]:
    """What may license a claim citing `cites`: only text confirmed against a source.

    A checked node licenses only what its verifier confirmed (a found quote, a highlight, a
    tethered file's text, a recomputed figure in words), never the rest of its body: those
    are its author's words. A node with no grounding but an explicit verified status was
    checked elsewhere, and the payload vouches for its body as that checked text.
    """
    out = []
    for ref in cites:
        result = results.get(ref)
        if result is not None:
            confirmed = result.confirmed_source_text if result.ok else None
            if confirmed and confirmed.strip():
                out.append(confirmed)
            continue
        status = inp.node_status.get(ref)
        body = inp.node_bodies.get(ref, "")
        if status is not None and status.tier.verified and body.strip():
            out.append(body)
    return out


def _unlicensed_reason(
    claim: Claim, inp: RouteInput, results: Mapping[str, VerifierResult], sources: list[str]
) -> str:
    """Why a restatement is not licensed, in a few words naming what changed or was unchecked."""
    for ref in claim.cites:
        result = results.get(ref)
        body = inp.node_bodies.get(ref, "")
        if result is not None and body.strip() and extractively_licensed(claim.text, body):
            what = _CHECKED.get(inp.groundings[ref].type, "its ground")
            return f"{claim.id} is the note's own text; only {what} was checked against the source"
    shown = sources or _quoted_sources(claim.cites, inp)
    return f"{claim.id} {why_unlicensed(claim.text, shown)}"


# What each built-in verifier checks, for the floor reason of a note's own sentence.
_CHECKED = {
    "quote": "its quote",
    "expr-recompute": "the figure it recomputes",
    "equation": "its equation",
    "figure": "that its figure file is an image",
    "decision-tree": "the clause its decision tree reaches",
    "decision_tree": "the clause its decision tree reaches",
    "tether": "its tethered file",
}


def _quoted_sources(cites: tuple[str, ...], inp: RouteInput) -> list[str]:
    """The full texts cited quotes were checked against, to explain a floor (never to license)."""
    out = []
    for ref in cites:
        spec = inp.groundings.get(ref)
        fulltext = spec.payload.get("fulltext") if spec is not None else None
        if isinstance(fulltext, str) and fulltext.strip():
            out.append(fulltext)
    return out


def _unproven_reason(claim: Claim, support: list[str]) -> str:
    """Why a deduction is not proven from what it rests on, naming new words when there are."""
    said = f"deduction {claim.id} is not proven from what it rests on: "
    novel = novel_tokens(claim.text, support)
    if novel and set(novel) <= COMPARISON_WORDS:
        return said + "the comparison it draws does not follow from their numbers"
    if novel:
        shown = ", ".join(f'"{token}"' for token in novel[:6])
        more = " …" if len(novel) > 6 else ""
        return said + f"it says {shown}{more}, which nothing it rests on says"
    return said + (
        "it neither restates one of them nor follows from a comparison of their numbers "
        "(shared words prove nothing: order, negation, roles or numbers may have changed)"
    )


def _gaps(inp: RouteInput) -> str:
    """The coverage report's blocking gap in words: the question terms never mentioned."""
    if inp.blocking_count <= 0:
        return ""
    if not inp.uncovered:
        return f"the coverage report shows {inp.blocking_count} blocking gap(s)"
    named = ", ".join(f"'{w}'" for w in inp.uncovered[:4])
    more = f" (and {len(inp.uncovered) - 4} more)" if len(inp.uncovered) > 4 else ""
    return f"the answer never mentions {named}{more}, which the question asks about"


def _abstain_detail(missing, refuted, trace, violations, *, final, floored, gaps="") -> str:
    bits = [gaps] if gaps else []
    if missing:
        bits.append(f"no verdict for cited {', '.join(missing)}")
    if final.stale:
        bits.append("the conclusion rests on a stale tether")
    if refuted:
        bits.append(f"a verifier refuted {', '.join(refuted)}")
    if floored:
        bits.append("floored to inferred: " + "; ".join(floored.values()))
    if final.contested:
        bits.append("the conclusion rests on a contested node")
    if final.unresolved and not missing:
        bits.append("the conclusion rests on an unresolved ground")
    if not final.verified and not bits:
        bits.append(f"the conclusion is only {final.wire().value}")
    if not trace.ok:
        bits.append(trace.detail or "prose not licensed by a single verified claim")
    if violations:
        bits.append("asserted status above derived for " + ", ".join(v.claim for v in violations))
    return "; ".join(bits)
