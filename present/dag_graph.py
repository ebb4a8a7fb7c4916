"""The reasoning DAG as a graph page: claims coloured by derived status, what they cite."""

from __future__ import annotations

from engine import (
    Claim,
    Decision,
    HonestyViolation,
    NavResult,
    Verdict,
    VerifierResult,
    VerifierStatus,
    shorten,
)
from present.checks import floor_note
from present.graph_page import PREMISE_EDGE, network, render
from present.graphs import label_text
from present.markup import esc, flag_mark, status_colours, unknown_colour, violation_mark
from present.missing import missing_node


def dag_html(result: NavResult, *, height: int = 520, library: str | None = None) -> str:
    """The claims coloured by derived status, with their premises and the nodes they cite.

    The page loads the graph library from `library` (see `graph_page.render`), else inline.
    """
    net = network(height, hierarchical=True, library=library)
    decision = result.decision
    if decision is None:
        return render(net, library)
    dag = decision.dag
    violated = {v.claim: v for v in decision.honesty_violations}
    for claim in dag.claims:
        cid = claim.id
        verdict = decision.claim_verdicts.get(cid)
        flags = list(verdict.flags()) if verdict else []
        status = verdict.wire().value if verdict else ""
        violation = violated.get(cid)
        head = f"<b>{label_text(cid)}</b> · {label_text(claim.kind.value)}"
        if violation:
            head = "⚠ " + head
        # vis wraps the text to the box's maximum width.
        body = label_text(shorten(claim.text, 110))
        tail = f"\n<i>{label_text(', '.join(flags))}</i>" if flags else ""
        border = violation_mark.colour if violation else (flag_mark.colour if flags else "#333")
        net.add_node(
            f"claim:{cid}",
            label=f"{head}\n{body}{tail}",
            tip=_claim_tip(claim, decision, violation),
            shape="box",
            margin=10,
            widthConstraint={"maximum": 240},
            borderWidth=5 if violation else (3 if flags else 1),
            color={
                "background": status_colours.get(status, unknown_colour),
                "border": border,
            },
            font={
                "color": "#ffffff" if status in ("measured", "grounded", "assumption") else "#222",
                "size": 15 if cid == dag.conclusion else 13,
            },
            shapeProperties={"borderDashes": [6, 4] if flags and not violation else False},
        )
    refs = dict.fromkeys(r for c in dag.claims for r in c.cites)
    missing = set(decision.missing_refs)
    for ref in refs:
        if ref in missing:
            missing_node(net, result, ref)
            continue
        node = decision.node_verdicts.get(ref)
        check = decision.verifier_results.get(ref)
        marks = list(node.flags()) if node else ["no verdict"]
        if check is not None and check.status is VerifierStatus.FAILED:
            marks.append("refuted")
        tail = f"\n<i>{label_text(', '.join(marks))}</i>" if marks else ""
        colour = status_colours.get(node.wire().value if node else "", unknown_colour)
        net.add_node(
            f"cite:{ref}",
            label=label_text(ref) + tail,
            tip=_cite_tip(ref, node, check),
            shape="ellipse",
            borderWidth=3 if marks else 2,
            color={"background": "#ffffff", "border": flag_mark.colour if marks else colour},
            font={"color": "#222222", "size": 12},
            shapeProperties={"borderDashes": [6, 4] if marks else False},
        )
    for claim in dag.claims:
        cid = f"claim:{claim.id}"
        for premise in claim.premises:
            net.add_edge(cid, f"claim:{premise}", label="rests on", color=PREMISE_EDGE)
        for ref in claim.cites:
            net.add_edge(cid, f"cite:{ref}", label="cites", color="#9a9a9a", dashes=True)
    return render(net, library)


def _claim_tip(claim: Claim, decision: Decision, violation: HonestyViolation | None) -> str:
    lines = [f"<b>{esc(claim.id)}</b> ({esc(claim.kind.value)})", esc(claim.text)]
    verdict = decision.claim_verdicts.get(claim.id)
    status = verdict.wire().value if verdict else "no verdict"
    flags = ", ".join(verdict.flags()) if verdict else ""
    lines.append(f"derived: <b>{esc(status)}</b>" + (f" · {esc(flags)}" if flags else ""))
    if asserted := decision.asserted.get(claim.id):
        lines.append(f"asserted: {esc(asserted.value)}")
    if claim.id in decision.floored:
        lines.append(esc(floor_note(decision, claim.id)))
    if violation:
        lines.append(
            f"⚠ honesty: asserted {esc(violation.asserted.value)} above derived "
            f"{esc(violation.derived.value)}"
        )
    return "<br>".join(lines)


def _cite_tip(ref: str, node: Verdict | None, check: VerifierResult | None) -> str:
    lines = [f"<code>{esc(ref)}</code>"]
    if node is None:
        lines.append("no verdict: a missing hop")
    else:
        flags = ", ".join(node.flags())
        lines.append(
            f"node: <b>{esc(node.wire().value)}</b>" + (f" · {esc(flags)}" if flags else "")
        )
    if check is not None:
        method = f" ({esc(check.method)})" if check.method else ""
        lines.append(f"verifier: {esc(check.status.value)}{method}")
        if check.detail:
            lines.append(esc(check.detail))
        if check.near_miss:
            lines.append(f"near miss: “{esc(check.near_miss)}”")
    return "<br>".join(lines)
