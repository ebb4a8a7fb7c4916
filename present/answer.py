"""Plain words for a verdict: why it was reached, where the evidence stands, what may be shown.

Every sentence here is built from the decision's own derivation (the coverage report, the
verifier results, the flags, the contradicting edges, the reasoner's note) and names notes
by their titles, never by internal claim ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine import (
    CONTRADICTS,
    Claim,
    Edge,
    FailureKind,
    NavResult,
    Overstated,
    Stance,
    StanceRelation,
    Tier,
    VerifierStatus,
    cited_refs,
)
from present.markup import esc
from present.names import node_name

MATRIX_PAGE = "pages/claim_matrix.py"


@dataclass(frozen=True)
class FailureNotice:
    """A failed run in words for the user: a short head and what they can do about it."""

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


class Hedge(StrEnum):
    """Why an answer stands hedged rather than green."""

    PARAPHRASE = "paraphrase"  # verified text the trained reader reads as an answer
    UNSAID = "unsaid"  # verified text that never says some question word
    NOT_A_YES = "not-a-yes"  # verified text that says less than the question's yes
    INFERRED = "inferred"  # a conclusion inferred from verified premises


def hedge_of(result: NavResult) -> Hedge | None:
    """Why `result` is a hedged answer, or None when it is not one."""
    decision = result.decision
    if result.label != "HEDGED ANSWER" or decision is None:
        return None
    if decision.paraphrased is not None:
        return Hedge.PARAPHRASE
    if decision.unmentioned:
        return Hedge.UNSAID
    if decision.withheld is not None:
        return Hedge.NOT_A_YES
    return Hedge.INFERRED


def not_a_yes(result: NavResult) -> str:
    """Why the answer's text is not a yes (or a no) to what was asked, in words; "" when it is."""
    decision = result.decision
    withheld = decision.withheld if decision is not None else None
    return withheld.words if withheld is not None else ""


def held_back(result: NavResult, *, clause: bool = True) -> str:
    """What a rule withheld from the answer's text: "it is not a yes" (`clause` False: "not a
    yes"), where the sentence's own negation seemed to answer "its negation is not a no", and
    where its words read as neither "it is neither a yes nor a no"."""
    decision = result.decision
    if decision is not None and decision.withheld is Overstated.UNREAD:
        return "it is neither a yes nor a no" if clause else "neither a yes nor a no"
    if decision is not None and decision.withheld_no:
        return "its negation is not a no"
    return "it is not a yes" if clause else "not a yes"


def paraphrase_words(result: NavResult) -> str:
    """How the trained reader read the answer's sentence and its measured rate; "" if it did not."""
    decision = result.decision
    paraphrased = decision.paraphrased if decision is not None else None
    return paraphrased.words if paraphrased is not None else ""


def titles(result: NavResult) -> dict[str, str]:
    """Node address -> its name for a reader (a passage by paper and page), from the walk."""
    nodes = result.neighbourhood.nodes.values()
    return {n.address: node_name(result, n.address) for n in nodes if n.address}


def unwritten(result: NavResult, ref: str) -> bool:
    """Whether `ref` is a note some note links to that is not written yet (a missing hop)."""
    return result.neighbourhood.unwritten(ref)


def resting_on(result: NavResult, ref: str) -> str:
    """The note whose link names `ref`, as a reader knows it; "" when none is known."""
    for edge in result.neighbourhood.edges:
        if edge.dst == ref and edge.src != ref:
            return name_of(result, edge.src)
    return ""


def name_of(result: NavResult, ref: str) -> str:
    """A node as a reader knows it: its title in quotes, else its address."""
    title = titles(result).get(ref)
    return f"“{title}”" if title and title != ref else ref


def reasons(result: NavResult) -> tuple[str, ...]:
    """The abstain reasons by name; a run that never reached the router lacks coverage."""
    if result.decision is None:
        return ("low-coverage",)
    return tuple(r.value for r in result.decision.reasons)


def route_edges(result: NavResult) -> tuple[Edge, ...]:
    """The typed edges the router was handed (overlay and triage contradictions among them)."""
    return result.route_input.edges if result.route_input is not None else ()


# The failures of the reasoner itself, which the user mends in the sidebar.
_REASONER_FAILURES = frozenset(
    {FailureKind.UNAVAILABLE, FailureKind.ENDPOINT, FailureKind.REASONER_ERROR}
)


def failure(result: NavResult) -> FailureNotice | None:
    """The run's failure in words for the user, by its kind; None when the router decided."""
    failed = result.failure
    if failed is None or (result.decision is not None and result.decision.dag.claims):
        return None
    text = failed.message
    kind = failed.kind
    if kind in _REASONER_FAILURES:
        return FailureNotice(
            "reasoner-error",
            "the reasoner failed",
            f"The reasoner could not be reached or failed ({text}). Check the endpoint URL, "
            "model name and API key in the sidebar, or switch to the offline reasoner.",
        )
    if kind is FailureKind.INVALID_OUTPUT:
        return FailureNotice(
            "invalid-output",
            "the model's reply was unusable",
            f"The model replied, but not with a valid reasoning DAG ({text}). Try again, "
            "or use a model that follows JSON instructions.",
        )
    if kind is FailureKind.BUDGET:
        return FailureNotice(
            "budget",
            "step budget exhausted",
            f"The navigator ran out of steps before the reasoner answered ({text}). "
            "Raise the step budget in the sidebar to let it look further.",
        )
    if kind is FailureKind.NOTHING_FOUND:
        return FailureNotice(
            "nothing-found",
            "nothing relevant found",
            "Nothing the knowledge base holds that could be checked matched the question.",
        )
    if kind is FailureKind.EMPTY:
        return FailureNotice("empty", "no question", "Type a question first.")
    return FailureNotice("internal", "the run failed", f"The run failed inside: {text}.")


def _flagged_contested(result: NavResult) -> list[str]:
    verdicts = result.decision.node_verdicts if result.decision else {}
    return [ref for ref, node in sorted(verdicts.items()) if node.contested]


def contested_lines(result: NavResult, *, confirmed: set[tuple[str, str]]) -> Iterable[str]:
    """Which note contests a cited node, and whether a reviewer confirmed that contradiction."""
    edges = route_edges(result)
    for ref in _flagged_contested(result):
        against = [e for e in edges if e.relation == CONTRADICTS and ref in (e.src, e.dst)]
        if not against:
            yield f"{name_of(result, ref)} is contested."
            continue
        for edge in against:
            other = edge.dst if edge.src == ref else edge.src
            reviewed = (edge.src, edge.dst) in confirmed
            status = "confirmed by a reviewer" if reviewed else "not yet reviewed"
            yield (
                f"The answer cites {name_of(result, ref)}, which the note {name_of(result, other)} "
                f"contradicts ({status}); review it on the Claim matrix page."
            )


def contested_pairs(result: NavResult) -> list[tuple[str, str]]:
    """(practice, canon) address pairs of the contradictions that contest a cited node."""
    flagged = set(_flagged_contested(result))
    return [
        (e.src, e.dst)
        for e in route_edges(result)
        if e.relation == CONTRADICTS and (e.src in flagged or e.dst in flagged)
    ]


def _unsaid(result: NavResult) -> tuple[list[str], list[str]]:
    """The question words an answer leaves unsaid, as typed: (never said at all, relation
    words the quoted text states only otherwise: another relation, or this one of
    something else)."""
    unsaid = result.decision.unmentioned if result.decision is not None else ()
    related = set(result.coverage.related) if result.coverage is not None else set()
    return [w for w in unsaid if w not in related], [w for w in unsaid if w in related]


def never(result: NavResult) -> str:
    """What the answer's text leaves unsaid, in words ("never says ‘sepsis’", "never states
    ‘reduce’ as the question asks it"); plain text, escaped where it is put in markup."""
    plain, related = _unsaid(result)
    parts = []
    if plain:
        parts.append("never says " + ", ".join(f"‘{w}’" for w in plain))
    if related:
        parts.append("never states " + ", ".join(f"‘{w}’" for w in related))
        parts[-1] += " as the question asks it"
    return " and ".join(parts)


def summary(result: NavResult, *, confirmed: Iterable[tuple[str, str]] = ()) -> str:
    """The banner's plain-words sentence after the label."""
    label = result.label
    broken = failure(result)
    if broken is not None:
        return broken.text
    if label == "ANSWER":
        cited = ", ".join(name_of(result, r) for r in result.cited)
        text = (
            f"Every sentence of the answer is quoted from verified text of {cited or 'its sources'}"
        )
        return text + ", and with the papers it cites it says every topic word of the question."
    hedge = hedge_of(result)
    if hedge is Hedge.UNSAID:
        cited = ", ".join(name_of(result, r) for r in result.cited) or "its sources"
        plain, _ = _unsaid(result)
        asked = ", which the question asks about" if plain else ""
        return (
            f"The answer is quoted from verified text of {cited}, but it {never(result)}"
            f"{asked}: it may answer a neighbouring question."
        )
    if hedge is Hedge.PARAPHRASE:
        cited = ", ".join(name_of(result, r) for r in result.cited) or "its sources"
        unsaid = f"; it {never(result)}" if never(result) else ""
        return (
            f"The answer is quoted from verified text of {cited}, which words alone do not show"
            f" answers the question{unsaid}. But {paraphrase_words(result)}: read it before"
            " relying on it."
        )
    if hedge is Hedge.NOT_A_YES:
        cited = ", ".join(name_of(result, r) for r in result.cited) or "its sources"
        return (
            f"The answer is quoted from verified text of {cited}, but {held_back(result)} to"
            f" what was asked: {not_a_yes(result)}."
        )
    if hedge is Hedge.INFERRED:
        premises = _verified_premises(result)
        named = ", ".join(name_of(result, r) for r in premises) or "its verified premises"
        return (
            "The conclusion is an inference: it goes beyond what the sources say, and rests "
            f"on verified premises from {named}."
        )
    # Why an abstention abstained is said cause by cause in `present.causes`.
    if result.decision is not None:
        return result.decision.detail
    return result.failure.message if result.failure else "no answer was produced"


def answered_lines(result: NavResult) -> list[str]:
    """Why an answer was allowed: the question terms it covers and each cited check."""
    lines = []
    terms = result.coverage.terms if result.coverage is not None else ()
    topic = [t.typed for t in terms if not t.unmet]
    if topic:
        named = ", ".join(f"‘{w}’" for w in topic)
        lines.append(
            f"With the papers it cites, it says every topic word of the question: {named}."
        )
    decision = result.decision
    if decision is None:
        return lines
    for ref, check in sorted(decision.verifier_results.items()):
        if check.status is VerifierStatus.OK:
            lines.append(f"{name_of(result, ref)}: {check.detail or 'verified'}.")
    if result.also_stated is not None:
        said = result.also_stated.words()
        lines.append(f"{said[:1].upper()}{said[1:]}.")
    hedge = hedge_of(result)
    if hedge is Hedge.PARAPHRASE:
        said = paraphrase_words(result)
        lines.append(f"{said[:1].upper()}{said[1:]}.")
        if never(result):
            lines.append(f"In words, the quoted text {never(result)}.")
    if hedge is Hedge.NOT_A_YES:
        lines.append(f"{held_back(result).capitalize()} to what was asked: {not_a_yes(result)}.")
    if hedge is Hedge.INFERRED:
        texts = {c.id: c.text for c in decision.dag.claims}
        lines.append(
            f"The conclusion “{texts.get(decision.conclusion, '')}” goes beyond its premises, "
            "so it is shown as an inference."
        )
    return lines


def _verified_premises(result: NavResult) -> list[str]:
    decision = result.decision
    if decision is None:
        return []
    refs: list[str] = []
    for claim in decision.dag.claims:
        if claim.id == decision.conclusion:
            continue
        verdict = decision.claim_verdicts.get(claim.id)
        if verdict is not None and verdict.wire() in (Tier.MEASURED, Tier.GROUNDED):
            refs.extend(claim.cites)
    return list(dict.fromkeys(refs))


def stance_line(result: NavResult) -> StanceLine | None:
    """Where the evidence stands on the claim the question states, in one sentence."""
    stance = result.stance
    # A hedge for a withheld yes says why in the banner: the line would say it again.
    if stance is None or hedge_of(result) is Hedge.NOT_A_YES:
        return None
    # A paraphrase is read by the reader, not by words: the banner says what words cannot.
    if hedge_of(result) is Hedge.PARAPHRASE and stance.relation is StanceRelation.NEITHER:
        return None
    unsaid = result.decision.unmentioned if result.decision is not None else ()
    if stance.relation is StanceRelation.NEITHER and unsaid:
        return StanceLine(
            "info",
            f"Not stated: the cited text {never(result)}, so it answers neither yes nor no.",
        )
    if stance.asked:
        return _reading_line(stance)
    if stance.relation is StanceRelation.CONTRADICTS:
        said = _measured(stance)
        lead = (
            "The cited source may contradict the question, a possible tension"
            if stance.tension
            else "The cited source contradicts the question"
        )
        return StanceLine("warning", f"{lead}: {stance.phrase}.{said}")
    if stance.relation is StanceRelation.SUPPORTS:
        return StanceLine("info", f"The cited source supports the question: {stance.phrase}.")
    if stance.overstated is not None:
        held = f"Not a {stance.withheld_reading}: {stance.phrase}."
        return StanceLine("info", f"{held} The answer shows what the source says.")
    return StanceLine(
        "info", "The cited source neither clearly supports nor contradicts the question's claim."
    )


def _reading_line(stance: Stance) -> StanceLine:
    """The answer to a yes/no question: yes, no or mixed, with the cue it rests on."""
    if stance.denied and stance.relation is not StanceRelation.NEITHER:
        return _denied_line(stance)
    if stance.relation is StanceRelation.CONTRADICTS:
        said = _measured(stance)
        if stance.tension:
            return StanceLine("warning", f"Probably no, a possible tension: {stance.phrase}.{said}")
        return StanceLine("warning", f"No: {stance.phrase}.{said}")
    if stance.relation is StanceRelation.SUPPORTS:
        return StanceLine("info", f"Yes: {stance.phrase}.")
    if stance.overstated is not None:
        return StanceLine("info", f"Not a {stance.withheld_reading}: {stance.phrase}.")
    return StanceLine(
        "info",
        "Mixed or not stated: the cited source neither clearly says yes nor no to the question.",
    )


def _measured(stance: Stance) -> str:
    """How often a stance like this one was right, as a sentence to append; "" unmeasured."""
    return f" Measured: {stance.measured}." if stance.measured else ""


def _denied_line(stance: Stance) -> StanceLine:
    """The answer to a question that asks a denial, without a bare yes or no: "no" to "Does
    aspirin not reduce stroke?" reads as "it does" to one reader and "it does not" to another."""
    if stance.relation is StanceRelation.SUPPORTS:
        return StanceLine("info", f"Denied too, as the question asks: {stance.phrase}.")
    said = _measured(stance)
    lead = "Probably stated, a possible tension" if stance.tension else "Stated"
    return StanceLine("warning", f"{lead}, not denied as the question asks: {stance.phrase}.{said}")


def answer_area(result: NavResult) -> AnswerArea:
    """The answer as the router licensed it; anything else marked as not an answer."""
    label = result.label
    prose = result.prose
    dag = result.decision.dag if result.decision else None
    claims = {c.id: c for c in dag.claims} if dag else {}
    conclusion = claims.get(result.decision.conclusion) if result.decision else None
    if label == "ANSWER":
        return AnswerArea("Answer", True, _prose_html(result))
    hedge = hedge_of(result)
    rate = result.decision.paraphrased if result.decision is not None else None
    if hedge is Hedge.PARAPHRASE and rate is not None:
        unsaid = f" In words, it {esc(never(result))}." if never(result) else ""
        measured = (
            f"About {rate.in_ten} in 10 at this confidence were right: {rate.band.right} of "
            f"{rate.band.read}, held out."
        )
        body = (
            '<div class="answer-hedged" style="border-left:4px solid #e0a100;padding:4px 10px">'
            "<p><b>Quoted, verified; read by the trained reader as an answer in other words."
            f"</b> {esc(measured)}{unsaid}</p>{_prose_html(result)}</div>"
        )
        return AnswerArea("Hedged answer", True, body)
    if hedge in (Hedge.UNSAID, Hedge.NOT_A_YES):
        # Verified, quoted text that never says some of what was asked, or says less than
        # its yes: shown as quoted, with what it leaves out, never as the whole answer.
        # The banner says why a yes is withheld; the area only marks the text as not one.
        held = held_back(result, clause=False) + " to the question"
        but = never(result) if hedge is Hedge.UNSAID else held
        body = (
            '<div class="answer-hedged" style="border-left:4px solid #e0a100;padding:4px 10px">'
            f"<p><b>Quoted, verified, but {esc(but)}:</b></p>{_prose_html(result)}</div>"
        )
        return AnswerArea("Hedged answer", True, body)
    if hedge is Hedge.INFERRED:
        premises = [c for cid, c in claims.items() if conclusion is None or cid != conclusion.id]
        items = "".join(
            f"<li>{esc(p.text)} <small>— {esc(_sources(result, p))}</small></li>" for p in premises
        )
        body = (
            '<div class="answer-hedged" style="border-left:4px solid #e0a100;padding:4px 10px">'
            "<p><b>Inferred conclusion (not verified):</b> "
            f"{esc(conclusion.text if conclusion else '')}</p>"
            f"<p>It is an inference from these verified premises:</p><ul>{items}</ul></div>"
        )
        return AnswerArea("Hedged answer", True, body)
    text = prose or (conclusion.text if conclusion else "")
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


def _sources(result: NavResult, claim: Claim) -> str:
    return ", ".join(name_of(result, r) for r in claim.cites)


def _prose_html(result: NavResult) -> str:
    """The answer's prose with its citation marks; a claim the router licensed only in its
    source's spelling (a typo-tolerant quote) is shown as the source spells it, so the page
    never shows a word the source does not say."""
    prose = result.prose
    dag = result.decision.dag if result.decision else None
    citations = sorted(dag.prose_citations if dag else (), key=lambda c: (c.end, c.start))
    claims = {c.id: c for c in dag.claims} if dag else {}
    if not citations:
        prose = result.spelt_prose
    # A marker opens the first source its claim cites, by that source's place in the
    # Sources list (which lists `cited_refs` in order); see `cite_clicks_html`.
    listed = {ref: k for k, ref in enumerate(cited_refs(result))}
    out, at = [], 0
    for n, cite in enumerate(citations, start=1):
        end = min(max(cite.end, at), len(prose))
        start = min(max(cite.start, at), end)
        out.append(esc(prose[at:start]))
        out.append(esc(result.shown_as(cite.claim, prose[start:end])))
        claim = claims.get(cite.claim)
        refs = claim.cites if claim else ()
        sources = ", ".join(name_of(result, r) for r in refs)
        place = next((listed[r] for r in refs if r in listed), None)
        mark = f"[{n}]"
        if place is not None:
            mark = (
                f'<a class="cite-mark" href="#sources" data-source="{place}" '
                f'title="Open {esc(sources)}">{mark}</a>'
            )
        out.append(f'<sup style="font-weight:700" title="{esc(sources)}">{mark}</sup>')
        at = end
    out.append(esc(prose[at:]))
    style = "white-space:normal;line-height:1.7"
    return f'<div class="answer-licensed" style="{style}">{"".join(out)}</div>'
