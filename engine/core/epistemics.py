"""The status contract: tiers, verdict flags, wire status, propagation and honesty."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.core.model import CONTRADICTS, ClaimKind, Edge, ReasoningDAG
from engine.core.values import quick_init


class Tier(StrEnum):
    """Epistemic tiers, strongest first."""

    MEASURED = "measured"
    GROUNDED = "grounded"
    INFERRED = "inferred"
    ASSUMPTION = "assumption"

    @property
    def rank(self) -> int:
        """Higher is stronger: measured 3, grounded 2, inferred 1, assumption 0."""
        return _RANK[self._value_]  # keyed by the plain string: an enum member hashes in Python

    @property
    def verified(self) -> bool:
        return self._value_ in _VERIFIED


_RANK = {"measured": 3, "grounded": 2, "inferred": 1, "assumption": 0}
_VERIFIED = frozenset({"measured", "grounded"})
FLAGS = ("stale", "outdated", "contested", "unresolved")


@quick_init
@dataclass(frozen=True)
class Verdict:
    """A tier plus the flags that qualify it."""

    tier: Tier
    stale: bool = False
    outdated: bool = False
    contested: bool = False
    unresolved: bool = False

    @classmethod
    def of(cls, tier: Tier | str, **flags: bool) -> Verdict:
        return cls(Tier(tier), **flags)

    @classmethod
    def unresolved_inference(cls) -> Verdict:
        """What a claim resting on nothing, or a ground nobody could check, gets."""
        return cls(Tier.INFERRED, unresolved=True)

    def wire(self) -> Tier:
        """The status shown on the wire: stale, contested or unresolved demote verified to inferred.

        `outdated` never lowers the status; it is disclosed instead.
        """
        if (self.stale or self.contested or self.unresolved) and self.tier.verified:
            return Tier.INFERRED
        return self.tier

    @property
    def verified(self) -> bool:
        return self.wire().verified

    def flags(self) -> tuple[str, ...]:
        """The names of the flags set, in `FLAGS` order."""
        if not (self.stale or self.outdated or self.contested or self.unresolved):
            return ()  # the common verdict, told without a lookup by name
        return tuple(name for name in FLAGS if getattr(self, name))

    def capped(self, tier: Tier) -> Verdict:
        """The same flags with the tier lowered to at most `tier`."""
        return self if self.tier.rank <= tier.rank else replace(self, tier=tier)

    def to_dict(self) -> dict[str, Any]:
        # `_value_` is the member's value read directly; `.value` goes through a descriptor.
        status = self.wire()._value_
        return {"status": status, "tier": self.tier._value_, "flags": list(self.flags())}


def weakest(verdicts: Iterable[Verdict]) -> Verdict | None:
    """The lowest tier among `verdicts`, carrying every flag any of them has."""
    items = list(verdicts)
    if not items:
        return None
    if len(items) == 1:
        return items[0]  # verdicts are values: the one verdict is its own weakest
    # One pass: the first of the lowest tiers, and every flag any of them has.
    tier = items[0].tier
    rank = _RANK[tier._value_]
    stale = outdated = contested = unresolved = False
    for verdict in items:
        ranked = _RANK[verdict.tier._value_]
        if ranked < rank:
            tier, rank = verdict.tier, ranked
        stale = stale or verdict.stale
        outdated = outdated or verdict.outdated
        contested = contested or verdict.contested
        unresolved = unresolved or verdict.unresolved
    return Verdict(tier, stale=stale, outdated=outdated, contested=contested, unresolved=unresolved)


def contested_refs(edges: Iterable[Edge]) -> frozenset[str]:
    """Every node that is an endpoint of a `contradicts` edge."""
    out: set[str] = set()
    for edge in edges:
        if edge.relation == CONTRADICTS:
            out.update((edge.src, edge.dst))
    return frozenset(out)


def mark_contested(nodes: Mapping[str, Verdict], edges: Iterable[Edge]) -> dict[str, Verdict]:
    """Copy of `nodes` with every endpoint of a `contradicts` edge flagged contested."""
    disputed = contested_refs(edges)
    if not disputed:
        return dict(nodes)
    return {ref: (replace(v, contested=True) if ref in disputed else v) for ref, v in nodes.items()}


def derive_claims(
    dag: ReasoningDAG,
    nodes: Mapping[str, Verdict],
    *,
    capped: Iterable[str] = (),
) -> dict[str, Verdict]:
    """Derive every claim's verdict from the node verdicts it cites and the claims it rests on.

    A claim gets the weakest of its cites and premises with every flag inherited; a cite
    with no verdict counts as an unresolved inference. Inferences are capped at inferred,
    assumptions sit at assumption, and a claim resting on nothing is inferred and
    unresolved. Claims named in `capped` (floored restatements) are held at inferred.
    """
    capped_ids = frozenset(capped)
    out: dict[str, Verdict] = {}
    for claim in dag.topological():
        parts = [nodes.get(ref) or Verdict.unresolved_inference() for ref in claim.cites]
        parts += [out[p] for p in claim.premises]
        base = weakest(parts) or Verdict.unresolved_inference()
        if claim.kind is ClaimKind.INFERENCE or claim.id in capped_ids:
            base = base.capped(Tier.INFERRED)
        elif claim.kind is ClaimKind.ASSUMPTION:
            base = replace(base, tier=Tier.ASSUMPTION)
        out[claim.id] = base
    return out


@dataclass(frozen=True)
class HonestyViolation:
    """A claim whose asserted status is above the status the engine derived."""

    claim: str
    asserted: Tier
    derived: Tier

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "asserted": self.asserted.value, "derived": self.derived.value}


def check_honesty(
    asserted: Mapping[str, Tier], derived: Mapping[str, Verdict]
) -> tuple[HonestyViolation, ...]:
    """Every asserted status that exceeds the derived wire status, in claim-id order."""
    out = []
    for claim_id in sorted(asserted):
        verdict = derived.get(claim_id)
        if verdict is None:
            continue
        claimed, actual = asserted[claim_id], verdict.wire()
        if claimed.rank > actual.rank:
            out.append(HonestyViolation(claim_id, claimed, actual))
    return tuple(out)
