import pytest

from engine.core.epistemics import (
    Tier,
    Verdict,
    check_honesty,
    derive_claims,
    mark_contested,
    weakest,
)
from engine.core.model import Claim, ClaimKind, Edge, ReasoningDAG

G = Verdict(Tier.GROUNDED)
M = Verdict(Tier.MEASURED)


@pytest.mark.parametrize(
    ("verdict", "wire"),
    [
        (G, Tier.GROUNDED),
        (Verdict(Tier.GROUNDED, stale=True), Tier.INFERRED),
        (Verdict(Tier.MEASURED, contested=True), Tier.INFERRED),
        (Verdict(Tier.GROUNDED, unresolved=True), Tier.INFERRED),
        (Verdict(Tier.GROUNDED, outdated=True), Tier.GROUNDED),
        (Verdict(Tier.ASSUMPTION, stale=True), Tier.ASSUMPTION),
    ],
    ids=["grounded", "stale", "contested", "unresolved", "outdated-kept", "assumption"],
)
def test_wire_status(verdict: Verdict, wire: Tier) -> None:
    assert verdict.wire() is wire


def test_weakest_takes_lowest_tier_and_all_flags() -> None:
    got = weakest([M, Verdict(Tier.GROUNDED, outdated=True), Verdict(Tier.MEASURED, stale=True)])
    assert got == Verdict(Tier.GROUNDED, stale=True, outdated=True)
    assert weakest([]) is None


def dag(*claims: Claim, conclusion: str) -> ReasoningDAG:
    return ReasoningDAG.build(claims, conclusion)


@pytest.mark.parametrize(
    ("kind", "cites", "nodes", "expected"),
    [
        (ClaimKind.RESTATEMENT, ("zk:a:1",), {"zk:a:1": M}, M),
        (ClaimKind.RESTATEMENT, ("zk:a:1", "zk:a:2"), {"zk:a:1": M, "zk:a:2": G}, G),
        (ClaimKind.INFERENCE, ("zk:a:1",), {"zk:a:1": M}, Verdict(Tier.INFERRED)),
        (ClaimKind.ASSUMPTION, ("zk:a:1",), {"zk:a:1": M}, Verdict(Tier.ASSUMPTION)),
        (ClaimKind.RESTATEMENT, (), {}, Verdict(Tier.INFERRED, unresolved=True)),
        (ClaimKind.RESTATEMENT, ("zk:a:9",), {}, Verdict(Tier.INFERRED, unresolved=True)),
    ],
    ids=[
        "single",
        "weakest-cite",
        "inference-capped",
        "assumption",
        "rests-on-nothing",
        "no-verdict",
    ],
)
def test_claim_derivation(
    kind: ClaimKind, cites: tuple[str, ...], nodes: dict[str, Verdict], expected: Verdict
) -> None:
    d = dag(Claim("c", "t", kind, cites), conclusion="c")
    assert derive_claims(d, nodes)["c"] == expected


def test_flags_inherit_through_premises_and_caps_apply() -> None:
    d = dag(
        Claim("a", "t", ClaimKind.RESTATEMENT, ("zk:a:1",)),
        Claim("b", "t", ClaimKind.DEDUCTION, (), ("a",)),
        conclusion="b",
    )
    nodes = {"zk:a:1": Verdict(Tier.GROUNDED, outdated=True)}
    assert derive_claims(d, nodes)["b"] == Verdict(Tier.GROUNDED, outdated=True)
    capped = derive_claims(d, nodes, capped=["a"])
    assert capped["b"].tier is Tier.INFERRED and capped["b"].outdated


def test_contradicts_edges_mark_both_endpoints() -> None:
    nodes = {"zk:a:1": G, "mem:_memory:x": G, "zk:a:2": G}
    edges = [Edge("mem:_memory:x", "zk:a:1", "contradicts"), Edge("zk:a:2", "zk:a:1", "supports")]
    marked = mark_contested(nodes, edges)
    assert marked["zk:a:1"].contested and marked["mem:_memory:x"].contested
    assert not marked["zk:a:2"].contested


def test_honesty_flags_only_upgrades() -> None:
    derived = {"a": G, "b": Verdict(Tier.INFERRED)}
    asserted = {"a": Tier.INFERRED, "b": Tier.GROUNDED}
    (violation,) = check_honesty(asserted, derived)
    assert (violation.claim, violation.asserted, violation.derived) == (
        "b",
        Tier.GROUNDED,
        Tier.INFERRED,
    )
