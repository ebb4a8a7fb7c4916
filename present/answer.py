"""Plain words for a verdict: why it was reached, where the evidence stands, what may be shown.

Every sentence here is built from the decision's own derivation (the coverage report, the
verifier results, the flags, the contradicting edges, the reasoner's note) and names notes
by their titles, never by internal claim ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from present.markup import esc

MATRIX_PAGE = "pages/claim_matrix.py"


@dataclass(frozen=True)
class Failure:
    """Why a run produced no routed answer, by kind: what happened and what the user can do."""

    kind: str  # reasoner-error | invalid-output | budget | nothing-found | empty | internal
    head: str
    text: str


@dataclass(frozen=True)
class StanceLine:
    """The stance beside the verdict: its tone and one sentence."""

    tone: str
    text: str


@dataclass(frozen=True)
class AnswerArea:
    """What the answer area shows: a heading, whether it is licensed, and the HTML body."""

    heading: str
    licensed: bool
    html: str


def titles(result: Mapping) -> dict[str, str]:
    """Node address -> title, from the neighbourhood the run walked."""
    nodes = ((result.get("neighbourhood") or {}).get("nodes")) or []
    return {n["address"]: n.get("title") or n["address"] for n in nodes if n.get("address")}


def name_of(result: Mapping, ref: str) -> str:
    """A node as a reader knows it: its title in quotes, else its address."""
    title = titles(result).get(ref)
    return f"“{title}”" if title and title != ref else ref


def failure(result: Mapping) -> Failure | None:
    """The run's failure, classified; None when the router decided."""
    text = result.get("failure") or ""
    if not text or (result.get("decision") or {}).get("claims"):
        return None
    if text.startswith(("model endpoint failed", "reasoner error")) or "unavailable" in text:
        return Failure(
            "reasoner-error",
            "the reasoner failed",
            f"The reasoner could not be reached or failed ({text}). Check the endpoint URL, "
            "model name and API key in the sidebar, or switch to the offline reasoner.",
        )
    if text.startswith("model output invalid"):
        return Failure(
            "invalid-output",
            "the model's reply was unusable",
            f"The model replied, but not with a valid reasoning DAG ({text}). Try again, "
            "or use a model that follows JSON instructions.",
        )
    if "step budget" in text:
        return Failure(
            "budget",
            "step budget exhausted",
            f"The navigator ran out of steps before the reasoner answered ({text}). "
            "Raise the step budget in the sidebar to let it look further.",
        )
    if text.startswith("nothing checkable"):
        return Failure(
            "nothing-found",
            "nothing relevant found",
            "Nothing the knowledge base holds that could be checked matched the question.",
        )
    if text == "empty question":
        return Failure("empty", "no question", "Type a question first.")
    return Failure("internal", "the run failed", f"The run failed inside: {text}.")


def coverage_gaps(result: Mapping) -> tuple[str, ...]:
    """Salient question terms the answer never mentions, from the coverage report."""
    report = (result.get("payload") or {}).get("coverage_report") or {}
    return tuple(report.get("uncovered") or ())


def reason_lines(
    result: Mapping, name: str, *, confirmed: Iterable[tuple[str, str]] = ()
) -> list[str]:
    """One concrete sentence per thing in the derivation that triggered abstain reason `name`."""
    decision = result.get("decision") or {}
    checks = decision.get("verifiers") or {}
    nodes = decision.get("nodes") or {}
    lines: list[str] = []
    if name == "missing-hop":
        for ref in decision.get("missing_refs") or []:
            lines.append(
                f"The answer cites {name_of(result, ref)}, but it was never checked: nothing "
                "says whether it holds."
            )
    elif name == "stale":
        for ref, node in nodes.items():
            if "stale" in (node.get("flags") or []):
                lines.append(
                    f"{name_of(result, ref)} is tethered to a file whose anchored text is gone."
                )
    elif name == "false-premise":
        for ref, check in checks.items():
            if check.get("status") == "failed":
                why = check.get("detail") or "refuted"
                line = f"The check of {name_of(result, ref)} failed: {why}"
                if check.get("near_miss"):
                    line += f"; the nearest text in the source is “{check['near_miss']}”"
                lines.append(line + ".")
    elif name == "low-coverage":
        lines.extend(_coverage_lines(result, decision, confirmed=set(confirmed)))
    return lines


def _coverage_lines(result: Mapping, decision: Mapping, *, confirmed: set) -> Iterable[str]:
    gaps = coverage_gaps(result)
    if gaps:
        named = ", ".join(f"‘{g}’" for g in gaps)
        yield f"The answer never mentions {named}, which the question asks about."
    note = result.get("reasoner_note") or ""
    if note.startswith("gave up:"):
        said = note.removeprefix("gave up:").strip()
        if gaps:  # the missing terms were just named; say only how close it came
            said = said.split(" and never mentions ")[0] + "; too weak to restate as an answer"
        yield "The reasoner gave up: " + said + "."
    claims = decision.get("claims") or {}
    final = claims.get(decision.get("conclusion")) or {}
    flags = set(final.get("flags") or [])
    if "contested" in flags:
        yield from contested_lines(result, confirmed=confirmed)
    if "unresolved" in flags and not decision.get("missing_refs"):
        yield "The answer rests on a ground that could not be resolved (its file is missing)."
    if (
        final
        and final.get("status") not in ("measured", "grounded")
        and not note.startswith("gave up:")
        and not flags
    ):
        yield (
            "The conclusion goes beyond what its sources say (it is an inference) and no "
            "verified premise backs it."
        )
    texts = {c["id"]: c.get("text", "") for c in (result.get("dag") or {}).get("claims") or []}
    for cid in decision.get("floored") or []:
        yield f"The sentence “{texts.get(cid, '')}” is not found word for word in what it cites."
    trace = decision.get("traceability") or {}
    if trace and not trace.get("ok", True):
        why = trace.get("detail") or "not licensed"
        yield f"The prose says something no single verified claim licenses: {why}."
    for v in decision.get("honesty_violations") or []:
        yield (
            f"The reasoner asserted “{texts.get(v['claim'], v['claim'])}” as {v['asserted']}, "
            f"but only {v['derived']} could be derived."
        )
    if (decision.get("confabulation") or {}).get("closed_book"):
        yield "Nothing verified that was retrieved anchors the answer (closed book)."


def contested_lines(result: Mapping, *, confirmed: set) -> Iterable[str]:
    """Which note contests a cited node, and whether a reviewer confirmed that contradiction."""
    decision = result.get("decision") or {}
    edges = (result.get("payload") or {}).get("edges") or []
    flagged = [
        ref
        for ref, node in (decision.get("nodes") or {}).items()
        if "contested" in (node.get("flags") or [])
    ]
    for ref in flagged:
        against = [
            e for e in edges if e.get("relation") == "contradicts" and ref in (e["src"], e["dst"])
        ]
        if not against:
            yield f"{name_of(result, ref)} is contested."
            continue
        for edge in against:
            other = edge["dst"] if edge["src"] == ref else edge["src"]
            status = (
                "confirmed by a reviewer"
                if (edge["src"], edge["dst"]) in confirmed
                else "not yet reviewed"
            )
            yield (
                f"The answer cites {name_of(result, ref)}, which the note {name_of(result, other)} "
                f"contradicts ({status}); review it on the Claim matrix page."
            )


def contested_pairs(result: Mapping) -> list[tuple[str, str]]:
    """(practice, canon) address pairs of the contradictions that contest a cited node."""
    edges = (result.get("payload") or {}).get("edges") or []
    nodes = (result.get("decision") or {}).get("nodes") or {}
    flagged = {r for r, n in nodes.items() if "contested" in (n.get("flags") or [])}
    return [
        (e["src"], e["dst"])
        for e in edges
        if e.get("relation") == "contradicts" and (e["src"] in flagged or e["dst"] in flagged)
    ]


def summary(result: Mapping, *, confirmed: Iterable[tuple[str, str]] = ()) -> str:
    """The banner's plain-words sentence after the label."""
    label = result.get("label") or "ABSTAIN"
    broken = failure(result)
    if broken is not None:
        return broken.text
    decision = result.get("decision") or {}
    if label == "ANSWER":
        cited = ", ".join(name_of(result, r) for r in result.get("cited") or [])
        text = (
            f"Every sentence of the answer is quoted from verified text of {cited or 'its sources'}"
        )
        return (
            text + ", and with the notes it cites it mentions every salient term of the question."
        )
    if label == "HEDGED ANSWER":
        premises = _verified_premises(result)
        named = ", ".join(name_of(result, r) for r in premises) or "its verified premises"
        return (
            "The conclusion is an inference: it goes beyond what the sources say, and rests "
            f"on verified premises from {named}."
        )
    lines = []
    for name in result.get("reasons") or []:
        lines.extend(reason_lines(result, name, confirmed=confirmed))
    return " ".join(dict.fromkeys(lines)) or (decision.get("detail") or "")


def answered_lines(result: Mapping) -> list[str]:
    """Why an answer was allowed: the question terms it covers and each cited check."""
    lines = []
    report = (result.get("payload") or {}).get("coverage_report") or {}
    salient = [t["word"] for t in report.get("terms") or [] if t.get("salient")]
    if salient:
        named = ", ".join(f"‘{w}’" for w in salient)
        lines.append(
            f"With the notes it cites, it mentions every salient term of the question: {named}."
        )
    decision = result.get("decision") or {}
    for ref, check in sorted((decision.get("verifiers") or {}).items()):
        if check.get("status") == "ok":
            lines.append(f"{name_of(result, ref)}: {check.get('detail') or 'verified'}.")
    texts = {c["id"]: c for c in (result.get("dag") or {}).get("claims") or []}
    if result.get("label") == "HEDGED ANSWER":
        conclusion = texts.get(decision.get("conclusion")) or {}
        lines.append(
            f"The conclusion “{conclusion.get('text', '')}” goes beyond its premises, so it "
            "is shown as an inference."
        )
    return lines


def _verified_premises(result: Mapping) -> list[str]:
    decision = result.get("decision") or {}
    dag = result.get("dag") or {}
    statuses = decision.get("claims") or {}
    conclusion = decision.get("conclusion")
    refs: list[str] = []
    for claim in dag.get("claims") or []:
        if claim["id"] == conclusion:
            continue
        if (statuses.get(claim["id"]) or {}).get("status") in ("measured", "grounded"):
            refs.extend(claim.get("cites") or [])
    return list(dict.fromkeys(refs))


def stance_line(result: Mapping) -> StanceLine | None:
    """Where the evidence stands on the claim the question states, in one sentence."""
    stance = result.get("stance") or None
    if not stance:
        return None
    relation, cue = stance.get("relation"), stance.get("cue") or ""
    if relation == "contradicts":
        return StanceLine("warning", f"The cited source contradicts the question: {cue}.")
    if relation == "supports":
        return StanceLine("info", f"The cited source supports the question: {cue}.")
    return StanceLine(
        "info", "The cited source neither clearly supports nor contradicts the question's claim."
    )


def answer_area(result: Mapping) -> AnswerArea:
    """The answer as the router licensed it; anything else marked as not an answer."""
    label = result.get("label") or "ABSTAIN"
    prose = result.get("prose") or ""
    dag = result.get("dag") or {}
    claims = {c["id"]: c for c in dag.get("claims") or []}
    conclusion = claims.get(
        (result.get("decision") or {}).get("conclusion") or dag.get("conclusion")
    )
    if label == "ANSWER":
        return AnswerArea("Answer", True, _prose_html(result))
    if label == "HEDGED ANSWER":
        premises = [c for cid, c in claims.items() if conclusion is None or cid != conclusion["id"]]
        items = "".join(
            f"<li>{esc(p.get('text', ''))} <small>— {esc(_sources(result, p))}</small></li>"
            for p in premises
        )
        body = (
            '<div class="answer-hedged" style="border-left:4px solid #e0a100;padding:4px 10px">'
            "<p><b>Inferred conclusion (not verified):</b> "
            f"{esc((conclusion or {}).get('text', ''))}</p>"
            f"<p>It is an inference from these verified premises:</p><ul>{items}</ul></div>"
        )
        return AnswerArea("Hedged answer", True, body)
    text = prose or (conclusion or {}).get("text", "")
    if not text:
        return AnswerArea("No answer", False, "")
    what = "prose" if prose else "closest sentence"
    body = (
        '<div class="answer-unlicensed" style="border-left:4px solid #c0392b;padding:4px 10px;'
        'color:#6b6b6b;background:#fbf1f0">'
        f"<p><b>Not an answer.</b> The router did not license this {what}; it is shown only "
        "so you can see what was found.</p>"
        f'<p style="font-style:italic">{esc(text)}</p></div>'
    )
    return AnswerArea("Not licensed", False, body)


def _sources(result: Mapping, claim: Mapping) -> str:
    return ", ".join(name_of(result, r) for r in claim.get("cites") or [])


def _prose_html(result: Mapping) -> str:
    prose = result.get("prose") or ""
    dag = result.get("dag") or {}
    citations = sorted(dag.get("prose_citations") or [], key=lambda c: (c["end"], c["start"]))
    claims = {c["id"]: c for c in dag.get("claims") or []}
    out, at = [], 0
    for n, cite in enumerate(citations, start=1):
        end = min(max(cite["end"], at), len(prose))
        out.append(esc(prose[at:end]))
        sources = ", ".join(
            name_of(result, r) for r in (claims.get(cite.get("claim")) or {}).get("cites") or []
        )
        out.append(f'<sup style="color:#1f5fa8;font-weight:600" title="{esc(sources)}">[{n}]</sup>')
        at = end
    out.append(esc(prose[at:]))
    style = "white-space:pre-wrap;line-height:1.7"
    return f'<div class="answer-licensed" style="{style}">{"".join(out)}</div>'
