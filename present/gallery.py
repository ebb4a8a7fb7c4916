"""Ready wire payloads, one per decision path, for demonstrating the router."""

from __future__ import annotations

import json
from dataclasses import dataclass

_source = "Momentum returns were 12% a year in the sample. Value returns were flat."
_body = "Momentum returns were 12% a year in the sample."
_value = "Value returns were flat."
_n1, _n2, _n3 = "zk:lab:n1", "zk:lab:n2", "zk:lab:n3"


@dataclass(frozen=True, kw_only=True)
class Example:
    """A named payload, the decision it should get and why it is interesting."""

    key: str
    title: str
    expect: str
    summary: str
    text: str

    def payload(self) -> dict:
        return json.loads(self.text)


def _restate(cid: str = "c1", text: str = _body, cites: tuple[str, ...] = (_n1,)) -> dict:
    return {"id": cid, "text": text, "kind": "restatement", "cites": list(cites), "premises": []}


def _payload(claims: list[dict], prose: str | None = None, **extra: object) -> dict:
    conclusion = claims[-1]["id"]
    if prose is None:
        prose = claims[-1]["text"]
    dag: dict = {"claims": claims, "conclusion": conclusion}
    if prose:
        dag["prose_citations"] = [{"start": 0, "end": len(prose), "claim": conclusion}]
    return {"dag": dag, "prose": prose, **extra}


def _quote(body: str) -> dict:
    return {"type": "quote", "payload": {"body": body, "fulltext": _source}}


def _traceability_payload() -> dict:
    licensed = _body
    paraphrase = "Momentum always wins, by 40% in 2009."
    prose = f"{licensed} {paraphrase} {_value}"
    second = len(licensed) + 1
    return {
        "dag": {
            "claims": [_restate(), _restate("c2", _value, (_n2,))],
            "conclusion": "c1",
            "prose_citations": [
                {"start": 0, "end": len(licensed), "claim": "c1"},
                {"start": second, "end": second + len(paraphrase), "claim": "c1"},
            ],
        },
        "prose": prose,
        "node_status": {_n1: {"tier": "grounded"}, _n2: {"tier": "grounded"}},
        "node_bodies": {_n1: _body, _n2: _value},
    }


def _cyclic_payload() -> dict:
    claims = [
        {"id": "c1", "text": _body, "kind": "deduction", "cites": [], "premises": ["c2"]},
        {"id": "c2", "text": _value, "kind": "deduction", "cites": [], "premises": ["c1"]},
    ]
    return {"dag": {"claims": claims, "conclusion": "c1"}, "prose": ""}


def _items() -> list[tuple[str, str, str, str, dict]]:
    grounded = {_n1: {"tier": "grounded"}}
    bodies = {_n1: _body}
    hedge = [
        {**_restate("p1")},
        {
            "id": "c2",
            "text": "Momentum may persist.",
            "kind": "inference",
            "cites": [],
            "premises": ["p1"],
        },
    ]
    return [
        (
            "grounded",
            "Grounded answer: the quote is found in its source",
            "ANSWER",
            "A restatement whose quote the verifier finds verbatim in the source text.",
            _payload([_restate()], groundings={_n1: _quote(_body)}, node_bodies=bodies),
        ),
        (
            "measured",
            "Measured answer: reproduced from data",
            "ANSWER",
            "The cited node was recomputed from data, the strongest status.",
            _payload([_restate()], node_status={_n1: "measured"}, node_bodies=bodies),
        ),
        (
            "outdated",
            "Outdated but answered, with a disclosure",
            "ANSWER",
            "The tethered file changed but the anchor text is still there: answered, disclosed.",
            _payload(
                [_restate()],
                node_status={_n1: {"tier": "grounded", "outdated": True}},
                node_bodies=bodies,
            ),
        ),
        (
            "hedged",
            "Hedged answer: an honest inference on a verified premise",
            "HEDGED ANSWER",
            "The conclusion goes beyond a verified premise; the prose restates that premise.",
            {
                "dag": {"claims": hedge, "conclusion": "c2"},
                "prose": _body,
                "node_status": grounded,
                "node_bodies": bodies,
            },
        ),
        (
            "missing-hop",
            "Missing hop: a cited node nobody checked",
            "ABSTAIN",
            "The claim cites a node with no verifier and no status.",
            _payload([_restate()], prose=""),
        ),
        (
            "stale",
            "Stale tether: the anchored text is gone",
            "ABSTAIN",
            "The cited note's tethered file no longer contains its anchor.",
            _payload(
                [_restate()],
                prose="",
                node_status={_n1: {"tier": "grounded", "stale": True}},
                node_bodies=bodies,
            ),
        ),
        (
            "false-premise",
            "False premise: a fabricated quote",
            "ABSTAIN",
            "The quoted figure is not in the source; the verifier reports the nearest text.",
            _payload(
                [_restate(text="Momentum returns were 40% a year in the sample.")],
                groundings={_n1: _quote("Momentum returns were 40% a year in the sample.")},
                node_bodies={_n1: "Momentum returns were 40% a year in the sample."},
            ),
        ),
        (
            "orphan-prose",
            "Low coverage: prose the claims do not license",
            "ABSTAIN",
            "One licensed sentence, one cited paraphrase with stray numbers, one uncited sentence.",
            _traceability_payload(),
        ),
        (
            "honesty",
            "Honesty violation: asserted above derived",
            "ABSTAIN",
            "The reasoner asserts measured; the engine derives only grounded.",
            _payload(
                [_restate()], node_status=grounded, node_bodies=bodies, asserted={"c1": "measured"}
            ),
        ),
        (
            "contested",
            "Contested: a practice entry contradicts the cited note",
            "ABSTAIN",
            "A contradicts edge makes the cited note contested, so the answer is not verified.",
            _payload(
                [_restate()],
                node_status=grounded,
                node_bodies=bodies,
                edges=[{"src": "mem:_memory:deci-1", "dst": _n1, "relation": "contradicts"}],
            ),
        ),
        (
            "all-reasons",
            "Every abstain reason at once, in order",
            "ABSTAIN",
            "A missing hop, a stale tether, a refuted quote and orphan prose together.",
            _payload(
                [_restate(cites=(_n1, _n2, _n3))],
                prose="Something else entirely.",
                node_status={_n2: {"tier": "grounded", "stale": True}},
                groundings={_n3: _quote("Value returns were 99% a year.")},
                node_bodies=bodies,
            ),
        ),
        (
            "cyclic",
            "Malformed: premises that form a cycle",
            "invalid",
            "Not a DAG: the payload is rejected with a one-line message.",
            _cyclic_payload(),
        ),
    ]


def examples() -> tuple[Example, ...]:
    """Every gallery example, in demo order."""
    return tuple(
        Example(
            key=key,
            title=title,
            expect=expect,
            summary=summary,
            text=json.dumps(data, indent=2, ensure_ascii=False),
        )
        for key, title, expect, summary, data in _items()
    )


def example(key: str) -> Example:
    """The gallery example named `key`; raises KeyError for an unknown one."""
    for item in examples():
        if item.key == key:
            return item
    raise KeyError(key)
