import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine import PayloadExample
from engine.api import route_payload
from engine.core.errors import PayloadError
from engine.core.grounds import GroundingSpec, VerifiedGround
from engine.core.registry import Registry
from engine.core.router import route
from engine.core.verifiers import VERIFIERS, Verifier, VerifierResult, VerifyContext
from engine.core.wire import RouteInput, parse_payload
from engine.workspace.examples import PAYLOADS, payload_examples

SOURCE = "Momentum returns were 12% a year in the sample. Value returns were flat."
BODY = "Momentum returns were 12% a year in the sample."
A1, A2, A3 = "zk:lab:n1", "zk:lab:n2", "zk:lab:n3"


def restate(
    cid: str = "c1",
    text: str = BODY,
    cites: tuple[str, ...] = (A1,),
    premises: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "id": cid,
        "text": text,
        "kind": "restatement",
        "cites": list(cites),
        "premises": list(premises),
    }


def payload(
    claims: list[dict[str, Any]] | dict[str, Any],
    *,
    prose: str | None = None,
    cite_spans: bool = True,
    conclusion: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    claims = claims if isinstance(claims, list) else [claims]
    conclusion = conclusion or claims[-1]["id"]
    if prose is None:
        prose = next(c["text"] for c in claims if c["id"] == conclusion)
    dag: dict[str, Any] = {"claims": claims, "conclusion": conclusion}
    if cite_spans and prose.strip():
        dag["prose_citations"] = [{"start": 0, "end": len(prose), "claim": conclusion}]
    return {"dag": dag, "prose": prose, **extra}


GROUNDED = {A1: {"tier": "grounded"}}
BODIES = {A1: BODY}
HEDGE_CLAIMS = [
    restate("p1"),
    {"id": "c2", "text": "Momentum may persist.", "kind": "inference", "premises": ["p1"]},
]
HEDGE = payload(
    HEDGE_CLAIMS, prose=BODY, cite_spans=False, node_status=GROUNDED, node_bodies=BODIES
)


def quote(body: str, fulltext: str = SOURCE) -> dict[str, Any]:
    return {"type": "quote", "payload": {"body": body, "fulltext": fulltext}}


CASES = {
    "grounded-answer": (
        payload(restate(), node_status=GROUNDED, node_bodies=BODIES),
        ("answer", "grounded", []),
    ),
    "measured-answer": (
        payload(restate(), node_status={A1: "measured"}, node_bodies=BODIES),
        ("answer", "measured", []),
    ),
    "outdated-answered-with-disclosure": (
        payload(
            restate(), node_status={A1: {"tier": "grounded", "outdated": True}}, node_bodies=BODIES
        ),
        ("answer", "grounded", []),
    ),
    "hedged-answer": (HEDGE, ("answer", "inferred", [])),
    "missing-hop": (payload(restate(), prose=""), ("abstain", None, ["missing-hop"])),
    "stale": (
        payload(
            restate(),
            prose="",
            node_status={A1: {"tier": "grounded", "stale": True}},
            node_bodies=BODIES,
        ),
        ("abstain", None, ["stale"]),
    ),
    "false-premise": (
        payload(
            restate(),
            prose="",
            groundings={A1: quote("Momentum returns were 40% a year.")},
            node_bodies=BODIES,
        ),
        ("abstain", None, ["false-premise"]),
    ),
    "low-coverage-orphan-prose": (
        payload(restate(), prose="Momentum always wins.", node_status=GROUNDED, node_bodies=BODIES),
        ("abstain", None, ["low-coverage"]),
    ),
    "all-reasons-in-order": (
        payload(
            restate(cites=(A1, A2, A3)),
            prose="Something else entirely.",
            node_status={A2: {"tier": "grounded", "stale": True}},
            groundings={A3: quote("Value returns were 99% a year.")},
            node_bodies=BODIES,
        ),
        ("abstain", None, ["missing-hop", "stale", "false-premise", "low-coverage"]),
    ),
    "stale-and-false-premise": (
        payload(
            restate(cites=(A1, A2)),
            prose="",
            node_status={A1: {"tier": "grounded", "stale": True}},
            groundings={A2: quote("Value returns were 99% a year.")},
            node_bodies=BODIES,
        ),
        ("abstain", None, ["stale", "false-premise"]),
    ),
    "honesty-violation": (
        payload(restate(), node_status=GROUNDED, node_bodies=BODIES, asserted={"c1": "measured"}),
        ("abstain", None, ["low-coverage"]),
    ),
    "status-cannot-raise-failed-ground": (
        payload(
            restate(),
            prose="",
            groundings={A1: quote("Momentum returns were 13% a year.")},
            node_status=GROUNDED,
            node_bodies=BODIES,
        ),
        ("abstain", None, ["false-premise"]),
    ),
    "status-cannot-raise-unverifiable-ground": (
        payload(
            restate(),
            groundings={A1: quote(BODY, fulltext="")},
            node_status=GROUNDED,
            node_bodies=BODIES,
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "floor-without-bodies": (
        payload(restate(), node_status=GROUNDED),
        ("abstain", None, ["low-coverage"]),
    ),
    "floor-drifted-restatement": (
        payload(
            restate(text="Momentum returns were 15% a year in the sample."),
            node_status=GROUNDED,
            node_bodies=BODIES,
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "licensed-by-confirmed-quote-text": (
        payload(restate(), groundings={A1: quote(BODY)}),
        ("answer", "grounded", []),
    ),
    "compound-claim-atom": (
        payload(
            restate(text=SOURCE.replace(". V", "; v")),
            prose="Value returns were flat.",
            node_status=GROUNDED,
            node_bodies={A1: SOURCE.replace(". V", "; v")},
        ),
        ("answer", "grounded", []),
    ),
    "citation-uncited-words": (
        {
            **payload(restate(), node_status=GROUNDED, node_bodies=BODIES),
            "prose": BODY + " Buy now.",
        },
        ("abstain", None, ["low-coverage"]),
    ),
    "citation-wrong-claim": (
        {
            "dag": {
                "claims": [
                    restate("p1"),
                    restate("x9", text="Value returns were flat.", cites=(A2,)),
                    {"id": "c2", "text": "So it is.", "kind": "deduction", "premises": ["p1"]},
                ],
                "conclusion": "c2",
                "prose_citations": [{"start": 0, "end": 24, "claim": "x9"}],
            },
            "prose": "Value returns were flat.",
            "node_status": {A1: "grounded", A2: "grounded"},
            "node_bodies": {A1: BODY, A2: SOURCE},
        },
        ("abstain", None, ["low-coverage"]),
    ),
    "citation-recontextualised-number": (
        payload(
            restate(text="Dose 5 mg cut pain by 30%; 10 mg had no effect."),
            prose="Dose 10 mg cut pain by 30%.",
            node_status=GROUNDED,
            node_bodies={A1: "Dose 5 mg cut pain by 30%; 10 mg had no effect."},
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "fallback-licensed": (
        payload(restate(), cite_spans=False, node_status=GROUNDED, node_bodies=BODIES),
        ("answer", "grounded", []),
    ),
    "fallback-paraphrase": (
        payload(
            restate(),
            prose="Momentum earned 12% yearly.",
            cite_spans=False,
            node_status=GROUNDED,
            node_bodies=BODIES,
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "blank-prose": (
        payload(restate(), prose="   ", node_status=GROUNDED, node_bodies=BODIES),
        ("answer", "grounded", []),
    ),
    "punctuation-only-prose": (
        payload(restate(), prose="...", cite_spans=False, node_status=GROUNDED, node_bodies=BODIES),
        ("abstain", None, ["low-coverage"]),
    ),
    "unknown-verifier-type": (
        payload(
            restate(), groundings={A1: {"type": "sql-exec", "payload": {}}}, node_bodies=BODIES
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "coverage-report-blocking": (
        payload(
            restate(),
            node_status=GROUNDED,
            node_bodies=BODIES,
            coverage_report={"blocking_count": 1},
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "contested-blocks-answer": (
        payload(
            restate(),
            node_status=GROUNDED,
            node_bodies=BODIES,
            edges=[{"src": "mem:_memory:x", "dst": A1, "relation": "contradicts"}],
        ),
        ("abstain", None, ["low-coverage"]),
    ),
    "contested-blocks-hedge": (
        {**HEDGE, "edges": [{"src": "mem:_memory:x", "dst": A1, "relation": "contradicts"}]},
        ("abstain", None, ["low-coverage"]),
    ),
    "unresolved-blocks-hedge": (
        {
            **HEDGE,
            "dag": {
                **HEDGE["dag"],
                "claims": [HEDGE_CLAIMS[0], {**HEDGE_CLAIMS[1], "cites": [A2]}],
            },
            "groundings": {A2: {"type": "figure", "payload": {"path": "missing.png"}}},
        },
        ("abstain", None, ["low-coverage"]),
    ),
    "hedge-needs-verified-premise": (
        payload(
            {"id": "c1", "text": "Momentum may persist.", "kind": "inference", "cites": [A1]},
            prose="",
            node_status=GROUNDED,
        ),
        ("abstain", None, ["low-coverage"]),
    ),
}


@pytest.mark.parametrize(("data", "expected"), CASES.values(), ids=CASES.keys())
def test_decision_table(data: dict[str, Any], expected: tuple[str, str | None, list[str]]) -> None:
    out = route_payload(data)
    assert (out["verdict"], out["status"], out["reasons"]) == expected, out["detail"]


def test_outdated_is_disclosed_on_the_answer() -> None:
    out = route_payload(CASES["outdated-answered-with-disclosure"][0])
    assert out["outdated"] is True and "outdated" in out["detail"]


def test_hedged_answer_is_labelled() -> None:
    out = route_payload(HEDGE)
    assert out["label"] == "HEDGED ANSWER" and out["hedged"] is True


def test_honesty_violation_is_reported() -> None:
    out = route_payload(CASES["honesty-violation"][0])
    assert out["honesty_violations"] == [
        {"claim": "c1", "asserted": "measured", "derived": "grounded"}
    ]


def test_floored_restatement_is_named() -> None:
    out = route_payload(CASES["floor-drifted-restatement"][0])
    assert out["floored"] == ["c1"] and out["claims"]["c1"]["status"] == "inferred"


def test_orphan_spans_point_into_prose() -> None:
    data = CASES["citation-uncited-words"][0]
    out = route_payload(data)
    words = {data["prose"][s["start"] : s["end"]] for s in out["traceability"]["spans"]}
    assert {"Buy", "now"} <= words


def test_verifier_results_are_reported() -> None:
    out = route_payload(CASES["false-premise"][0])
    assert out["verifiers"][A1]["status"] == "failed"
    assert out["verifiers"][A1]["near_miss"]


def test_closed_book_signal() -> None:
    out = route_payload(CASES["missing-hop"][0])
    assert out["confabulation"]["closed_book"] is True
    assert route_payload(CASES["grounded-answer"][0])["confabulation"]["closed_book"] is False


@pytest.mark.parametrize("name", sorted(CASES), ids=sorted(CASES))
def test_same_input_same_bytes(name: str) -> None:
    data = CASES[name][0]
    first = json.dumps(route_payload(data), sort_keys=True)
    assert json.dumps(route_payload(json.loads(json.dumps(data))), sort_keys=True) == first


# --- soundness on real-looking text: what the sources say, not a span of it -------------


def sourced(
    claim: str, source: str, *, body: bool = True, quoted: str | None = None
) -> dict[str, Any]:
    """One restatement citing A1, its source as node body and as the quote's full text."""
    extra: dict[str, Any] = {
        "groundings": {A1: quote(source if quoted is None else quoted, fulltext=source)}
    }
    if body:
        extra["node_bodies"] = {A1: source}
    return payload(restate(text=claim), **extra)


def deduction(text: str, premise: str, *, prose: str | None = None) -> dict[str, Any]:
    claims = [
        restate("p1", text=premise),
        {"id": "d1", "text": text, "kind": "deduction", "premises": ["p1"]},
    ]
    cites = prose if prose is not None else text
    data = payload(
        claims,
        prose=cites,
        groundings={A1: quote(premise, fulltext=premise)},
        node_bodies={A1: premise},
    )
    if prose is not None:
        data["dag"]["prose_citations"] = [{"start": 0, "end": len(prose), "claim": "p1"}]
    return data


def compared(
    text: str,
    *,
    premises: tuple[str, str] = ("Momentum earned 1.2% a month.", "Reversal earned 0.4% a month."),
) -> dict[str, Any]:
    """A deduction resting on two quoted premises, each citing its own note."""
    refs = (A1, A2)
    claims = [
        restate(f"p{i}", text=t, cites=(ref,))
        for i, (t, ref) in enumerate(zip(premises, refs, strict=True), 1)
    ]
    claims.append({"id": "d1", "text": text, "kind": "deduction", "premises": ["p1", "p2"]})
    groundings = {ref: quote(t, fulltext=t) for t, ref in zip(premises, refs, strict=True)}
    return payload(claims, prose=text, groundings=groundings)


def quoted_note(claim: str, *, quote: str, body: str) -> dict[str, Any]:
    """A restatement of a note whose one checked quote sits in a longer body of its own words."""
    return payload(
        restate(text=claim),
        groundings={A1: {"type": "quote", "payload": {"body": quote, "fulltext": quote}}},
        node_bodies={A1: body},
    )


ASPIRIN = "Aspirin use was associated with lower risk of colorectal cancer."
UNSOUND = {
    "no-evidence-that": (
        sourced(
            "Vitamin D prevents tuberculosis.",
            "We found no evidence that vitamin D prevents tuberculosis.",
        ),
        "ABSTAIN",
        'c1 is a span inside "we found no evidence that',
    ),
    "it-is-not-true-that": (
        sourced(
            "Aspirin increases bleeding risk.",
            "It is not true that aspirin increases bleeding risk.",
        ),
        "ABSTAIN",
        'c1 is a span inside "it is not true that',
    ),
    "dropped-condition": (
        sourced(
            "Smoking causes cancer in mice.",
            "Smoking causes cancer in mice only when combined with asbestos exposure.",
        ),
        "ABSTAIN",
        'c1 drops "only when combined with asbestos exposure"',
    ),
    "comparator-flipped": (
        sourced("Effect at p > 0.05.", "Effect at p < 0.05."),
        "ABSTAIN",
        'c1 has ">" where the source has "<"',
    ),
    "marker-flipped": (
        sourced("Tamoxifen helped ER- tumours.", "Tamoxifen helped ER+ tumours."),
        "ABSTAIN",
        'c1 has "er-" where the source has "er+"',
    ),
    "marker-on-a-number-flipped": (
        sourced("CD4+3+ cells were found.", "CD4+3− cells were found."),
        "ABSTAIN",
        'c1 has "3+" where the source has "3-"',
    ),
    "sign-added-by-en-dash": (
        sourced("The change was –5% overall.", "The change was 5% overall."),
        "ABSTAIN",
        'c1 has "-5%" where the source has "5%"',
    ),
    "exponent-changed": (
        sourced("Risk rose 10⁻³ fold.", "Risk rose 10^3 fold."),
        "ABSTAIN",
        'c1 has "10^-3" where the source has "10^3"',
    ),
    "quoted-span-inside-negation": (
        sourced(
            "Vitamin D prevents tuberculosis.",
            "We found no evidence that vitamin D prevents tuberculosis.",
            body=False,
            quoted="vitamin D prevents tuberculosis",
        ),
        "ABSTAIN",
        'c1 is a span inside "we found no evidence that',
    ),
    "deduction-with-novel-words": (
        deduction("Aspirin cures all cancers in every patient.", ASPIRIN),
        "ABSTAIN",
        'it says "cures", "all", "cancers", "in", "every", "patient"',
    ),
    "deduction-with-novel-words-prose-on-premise": (
        deduction("Aspirin cures all cancers in every patient.", ASPIRIN, prose=ASPIRIN),
        "HEDGED ANSWER",
        'deduction d1 is not proven from what it rests on: it says "cures"',
    ),
    "deduction-drops-a-negation": (
        deduction(
            "The profits are due to systematic risk.",
            "The profits are not due to systematic risk.",
        ),
        "ABSTAIN",
        "deduction d1 is not proven from what it rests on",
    ),
    "deduction-swaps-roles": (
        deduction(
            "Past losers outperformed past winners.", "Past winners outperformed past losers."
        ),
        "ABSTAIN",
        "deduction d1 is not proven",
    ),
    "deduction-swaps-numbers": (
        deduction("Returns persisted for 12 to 3 months.", "Returns persisted for 3 to 12 months."),
        "ABSTAIN",
        "deduction d1 is not proven",
    ),
    "deduction-reorders-its-premise": (
        deduction("Lower risk of colorectal cancer was associated with aspirin use.", ASPIRIN),
        "ABSTAIN",
        "deduction d1 is not proven",
    ),
    "deduction-compares-the-wrong-way": (
        compared("Reversal earned more than momentum."),
        "ABSTAIN",
        "deduction d1 is not proven",
    ),
    "off-quote-body-sentence": (
        quoted_note(
            "Treatment accelerated the onset of diabetes.",
            quote="Treatment delayed the onset of diabetes.",
            body="Treatment delayed the onset of diabetes. Treatment accelerated the onset of "
            "diabetes.",
        ),
        "ABSTAIN",
        "c1 is the note's own text; only its quote was checked against the source",
    ),
}


@pytest.mark.parametrize(("data", "label", "reason"), UNSOUND.values(), ids=UNSOUND.keys())
def test_unsound_restatements_never_answer_grounded(
    data: dict[str, Any], label: str, reason: str
) -> None:
    out = route_payload(data)
    assert out["label"] == label, out["detail"]
    assert reason in " ".join(out["floor_reasons"].values()), out["floor_reasons"]
    if label == "ABSTAIN":
        assert reason in out["detail"]


SOUND = {
    "whole-sentence": sourced(ASPIRIN, f"Background first. {ASPIRIN} More follows."),
    "independent-clause": sourced(
        "Drug A raised insulin levels.", "Drug A raised insulin levels; drug B lowered glucose."
    ),
    "whole-sentence-quoted-only": sourced(ASPIRIN, f"Intro. {ASPIRIN}", body=False, quoted=ASPIRIN),
    "deduction-restating-its-premise": deduction(ASPIRIN, ASPIRIN),
    "deduction-comparing-premise-numbers": compared("Momentum earned more than reversal."),
    "deduction-by-arithmetic": compared("1.2% > 0.4%."),
    "quote-inside-its-note": quoted_note(
        "Treatment delayed the onset of diabetes.",
        quote="Treatment delayed the onset of diabetes.",
        body="Treatment delayed the onset of diabetes. Treatment accelerated the onset of "
        "diabetes.",
    ),
}


@pytest.mark.parametrize("data", SOUND.values(), ids=SOUND.keys())
def test_faithful_restatements_still_answer_grounded(data: dict[str, Any]) -> None:
    out = route_payload(data)
    assert (out["label"], out["status"], out["floored"]) == ("ANSWER", "grounded", []), out[
        "detail"
    ]


def _quote_input() -> RouteInput:
    quote = {"type": "quote", "payload": {"body": BODY, "fulltext": SOURCE}}
    return parse_payload(payload(restate(), groundings={A1: quote}, node_bodies=BODIES))


def _counting(calls: list[Any]) -> Registry[Verifier]:
    registry = VERIFIERS.copy()

    def counted(p: Mapping[str, Any], c: VerifyContext, /) -> VerifierResult:
        calls.append(p)
        return VERIFIERS["quote"](p, c)

    registry.register("quote", counted)
    return registry


def test_a_ground_verified_before_routing_is_not_verified_again() -> None:
    calls: list[Any] = []
    inp = _quote_input()
    spec = inp.groundings[A1]
    known = VerifiedGround(spec, VerifierResult.confirmed("checked at grounding time"))
    decision = route(replace(inp, verified={A1: known}), verifiers=_counting(calls))
    assert calls == [] and decision.verifier_results[A1].detail == "checked at grounding time"


def test_a_result_for_another_spec_is_not_reused() -> None:
    calls: list[Any] = []
    inp = _quote_input()
    other = VerifiedGround(GroundingSpec("quote", {"body": "x"}), VerifierResult.refuted("no"))
    decision = route(replace(inp, verified={A1: other}), verifiers=_counting(calls))
    assert len(calls) == 1 and decision.label == "ANSWER"


@pytest.mark.parametrize("example", payload_examples(), ids=lambda e: e.key)
def test_the_shared_payload_examples_get_their_listed_decision(example: PayloadExample) -> None:
    if example.expect == "invalid":
        with pytest.raises(PayloadError, match="premise cycle"):
            route_payload(example.payload())
        return
    decision = route_payload(example.payload())
    assert (decision["label"], decision["reasons"]) == (example.expect, list(example.reasons))


def test_the_payload_examples_fixture_covers_every_decision_path() -> None:
    listed = payload_examples()
    assert len(listed) == len(list(PAYLOADS.glob("*.json"))) > 0
    assert {e.expect for e in listed} == {"ANSWER", "HEDGED ANSWER", "ABSTAIN", "invalid"}
    reasons = {r for e in listed for r in e.reasons}
    assert reasons == {"missing-hop", "stale", "false-premise", "low-coverage"}
