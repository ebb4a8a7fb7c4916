"""The router: derive every status from the substrate; decide answer, hedged answer or abstain."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.core.decision import (
    REASON_EXPLANATIONS,
    Cause,
    Confabulation,
    Decision,
    Outcome,
    Reason,
)
from engine.core.deduction import COMPARISON_WORDS, Unlike, why_unproven
from engine.core.epistemics import (
    HonestyViolation,
    Tier,
    Verdict,
    check_honesty,
    derive_claims,
    mark_contested,
)
from engine.core.grounds import check, merge_status
from engine.core.licensing import extractively_licensed, novel_tokens, respelt, why_unlicensed
from engine.core.measured import measured_sentence
from engine.core.model import Claim, ClaimKind
from engine.core.quote import MatchMethod
from engine.core.registry import Registry
from engine.core.stance import withheld_reading
from engine.core.traceability import Traceability, check_traceability
from engine.core.verifiers import Verifier, VerifierResult
from engine.core.wire import RouteInput

__all__ = [
    "REASON_EXPLANATIONS",
    "Cause",
    "Confabulation",
    "Decision",
    "Outcome",
    "Reason",
    "route",
]


def route(
    inp: RouteInput,
    *,
    workspace: str | Path | None = None,
    verifiers: Registry[Verifier] | None = None,
) -> Decision:
    """Route a parsed payload to a decision. Deterministic; never raises on valid input.

    Each ground is checked with `verifiers` (the built-in registry by default) unless
    `inp.verified` already holds its result. The stages, in order: ground the nodes, derive
    and floor the claims, trace the prose, find what anchors the answer, then decide.
    """
    results, nodes = _ground(inp, workspace, verifiers)
    derived, floor_reasons, unproven, as_in_source = _derive(inp, nodes, results)
    dag, conclusion = inp.dag, inp.dag.conclusion
    closure_cites = dag.closure_cites(conclusion)
    floored = tuple(c.id for c in dag.claims if c.id in floor_reasons)
    found = _Derivation(
        inp=inp,
        results=results,
        nodes=nodes,
        derived=derived,
        floored=floored,
        floor_reasons=floor_reasons,
        unproven=unproven,
        as_in_source=as_in_source,
        violations=check_honesty(inp.asserted, derived),
        trace=_trace(inp, derived),
        confabulation=_anchoring(closure_cites, nodes, results),
        missing=tuple(ref for ref in closure_cites if ref not in nodes),
        refuted=tuple(r for r in closure_cites if r in results and results[r].failed),
    )
    return _decide(found)


@dataclass(frozen=True)
class _Derivation:
    """What the stages derived from one payload, before the decision is taken."""

    inp: RouteInput
    results: dict[str, VerifierResult]
    nodes: dict[str, Verdict]
    derived: dict[str, Verdict]
    floored: tuple[str, ...]
    floor_reasons: dict[str, str]  # in the order the floors were found
    unproven: dict[str, Unlike]  # why each floored deduction is not proven
    as_in_source: dict[str, str]  # claims licensed up to typos, in their source's spelling
    violations: tuple[HonestyViolation, ...]
    trace: Traceability
    confabulation: Confabulation
    missing: tuple[str, ...]
    refuted: tuple[str, ...]

    @property
    def final(self) -> Verdict:
        return self.derived[self.inp.dag.conclusion]

    def decision(
        self, outcome: Outcome, status: Tier | None, reasons: tuple[Reason, ...], detail: str
    ) -> Decision:
        return Decision(
            outcome,
            status,
            reasons,
            conclusion=self.inp.dag.conclusion,
            outdated=self.final.outdated,
            dag=self.inp.dag,
            node_verdicts=self.nodes,
            claim_verdicts=self.derived,
            verifier_results=self.results,
            traceability=self.trace,
            confabulation=self.confabulation,
            honesty_violations=self.violations,
            floored=self.floored,
            floor_reasons={cid: self.floor_reasons[cid] for cid in self.floored},
            unproven=self.unproven,
            as_in_source=self.as_in_source,
            missing_refs=self.missing,
            asserted=self.inp.asserted,
            detail=detail,
            blocking_count=self.inp.blocking_count,
            unmentioned=self.inp.unmentioned,
            withheld=self.inp.withheld,
            withheld_no=self.inp.withheld_no,
            paraphrased=self.inp.paraphrased,
            prose_restates_claims=self.trace.ok or _restates_claims(self.inp),
        )


def _ground(
    inp: RouteInput, workspace: str | Path | None, verifiers: Registry[Verifier] | None
) -> tuple[dict[str, VerifierResult], dict[str, Verdict]]:
    """Check each ground once, then merge every node with its explicit status and contests."""
    results = {
        ref: check(spec, workspace=workspace, verifiers=verifiers, known=inp.verified.get(ref))
        for ref, spec in inp.groundings.items()
    }
    nodes: dict[str, Verdict] = {}
    for ref in [*results, *(r for r in inp.node_status if r not in results)]:
        verdict = merge_status(results.get(ref), inp.node_status.get(ref))
        if verdict is not None:
            nodes[ref] = verdict
    return results, dict(mark_contested(nodes, inp.edges))


def _derive(
    inp: RouteInput, nodes: Mapping[str, Verdict], results: Mapping[str, VerifierResult]
) -> tuple[dict[str, Verdict], dict[str, str], dict[str, Unlike], dict[str, str]]:
    """Claim verdicts, with restatements their sources do not license floored, then
    deductions whose text says more than what they rest on; and why each was floored."""
    dag = inp.dag
    derived = derive_claims(dag, nodes)
    floored: dict[str, str] = {}
    as_in_source: dict[str, str] = {}
    for c in dag.claims:
        if c.kind is ClaimKind.RESTATEMENT and derived[c.id].tier.verified:
            sources = _licensing_texts(c.cites, inp, results)
            if any(extractively_licensed(c.text, text) for text in sources):
                continue
            spelt = _respelt(c, results)
            if spelt is not None:
                as_in_source[c.id] = spelt
            elif not _measured(c, inp, results):
                floored[c.id] = _unlicensed_reason(c, inp, results, sources)
    if floored:
        derived = derive_claims(dag, nodes, capped=floored)
    unproven: dict[str, Unlike] = {}
    for c in dag.claims:
        if c.kind is ClaimKind.DEDUCTION and derived[c.id].tier.verified:
            support = [dag.claim(p).text for p in c.premises]
            support += _licensing_texts(c.cites, inp, results)
            why = why_unproven(c.text, support)
            if why is not None:
                unproven[c.id] = why
                floored[c.id] = _unproven_reason(c, support, why)
    if unproven:
        derived = derive_claims(dag, nodes, capped=floored)
    return dict(derived), floored, unproven, as_in_source


def _trace(inp: RouteInput, derived: Mapping[str, Verdict]) -> Traceability:
    """The prose against the verified claims of the conclusion's closure."""
    dag = inp.dag
    closure = dag.premise_closure(dag.conclusion)
    licensing = {cid: dag.claim(cid).text for cid in closure if derived[cid].verified}
    return check_traceability(
        inp.prose,
        licensing,
        citations=dag.prose_citations,
        known={c.id: c.text for c in dag.claims},
    )


def _restates_claims(inp: RouteInput) -> bool:
    """Whether the prose restates the DAG's own claims word for word, verified or not: then
    an orphan sentence only follows from what kept its claim from being verified."""
    dag = inp.dag
    texts = {c.id: c.text for c in dag.claims}
    return check_traceability(inp.prose, texts, citations=dag.prose_citations, known=texts).ok


def _anchoring(
    closure_cites: tuple[str, ...],
    nodes: Mapping[str, Verdict],
    results: Mapping[str, VerifierResult],
) -> Confabulation:
    """The closed-book signal: whether anything retrieved and verified anchors the answer."""
    anchored = any(ref in nodes and nodes[ref].verified for ref in closure_cites) or any(
        r.ok for r in results.values()
    )
    if anchored:
        return Confabulation(False, "answer anchored in verified retrieved material")
    return Confabulation(True, "no verified retrieved ground anchors the answer")


def _decide(found: _Derivation) -> Decision:
    """Answer, hedged answer or abstain, with the reasons in their fixed order."""
    inp, final = found.inp, found.final
    conclusion = inp.dag.conclusion
    reasons: set[Reason] = set()
    if found.missing:
        reasons.add(Reason.MISSING_HOP)
    if final.stale:
        reasons.add(Reason.STALE)
    if found.refuted:
        reasons.add(Reason.FALSE_PREMISE)
    structural = bool(reasons)
    trace = found.trace
    unsaid = bool(inp.unmentioned) and not final.verified
    if not trace.ok or inp.blocking_count > 0 or unsaid or (not final.verified and not structural):
        reasons.add(Reason.LOW_COVERAGE)
    ordered = tuple(r for r in Reason if r in reasons)
    disclosure = "; grounded as of a superseded pin (outdated)" if final.outdated else ""
    if not ordered and final.verified and not found.violations and trace.ok:
        if inp.paraphrased is not None:
            # Confirmed text the trained reader reads as an answer in other words: the
            # reader never makes anything green, so it stands hedged with its measure.
            named = f"; {_unmentioned(inp)}" if inp.unmentioned else ""
            detail = f"hedged: {inp.paraphrased.words}{named}{disclosure}"
            return found.decision(Outcome.ANSWER, Tier.INFERRED, (), detail)
        if inp.unmentioned:
            # Confirmed text that never uses a word the question asks about answers a
            # neighbouring question: it stands, but not green.
            detail = f"hedged: {_unmentioned(inp)}{disclosure}"
            return found.decision(Outcome.ANSWER, Tier.INFERRED, (), detail)
        if inp.withheld is not None:
            # Confirmed text that says less than the question's yes (hedged, conditioned,
            # turned around) answers it only as far as it goes: it stands, but not green.
            reading = withheld_reading(inp.withheld, withheld_no=inp.withheld_no)
            detail = f"hedged: not a {reading} to what was asked: {inp.withheld.words}{disclosure}"
            return found.decision(Outcome.ANSWER, Tier.INFERRED, (), detail)
        detail = f"conclusion {conclusion!r} is {final.wire().value}{disclosure}"
        return found.decision(Outcome.ANSWER, final.wire(), (), detail)
    closure = inp.dag.premise_closure(conclusion)
    hedgeable = (
        final.wire() is Tier.INFERRED
        and not structural
        and not (final.contested or final.unresolved)
        and not found.violations
        and trace.ok
        and inp.blocking_count == 0
        # An inference whose text never says what the question asks about is off the
        # question twice over: it abstains.
        and not inp.unmentioned
        and inp.withheld is None
        and not found.confabulation.closed_book
        and any(found.derived[cid].verified for cid in closure if cid != conclusion)
    )
    if hedgeable:
        detail = (
            f"hedged: conclusion {conclusion!r} extrapolates beyond its verified "
            f"premises (inferred){disclosure}"
        )
        return found.decision(Outcome.ANSWER, Tier.INFERRED, (), detail)
    return found.decision(
        Outcome.ABSTAIN, None, ordered or (Reason.LOW_COVERAGE,), _abstain_detail(found)
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


def _respelt(claim: Claim, results: Mapping[str, VerifierResult]) -> str | None:
    """The claim in its source's spelling, when it restates a quote found by the typo-tolerant
    match with that match's tolerance (typos inside words only)."""
    for ref in claim.cites:
        result = results.get(ref)
        if result is None or not result.ok or result.method != MatchMethod.FUZZY:
            continue
        if result.confirmed_source_text and (
            spelt := respelt(claim.text, result.confirmed_source_text)
        ):
            return spelt
    return None


def _measured(claim: Claim, inp: RouteInput, results: Mapping[str, VerifierResult]) -> bool:
    """Whether the claim states exactly what a cited recomputation reproduced."""
    for ref in claim.cites:
        result, spec = results.get(ref), inp.groundings.get(ref)
        if result is None or spec is None or not result.ok or spec.type != "expr-recompute":
            continue
        agg, value = spec.payload.get("agg"), spec.payload.get("value")
        if not isinstance(agg, str) or not isinstance(value, int | float) or value is True:
            continue
        if value is not False and measured_sentence(claim.text, agg, float(value)):
            return True
    return False


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


# Words for why two premises' numbers are not compared, made from the value.
_UNLIKE_WORDS = {
    Unlike.FRAME: "its premises do not say the same thing of their subjects (a scope, "
    "condition or time frame holds on one side only, or the comparison drops it)",
    Unlike.NOT_MAGNITUDE: "the numbers it compares are ranks, positions, years, dates or "
    "durations, not amounts to compare as more or less",
    Unlike.UNITS: "the numbers it compares are not in one unit",
    Unlike.DOES_NOT_HOLD: "the comparison it draws does not follow from their numbers "
    "(signs read as displayed)",
}


def _unproven_reason(claim: Claim, support: list[str], why: Unlike) -> str:
    """Why a deduction is not proven from what it rests on, naming new words when there are."""
    said = f"deduction {claim.id} is not proven from what it rests on: "
    if why in _UNLIKE_WORDS:
        return said + _UNLIKE_WORDS[why]
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


def _unmentioned(inp: RouteInput) -> str:
    """The question words the cited sources never use, in words."""
    named = ", ".join(f"'{w}'" for w in inp.unmentioned[:4])
    more = f" (and {len(inp.unmentioned) - 4} more)" if len(inp.unmentioned) > 4 else ""
    return f"the answer never says {named}{more}, which the question asks about"


def _abstain_detail(found: _Derivation) -> str:
    """Everything that kept the answer back, in a fixed order, in a few words each."""
    final, trace = found.final, found.trace
    gaps = _gaps(found.inp)
    bits = [gaps] if gaps else []
    if found.inp.unmentioned and not final.verified:
        bits.append(_unmentioned(found.inp))
    if found.missing:
        bits.append(f"no verdict for cited {', '.join(found.missing)}")
    if final.stale:
        bits.append("the conclusion rests on a stale tether")
    if found.refuted:
        bits.append(f"a verifier refuted {', '.join(found.refuted)}")
    if found.floor_reasons:
        bits.append("floored to inferred: " + "; ".join(found.floor_reasons.values()))
    if final.contested:
        bits.append("the conclusion rests on a contested node")
    if final.unresolved and not found.missing:
        bits.append("the conclusion rests on an unresolved ground")
    if not final.verified and not bits:
        bits.append(f"the conclusion is only {final.wire().value}")
    if not trace.ok:
        bits.append(trace.detail or "prose not licensed by a single verified claim")
    if found.violations:
        bits.append(
            "asserted status above derived for " + ", ".join(v.claim for v in found.violations)
        )
    return "; ".join(bits)
