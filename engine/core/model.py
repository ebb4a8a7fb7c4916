"""Addresses, claims, the reasoning DAG and its prose citations, validated on construction."""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from engine.core.errors import PayloadError
from engine.core.values import quick_init

MAX_CLAIMS = 10_000
MAX_PROSE_BYTES = 1_000_000

# An address segment: printable, no whitespace; the id segment may hold ':' and '/'.
_SEGMENT = re.compile(r"^[^\s:\x00-\x1f\x7f]+$")
_ID = re.compile(r"^[^\s\x00-\x1f\x7f]+$")


@dataclass(frozen=True, order=True)
class Address:
    """A node address `store:source:id`, e.g. `zk:scifact:4983` or `code:repo:src/a.py`."""

    store: str
    source: str
    id: str

    @classmethod
    def parse(cls, text: object) -> Address:
        if not isinstance(text, str):
            raise PayloadError(f"address must be a string, got {type(text).__name__}")
        if cls is Address:
            return _parsed(text)  # the same address recurs in every payload citing it
        return cls._read(text)

    @classmethod
    def _read(cls, text: str) -> Address:
        parts = text.split(":", 2)
        if len(parts) != 3 or not all(parts):
            raise PayloadError(f"address {text!r} is not of the form store:source:id")
        store, source, ident = parts
        if not (_SEGMENT.match(store) and _SEGMENT.match(source) and _ID.match(ident)):
            raise PayloadError(f"address {text!r} contains whitespace or control characters")
        return cls(store, source, ident)

    def __str__(self) -> str:
        return f"{self.store}:{self.source}:{self.id}"


@lru_cache(maxsize=4096)
def _parsed(text: str) -> Address:
    return Address._read(text)


class ClaimKind(StrEnum):
    """How a claim relates to what it rests on."""

    RESTATEMENT = "restatement"
    DEDUCTION = "deduction"
    INFERENCE = "inference"
    ASSUMPTION = "assumption"


@quick_init
@dataclass(frozen=True)
class Claim:
    """One node of the reasoning DAG."""

    id: str
    text: str
    kind: ClaimKind
    cites: tuple[str, ...] = ()
    premises: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind.value,
            "cites": list(self.cites),
            "premises": list(self.premises),
        }


@quick_init
@dataclass(frozen=True)
class ProseCitation:
    """A character span `[start, end)` of the prose that cites one claim."""

    start: int
    end: int
    claim: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "claim": self.claim}


# The edge relation the router honours: its endpoints are contested. The review wing's
# `Relation.CONTRADICTS` has the same value, but the core depends on no other wing.
CONTRADICTS = "contradicts"


@dataclass(frozen=True)
class Edge:
    """A typed edge between two nodes, e.g. a `contradicts` edge from the overlay or triage."""

    src: str
    dst: str
    relation: str

    def to_dict(self) -> dict[str, Any]:
        return {"src": self.src, "dst": self.dst, "relation": self.relation}


@dataclass(frozen=True)
class ReasoningDAG:
    """Claims with premises forming a DAG, a conclusion, and optional prose citations.

    Construct through `ReasoningDAG.build`, which validates; the claims are kept in a
    topological order (premises before the claims that rest on them).
    """

    claims: tuple[Claim, ...]
    conclusion: str
    prose_citations: tuple[ProseCitation, ...] = ()

    @classmethod
    def build(
        cls,
        claims: Iterable[Claim],
        conclusion: str,
        prose_citations: Iterable[ProseCitation] = (),
        *,
        prose: str | None = None,
    ) -> ReasoningDAG:
        """Validate and build; `prose`, when given, bounds the citation spans."""
        items = list(claims)
        if len(items) > MAX_CLAIMS:
            raise PayloadError(f"too many claims: {len(items)} (the limit is {MAX_CLAIMS})")
        by_id: dict[str, Claim] = {}
        for claim in items:
            if claim.id in by_id:
                raise PayloadError(f"duplicate claim id {claim.id!r}")
            by_id[claim.id] = claim
        for claim in items:
            for premise in claim.premises:
                if premise not in by_id:
                    raise PayloadError(f"claim {claim.id!r} has unknown premise {premise!r}")
        if conclusion not in by_id:
            raise PayloadError(f"unknown conclusion {conclusion!r}")
        ordered = _topological(items, by_id)
        citations = tuple(prose_citations)
        limit = None if prose is None else len(prose)
        for cite in citations:
            if cite.claim not in by_id:
                raise PayloadError(f"prose citation names unknown claim {cite.claim!r}")
            if cite.start < 0 or cite.end <= cite.start or (limit is not None and cite.end > limit):
                bound = "" if limit is None else f" in prose of length {limit}"
                raise PayloadError(
                    f"prose citation span [{cite.start}, {cite.end}) is out of range{bound}"
                )
        return cls(tuple(ordered), conclusion, citations)

    def claim(self, claim_id: str) -> Claim:
        return self._index()[claim_id]

    def topological(self) -> tuple[Claim, ...]:
        return self.claims

    def premise_closure(self, claim_id: str) -> tuple[str, ...]:
        """`claim_id` and every claim it transitively rests on, in topological order."""
        # Asked of the conclusion by several stages of one route: kept on the DAG, a value.
        closures = self.__dict__.get("_closures")
        if closures is None:
            closures = {}
            object.__setattr__(self, "_closures", closures)
        found = closures.get(claim_id)
        if found is None:
            found = closures[claim_id] = self._closure(claim_id)
        return found  # type: ignore[no-any-return]  # only closures are kept

    def _closure(self, claim_id: str) -> tuple[str, ...]:
        index = self._index()
        seen: set[str] = set()
        stack = [claim_id]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            stack.extend(index[current].premises)
        return tuple(c.id for c in self.claims if c.id in seen)

    def closure_cites(self, claim_id: str) -> tuple[str, ...]:
        """Every node cited anywhere in the premise closure of `claim_id`, sorted."""
        index = self._index()
        return tuple(
            sorted({ref for cid in self.premise_closure(claim_id) for ref in index[cid].cites})
        )

    def _index(self) -> Mapping[str, Claim]:
        cached = self.__dict__.get("_by_id")
        if cached is None:
            cached = {c.id: c for c in self.claims}
            object.__setattr__(self, "_by_id", cached)
        return cached

    def to_dict(self) -> dict[str, Any]:
        return {
            "claims": [c.to_dict() for c in self.claims],
            "conclusion": self.conclusion,
            "prose_citations": [p.to_dict() for p in self.prose_citations],
        }


def _topological(items: list[Claim], by_id: Mapping[str, Claim]) -> list[Claim]:
    """Kahn's algorithm, stable in input order; a premise cycle is a payload error."""
    position = {c.id: i for i, c in enumerate(items)}
    waiting = {c.id: len(set(c.premises)) for c in items}
    dependants: dict[str, list[str]] = {c.id: [] for c in items}
    for claim in items:
        for premise in set(claim.premises):
            dependants[premise].append(claim.id)
    ready = [position[c.id] for c in items if waiting[c.id] == 0]
    heapq.heapify(ready)
    ordered: list[Claim] = []
    while ready:
        current = items[heapq.heappop(ready)]
        ordered.append(current)
        for child in dependants[current.id]:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, position[child])
    if len(ordered) != len(items):
        stuck = sorted(cid for cid, n in waiting.items() if n > 0)
        raise PayloadError(f"premise cycle among claims {stuck[:5]}")
    return ordered
