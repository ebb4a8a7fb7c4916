from collections.abc import Sequence

import pytest

from engine.core.errors import PayloadError
from engine.core.model import Address, Claim, ClaimKind, ProseCitation, ReasoningDAG


def claim(
    cid: str, *premises: str, kind: ClaimKind = ClaimKind.DEDUCTION, cites: Sequence[str] = ()
) -> Claim:
    return Claim(cid, f"text {cid}", kind, tuple(cites), tuple(premises))


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("zk:scifact:4983", ("zk", "scifact", "4983")),
        ("code:repo:src/strategy.py", ("code", "repo", "src/strategy.py")),
        ("zk:~fed~peer~box:z1", ("zk", "~fed~peer~box", "z1")),
        ("mem:_memory:a:b", ("mem", "_memory", "a:b")),
    ],
    ids=["canon", "code-path", "federated", "colon-in-id"],
)
def test_address_round_trip(text: str, parts: tuple[str, str, str]) -> None:
    address = Address.parse(text)
    assert (address.store, address.source, address.id) == parts
    assert str(address) == text


@pytest.mark.parametrize(
    "text", ["zk:box", "zk::id", ":a:b", "zk:bo x:id", "zk:box:i\nd", 5], ids=str
)
def test_address_rejects(text: str | int) -> None:
    with pytest.raises(PayloadError):
        Address.parse(text)


def test_topological_order_puts_premises_first() -> None:
    dag = ReasoningDAG.build([claim("c", "b"), claim("b", "a"), claim("a")], "c")
    assert [c.id for c in dag.claims] == ["a", "b", "c"]
    assert dag.premise_closure("c") == ("a", "b", "c")


@pytest.mark.parametrize(
    ("claims", "conclusion", "message"),
    [
        ([claim("a"), claim("a")], "a", "duplicate claim id 'a'"),
        ([claim("a", "zz")], "a", "unknown premise 'zz'"),
        ([claim("a", "b"), claim("b", "a")], "a", "premise cycle"),
        ([claim("a")], "nope", "unknown conclusion 'nope'"),
    ],
    ids=["duplicate", "unknown-premise", "cycle", "unknown-conclusion"],
)
def test_build_rejects_with_named_problem(
    claims: list[Claim], conclusion: str, message: str
) -> None:
    with pytest.raises(PayloadError, match=message):
        ReasoningDAG.build(claims, conclusion)


@pytest.mark.parametrize(
    ("span", "message"),
    [
        (ProseCitation(0, 50, "a"), "out of range"),
        (ProseCitation(3, 3, "a"), "out of range"),
        (ProseCitation(0, 2, "ghost"), "unknown claim 'ghost'"),
    ],
    ids=["past-end", "empty", "unknown-claim"],
)
def test_citation_spans_are_checked(span: ProseCitation, message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        ReasoningDAG.build([claim("a")], "a", [span], prose="short")


def test_closure_cites_are_sorted_and_exclude_unrelated_claims() -> None:
    dag = ReasoningDAG.build(
        [
            claim("a", cites=["zk:b:2", "zk:b:1"]),
            claim("x", cites=["zk:b:9"]),
            claim("c", "a", cites=["zk:b:3"]),
        ],
        "c",
    )
    assert dag.closure_cites("c") == ("zk:b:1", "zk:b:2", "zk:b:3")


def test_deep_chain_builds_without_recursion() -> None:
    n = 10_000
    claims = [claim("c0")] + [claim(f"c{i}", f"c{i - 1}") for i in range(1, n)]
    dag = ReasoningDAG.build(reversed(claims), f"c{n - 1}")
    assert len(dag.premise_closure(f"c{n - 1}")) == n


def test_too_many_claims_refused() -> None:
    with pytest.raises(PayloadError, match="too many claims"):
        ReasoningDAG.build([claim(f"c{i}") for i in range(10_001)], "c0")
