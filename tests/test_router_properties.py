"""Property tests of the router over random valid payloads and arbitrary JSON."""

import copy
import json
import os
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings

from engine.api import route_payload
from engine.core.errors import PayloadError
from engine.core.model import MAX_CLAIMS, MAX_PROSE_BYTES
from engine.core.router import route
from engine.core.wire import parse_json
from tests.strategies import REASONS, closure, closure_cites, malformed_payloads, payloads

VERIFIED = {"measured", "grounded"}
RANK = {"measured": 3, "grounded": 2, "inferred": 1, "assumption": 0}
KIND_CEILING = {"restatement": 3, "deduction": 3, "inference": 1, "assumption": 0}


def _settings(default: int) -> settings:
    # The env var lets `make fuzz` (and a quick local run) choose the example count.
    return settings(
        max_examples=int(os.environ.get("SYNAPSE_FUZZ_EXAMPLES", default)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _bytes(data: dict[str, Any]) -> str:
    return json.dumps(route_payload(data), sort_keys=True)


def _strip(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def check_valid(data: dict[str, Any]) -> None:
    """Route a valid payload and check every invariant of the decision."""
    out = route_payload(data)
    json.dumps(out, allow_nan=False)
    _check_decision(data, out)
    _check_reasons(data, out)
    _check_claims(data, out)


def _check_decision(data: dict[str, Any], out: dict[str, Any]) -> None:
    claims, conclusion = data["dag"]["claims"], data["dag"]["conclusion"]
    members = closure(claims, conclusion)
    mine = out["claims"][conclusion]
    if out["verdict"] == "abstain":
        assert out["status"] is None and out["reasons"]
        assert out["reasons"] == [r for r in REASONS if r in out["reasons"]]
        return
    assert out["verdict"] == "answer" and out["reasons"] == [] and not out["honesty_violations"]
    assert out["traceability"]["ok"]
    # Every licensed sentence is licensed by a verified claim of the conclusion's closure.
    for sentence in out["traceability"]["sentences"]:
        if sentence["claim"] is not None:
            assert sentence["claim"] in members
            assert out["claims"][sentence["claim"]]["status"] in VERIFIED
    assert out["outdated"] == ("outdated" in mine["flags"])
    if out["status"] in VERIFIED:
        assert mine["status"] == out["status"]
        return
    assert out["status"] == "inferred" and mine["status"] == "inferred"
    assert any(out["claims"][c]["status"] in VERIFIED for c in members - {conclusion})
    assert not {"contested", "unresolved", "stale"} & set(mine["flags"])
    failed = {r for r, v in out["verifiers"].items() if v["status"] == "failed"}
    assert not failed & closure_cites(claims, conclusion)


def _check_reasons(data: dict[str, Any], out: dict[str, Any]) -> None:
    """Each structural reason is reported exactly when the input calls for it."""
    cites = closure_cites(data["dag"]["claims"], data["dag"]["conclusion"])
    checked = set(data.get("node_status", {})) | set(data.get("groundings", {}))
    refuted = {r for r in cites if out["verifiers"].get(r, {}).get("status") == "failed"}
    stale = "stale" in out["claims"][data["dag"]["conclusion"]]["flags"]
    reasons = set(out["reasons"])
    assert ("missing-hop" in reasons) == bool(cites - checked)
    assert ("stale" in reasons) == stale
    assert ("false-premise" in reasons) == bool(refuted)
    blocking = (data.get("coverage_report") or {}).get("blocking_count", 0)
    if not out["traceability"]["ok"] or blocking:
        assert "low-coverage" in reasons
    asserted = data.get("asserted", {})
    violations = [
        c for c in sorted(asserted) if RANK[asserted[c]] > RANK[out["claims"][c]["status"]]
    ]
    assert [v["claim"] for v in out["honesty_violations"]] == violations


def _check_claims(data: dict[str, Any], out: dict[str, Any]) -> None:
    """Kinds cap statuses; a claim never outranks what it rests on and inherits its flags."""
    disputed = {
        end
        for edge in data.get("edges", [])
        if edge["relation"] == "contradicts"
        for end in (edge["src"], edge["dst"])
    }
    for ref, node in out["nodes"].items():
        if ref in disputed:
            assert "contested" in node["flags"], ref
    for claim in data["dag"]["claims"]:
        got = out["claims"][claim["id"]]
        assert RANK[got["status"]] <= KIND_CEILING[claim["kind"]], claim
        unchecked = {"tier": "inferred", "flags": ["unresolved"]}
        parts = [out["nodes"].get(ref, unchecked) for ref in claim["cites"]]
        parts += [out["claims"][p] for p in claim["premises"]]
        assert all(RANK[got["tier"]] <= RANK[p["tier"]] for p in parts), claim
        assert {f for p in parts for f in p["flags"]} <= set(got["flags"]), claim
        if not parts:
            assert "unresolved" in got["flags"], claim


def check_malformed(data: object) -> None:
    """Arbitrary JSON routes to serialisable output or raises `PayloadError`, nothing else."""
    try:
        # Arbitrary JSON on purpose: what a caller might wrongly pass where an object belongs.
        out = route_payload(cast(dict[str, Any], data))
    except PayloadError as exc:
        assert str(exc)
    else:
        json.dumps(out)


@given(payloads())
@_settings(200)
def test_valid_payloads_route_and_keep_the_guards(data: dict[str, Any]) -> None:
    check_valid(data)


@given(malformed_payloads)
@_settings(300)
def test_arbitrary_json_routes_or_raises_payload_error(data: object) -> None:
    check_malformed(data)


@given(payloads())
@_settings(100)
def test_asserted_status_never_changes_a_derived_status(data: dict[str, Any]) -> None:
    with_claims = route_payload(data)["claims"]
    without = route_payload(_strip(data, "asserted"))["claims"]
    assert [_strip(v, "asserted") for v in with_claims.values()] == [
        _strip(v, "asserted") for v in without.values()
    ]


@given(payloads())
@_settings(100)
def test_same_input_same_bytes(data: dict[str, Any]) -> None:
    first = _bytes(data)
    assert _bytes(data) == first
    assert _bytes(json.loads(json.dumps(data))) == first


@given(payloads())
@_settings(100)
def test_removing_statuses_never_turns_abstain_into_answer(data: dict[str, Any]) -> None:
    if route_payload(data)["verdict"] == "abstain":
        assert route_payload(_strip(data, "node_status", "groundings"))["verdict"] == "abstain"


@pytest.mark.fuzz
@given(payloads())
@_settings(20_000)
def test_fuzz_valid_payloads(data: dict[str, Any]) -> None:
    check_valid(data)


@pytest.mark.fuzz
@given(malformed_payloads)
@_settings(20_000)
def test_fuzz_arbitrary_json(data: object) -> None:
    check_malformed(data)


def _chain(count: int) -> dict[str, Any]:
    claims = [{"id": "c0", "text": "Returns rose.", "kind": "restatement", "cites": ["zk:b:n1"]}]
    claims += [
        {"id": f"c{i}", "text": "Returns rose.", "kind": "deduction", "premises": [f"c{i - 1}"]}
        for i in range(1, count)
    ]
    return {
        "dag": {"claims": claims, "conclusion": claims[-1]["id"]},
        "prose": "Returns rose.",
        "node_status": {"zk:b:n1": "grounded"},
        "node_bodies": {"zk:b:n1": "Returns rose."},
    }


def test_longest_premise_chain_routes() -> None:
    # How its time grows with the chain is a `make bench` row, not a test's.
    out = route_payload(_chain(MAX_CLAIMS))
    assert (out["verdict"], out["status"]) == ("answer", "grounded")
    assert len(out["claims"]) == MAX_CLAIMS


OVERSIZED = {
    "too-many-claims": _chain(MAX_CLAIMS + 1),
    "prose-over-limit": {**_chain(1), "prose": "x" * (2 * MAX_PROSE_BYTES)},
    "huge-citation-span": {
        **_chain(1),
        "dag": {
            **_chain(1)["dag"],
            "prose_citations": [{"start": 0, "end": 10**30, "claim": "c0"}],
        },
    },
    "negative-citation-span": {
        **_chain(1),
        "dag": {**_chain(1)["dag"], "prose_citations": [{"start": -5, "end": 3, "claim": "c0"}]},
    },
}


@pytest.mark.parametrize("data", OVERSIZED.values(), ids=OVERSIZED.keys())
def test_oversized_input_is_rejected(data: dict[str, Any]) -> None:
    with pytest.raises(PayloadError):
        route_payload(data)


def _with_text(text: str) -> str:
    """A one-claim payload whose claim text, prose, id and body all carry `text`, as JSON."""
    data = _chain(1)
    data["dag"]["claims"][0]["text"] = text
    data["prose"] = text
    data["node_bodies"] = {"zk:b:n1": text, f"zk:b:{text or 'x'}": text}
    return json.dumps(data, ensure_ascii=True)


UNICODE = {
    "combining-marks": "Cafe\u0301 returns rose\u0308.",
    "rtl": "\u202eReturns rose\u202c \u05e9\u05dc\u05d5\u05dd.",
    "lone-high-surrogate": "Returns \ud800 rose.",
    "lone-low-surrogate": "\udfff",
    "zero-width": "Re\u200bturns\u200d rose\ufeff.",
    "only-zero-width": "\u200b\u200c",
    "nul-and-controls": "Returns\x00 rose\x07.",
}


@pytest.mark.parametrize("text", UNICODE.values(), ids=UNICODE.keys())
def test_unicode_edge_cases_route_or_raise_payload_error(text: str) -> None:
    try:
        decision = route(parse_json(_with_text(text)))
    except PayloadError:
        return
    out = decision.to_dict()
    assert out["verdict"] in {"answer", "abstain"}
    json.dumps(out)


RAW = {
    "deep-nesting": "[" * 100_000 + "]" * 100_000,
    "huge-integer": '{"prose": ' + "9" * 5000 + "}",
    "invalid-utf8": b'{"prose": "\xff\xfe"}',
    "not-an-object": "[1, 2, 3]",
    "nan-blocking-count": '{"dag": {"claims": []}, "coverage_report": {"blocking_count": NaN}}',
}


@pytest.mark.parametrize("text", RAW.values(), ids=RAW.keys())
def test_pathological_json_raises_payload_error(text: str | bytes) -> None:
    with pytest.raises(PayloadError):
        parse_json(text)


def test_mutation_does_not_leak_into_input() -> None:
    data = _chain(3)
    before = copy.deepcopy(data)
    route_payload(data)
    assert data == before
