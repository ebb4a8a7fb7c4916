import json
from types import MappingProxyType
from typing import Any

import pytest

from engine.core.epistemics import Tier, Verdict
from engine.core.errors import PayloadError
from engine.core.stance import Overstated
from engine.core.wire import parse_json, parse_payload


def payload(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "dag": {
            "claims": [
                {"id": "c1", "text": "A holds.", "kind": "restatement", "cites": ["zk:b:1"]}
            ],
            "conclusion": "c1",
        },
        "prose": "A holds.",
    }
    base.update(overrides)
    return base


def test_minimal_payload_parses_with_defaults() -> None:
    inp = parse_payload(payload())
    assert inp.dag.conclusion == "c1"
    assert inp.groundings == {} and inp.edges == () and inp.blocking_count == 0


def test_full_payload_parses() -> None:
    inp = parse_payload(
        payload(
            groundings={"zk:b:1": {"type": "quote", "payload": {"body": "A"}}},
            node_status={"zk:b:1": {"tier": "grounded", "outdated": True}, "zk:b:2": "measured"},
            node_bodies={"zk:b:1": "A holds."},
            asserted={"c1": "grounded"},
            edges=[{"src": "mem:_memory:x", "dst": "zk:b:1", "relation": "contradicts"}],
            coverage_report={"blocking_count": 2, "withheld": "hedge"},
        )
    )
    assert inp.node_status["zk:b:1"] == Verdict(Tier.GROUNDED, outdated=True)
    assert inp.node_status["zk:b:2"].tier is Tier.MEASURED
    assert inp.asserted == {"c1": Tier.GROUNDED}
    assert inp.groundings["zk:b:1"].type == "quote"
    assert inp.blocking_count == 2
    assert inp.withheld is Overstated.HEDGE


def _claims(*claims: dict[str, Any]) -> dict[str, Any]:
    return {"claims": list(claims), "conclusion": claims[0]["id"] if claims else "c1"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "payload must be an object"),
        ({"prose": "x"}, "dag must be an object"),
        (payload(prose=3), "prose must be a string"),
        (payload(prose="x" * 1_000_001), "prose is 1,000,001 bytes; the limit is 1,000,000"),
        (payload(dag={"claims": "no", "conclusion": "c1"}), "dag.claims must be a list"),
        (payload(dag={"claims": [], "conclusion": "c1"}), "dag.claims is empty"),
        (payload(dag=_claims({"id": "c1", "kind": "guess"})), "unknown kind 'guess'"),
        (payload(dag=_claims({"id": 1, "kind": "inference"})), r"dag.claims\[0\].id"),
        (
            payload(dag=_claims({"id": "c1", "kind": "inference", "text": 4})),
            "text must be a string",
        ),
        (
            payload(dag=_claims({"id": "c1", "kind": "inference", "cites": ["nope"]})),
            "not of the form store:source:id",
        ),
        (
            payload(dag=_claims({"id": "c1", "kind": "inference", "premises": "c0"})),
            "premises must be a list of strings",
        ),
        (
            payload(dag=_claims({"id": "c1", "kind": "inference", "premises": ["c0"]})),
            "unknown premise 'c0'",
        ),
        (
            payload(
                dag={
                    "claims": [
                        {"id": "c1", "kind": "deduction", "premises": ["c2"]},
                        {"id": "c2", "kind": "deduction", "premises": ["c1"]},
                    ],
                    "conclusion": "c1",
                }
            ),
            "premise cycle",
        ),
        (
            payload(dag={"claims": [{"id": "c1", "kind": "inference"}], "conclusion": "c9"}),
            "unknown conclusion 'c9'",
        ),
        (
            payload(
                dag={
                    "claims": [{"id": "c1", "kind": "inference"}],
                    "conclusion": "c1",
                    "prose_citations": [{"start": 0, "end": 99, "claim": "c1"}],
                }
            ),
            "out of range",
        ),
        (
            payload(
                dag={
                    "claims": [{"id": "c1", "kind": "inference"}],
                    "conclusion": "c1",
                    "prose_citations": [{"start": 0, "end": 2, "claim": "c7"}],
                }
            ),
            "unknown claim 'c7'",
        ),
        (payload(node_status={"zk:b:1": {"tier": "certain"}}), "tier must be one of"),
        (payload(node_status={"zk:b:1": {"tier": "grounded", "stale": "yes"}}), "stale must be"),
        (payload(asserted={"c9": "grounded"}), "unknown claim 'c9'"),
        (payload(groundings={"zk:b:1": {"payload": {}}}), "type must be a non-empty string"),
        (payload(edges=[{"src": "a"}]), "edges"),
        (payload(coverage_report={"blocking_count": -1}), "blocking_count"),
        (payload(coverage_report={"withheld": "louder"}), "withheld must be null or one of"),
        (payload(coverage_report={"withheld": ["hedge"]}), "withheld must be null or one of"),
        (payload(node_bodies={"zk:b:1": 5}), "must be a string"),
    ],
    ids=[
        "not-object",
        "no-dag",
        "prose-type",
        "prose-too-big",
        "claims-type",
        "claims-empty",
        "unknown-kind",
        "id-type",
        "text-type",
        "bad-cite",
        "premises-type",
        "unknown-premise",
        "cycle",
        "unknown-conclusion",
        "span-out-of-range",
        "span-unknown-claim",
        "bad-tier",
        "bad-flag",
        "asserted-unknown",
        "grounding-type",
        "edge-shape",
        "blocking-negative",
        "withheld-unknown",
        "withheld-type",
        "body-type",
    ],
)
def test_malformed_payload_names_the_problem(
    data: list[Any] | dict[str, Any], message: str
) -> None:
    with pytest.raises(PayloadError, match=message):
        parse_payload(data)


SURROGATES = {
    "in-a-claim": {"prose": "A holds.\udfff"},
    "in-a-key": {"node_status": {"zk:b:\ud800": {"tier": "grounded"}}},
    "in-a-nested-list": {"edges": [[1, None, 2.5, True, ["\ud800é"]]]},
    "in-a-mapping-not-a-dict": {"node_bodies": MappingProxyType({"zk:b:1": "\ud800"})},
}


@pytest.mark.parametrize("extra", SURROGATES.values(), ids=SURROGATES.keys())
def test_a_lone_surrogate_anywhere_is_refused(extra: dict[str, Any]) -> None:
    with pytest.raises(PayloadError, match="lone surrogate"):
        parse_payload(payload(**extra))


def test_the_refusal_names_the_text_that_holds_the_surrogate() -> None:
    bodies = {
        "zk:b:1": "A plain body that is long enough to fill the quoted start.",
        "zk:b:2": "Bad \ud800",
    }
    with pytest.raises(PayloadError, match="'Bad "):
        parse_payload(payload(node_bodies=bodies))


@pytest.mark.parametrize(
    ("text", "message"),
    [("{", "not valid JSON"), ("[" * 100_000 + "]" * 100_000, "nested too deeply|not valid")],
    ids=["truncated", "deep"],
)
def test_parse_json_rejects_bad_text(text: str, message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        parse_json(text)


def test_parse_json_accepts_bytes() -> None:
    assert parse_json(json.dumps(payload()).encode()).prose == "A holds."
