"""The JSON wire format: parse and validate a routing payload into engine values."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.epistemics import FLAGS, Tier, Verdict
from engine.core.errors import PayloadError
from engine.core.grounds import GroundingSpec, VerifiedGround
from engine.core.jsonsafe import filled_strings, member
from engine.core.model import (
    MAX_PROSE_BYTES,
    Address,
    Claim,
    ClaimKind,
    Edge,
    ProseCitation,
    ReasoningDAG,
)
from engine.core.paraphrase import Paraphrased, parse_paraphrased
from engine.core.stance import Overstated
from engine.core.surrogates import require_unicode

MAX_PAYLOAD_BYTES = 64_000_000
_KINDS = ", ".join(k.value for k in ClaimKind)
_TIERS = ", ".join(t.value for t in Tier)


__all__ = [
    "Draft",
    "GroundingSpec",
    "RouteInput",
    "VerifiedGround",
    "dumps",
    "parse_draft",
    "parse_json",
    "parse_payload",
]


@dataclass(frozen=True)
class Draft:
    """A reasoner's answer before routing: the DAG, its prose and the statuses it asserts."""

    dag: ReasoningDAG
    prose: str = ""
    asserted: Mapping[str, Tier] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        claims: Iterable[Claim],
        conclusion: str,
        prose_citations: Iterable[ProseCitation] = (),
        *,
        prose: str = "",
        asserted: Mapping[str, Tier] | None = None,
    ) -> Draft:
        """Validate and build, as the wire format would; raises PayloadError naming the problem.

        Every cite must be an address; `asserted` may name only the DAG's claims.
        """
        items = list(claims)
        for claim in items:
            for ref in claim.cites:
                try:
                    Address.parse(ref)
                except PayloadError as exc:
                    raise PayloadError(f"claim {claim.id!r}: cites {exc}") from None
        dag = ReasoningDAG.build(items, conclusion, prose_citations, prose=prose)
        known = {c.id for c in items}
        for claim_id in asserted or {}:
            if claim_id not in known:
                raise PayloadError(f"asserted names unknown claim {claim_id!r}")
        return cls(dag, prose, dict(sorted((asserted or {}).items())))

    def to_dict(self) -> dict[str, Any]:
        """The draft in the wire format's field names."""
        return {
            "dag": self.dag.to_dict(),
            "prose": self.prose,
            "asserted": {claim: tier.value for claim, tier in self.asserted.items()},
        }


@dataclass(frozen=True)
class RouteInput:
    """Everything the router needs, parsed and validated from a wire payload.

    `verified` holds grounds already checked (by the navigator at grounding time); the
    router reuses such a result when its spec is the one in `groundings`, so each ground
    is verified once. It is never part of the wire format.
    """

    dag: ReasoningDAG
    prose: str = ""
    groundings: Mapping[str, GroundingSpec] = field(default_factory=dict)
    node_status: Mapping[str, Verdict] = field(default_factory=dict)
    node_bodies: Mapping[str, str] = field(default_factory=dict)
    asserted: Mapping[str, Tier] = field(default_factory=dict)
    edges: tuple[Edge, ...] = ()
    blocking_count: int = 0
    uncovered: tuple[str, ...] = ()
    # Common question words the cited sources never use: never green, at most hedged.
    unmentioned: tuple[str, ...] = ()
    # How the cited text withholds the yes the question asks (or the claim it states says
    # more than the text): confirmed text beside the question, never green, at most hedged.
    withheld: Overstated | None = None
    withheld_no: bool = False  # the reading withheld was a no rather than a yes
    # The trained reader's reading that the quoted sentence answers the question in other
    # words: the question words it never uses do not block, and the answer is at most hedged.
    paraphrased: Paraphrased | None = None
    verified: Mapping[str, VerifiedGround] = field(default_factory=dict)

    @classmethod
    def from_draft(cls, draft: Draft, **fields: Any) -> RouteInput:
        """The input for routing `draft` with the navigator's `fields` (groundings, ...)."""
        return cls(dag=draft.dag, prose=draft.prose, asserted=draft.asserted, **fields)

    def to_dict(self) -> dict[str, Any]:
        """The wire payload, without the coverage report (whose full form the caller has)."""
        return {
            "dag": self.dag.to_dict(),
            "prose": self.prose,
            "asserted": {claim: tier.value for claim, tier in self.asserted.items()},
            "groundings": {ref: spec.to_dict() for ref, spec in self.groundings.items()},
            "node_status": {ref: _status_dict(v) for ref, v in self.node_status.items()},
            "node_bodies": dict(self.node_bodies),
            "edges": [edge.to_dict() for edge in self.edges],
            **({"paraphrased": self.paraphrased.to_dict()} if self.paraphrased else {}),
        }


def _status_dict(verdict: Verdict) -> dict[str, Any]:
    return {"tier": verdict.tier.value, **{flag: True for flag in verdict.flags()}}


def dumps(data: object) -> str:
    """Canonical JSON: sorted keys, so identical input gives byte-identical output."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def parse_json(text: str | bytes) -> RouteInput:
    """Parse JSON text into a `RouteInput`, raising `PayloadError` naming the problem."""
    if len(text) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"payload is {len(text):,} bytes; the limit is {MAX_PAYLOAD_BYTES:,}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise PayloadError("payload JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise PayloadError(f"payload is not valid JSON: {exc}") from None
    return parse_payload(data)


def parse_payload(data: object) -> RouteInput:
    """Validate a decoded payload (a dict) into a `RouteInput`."""
    draft = parse_draft(data)
    top = _mapping(data, "payload")
    return RouteInput.from_draft(
        draft,
        groundings=_freeze(_groundings(top.get("groundings", {}))),
        node_status=_freeze(_node_status(top.get("node_status", {}))),
        node_bodies=_freeze(_node_bodies(top.get("node_bodies", {}))),
        edges=_edges(top.get("edges", [])),
        blocking_count=_blocking(top.get("coverage_report")),
        uncovered=_uncovered(top.get("coverage_report")),
        unmentioned=_uncovered(top.get("coverage_report"), "unmentioned"),
        withheld=_withheld(top.get("coverage_report")),
        withheld_no=_withheld_no(top.get("coverage_report")),
        paraphrased=parse_paraphrased(top.get("paraphrased")),
    )


def parse_draft(data: object) -> Draft:
    """Validate the `dag`, `prose` and `asserted` of a decoded payload into a `Draft`."""
    top = _mapping(data, "payload")
    require_unicode(top)
    prose = top.get("prose", "")
    if not isinstance(prose, str):
        raise PayloadError(f"prose must be a string, got {_kind(prose)}")
    # A character is at most 4 bytes: prose shorter than a quarter of the limit fits unread.
    if len(prose) * 4 > MAX_PROSE_BYTES:
        size = len(prose.encode("utf-8", "surrogatepass"))
        if size > MAX_PROSE_BYTES:
            raise PayloadError(f"prose is {size:,} bytes; the limit is {MAX_PROSE_BYTES:,}")
    dag = _dag(top.get("dag"), prose)
    return Draft(dag, prose, _freeze(_asserted(top.get("asserted", {}), dag)))


def _dag(raw: object, prose: str) -> ReasoningDAG:
    dag = _mapping(raw, "dag")
    claims_raw = dag.get("claims")
    if not isinstance(claims_raw, list):
        raise PayloadError(f"dag.claims must be a list, got {_kind(claims_raw)}")
    if not claims_raw:
        raise PayloadError("dag.claims is empty; a DAG needs at least its conclusion")
    claims = [_claim(item, i) for i, item in enumerate(claims_raw)]
    conclusion = dag.get("conclusion")
    if not isinstance(conclusion, str):
        raise PayloadError(f"dag.conclusion must be a claim id string, got {_kind(conclusion)}")
    cites_raw = dag.get("prose_citations", [])
    if cites_raw is None:
        cites_raw = []
    if not isinstance(cites_raw, list):
        raise PayloadError(f"dag.prose_citations must be a list, got {_kind(cites_raw)}")
    citations = [_citation(item, i) for i, item in enumerate(cites_raw)]
    return ReasoningDAG.build(claims, conclusion, citations, prose=prose)


def _claim(raw: object, index: int) -> Claim:
    # Where a claim is, in words, is written only for an error: most claims are valid.
    item = raw if type(raw) is dict else _mapping(raw, f"dag.claims[{index}]")
    claim_id = item.get("id")
    if not isinstance(claim_id, str) or not claim_id:
        raise PayloadError(f"dag.claims[{index}].id must be a non-empty string")
    text = item.get("text", "")
    if not isinstance(text, str):
        raise PayloadError(f"claim {claim_id!r}: text must be a string, got {_kind(text)}")
    kind_raw = item.get("kind")
    kind = member(ClaimKind, kind_raw)
    if kind is None:
        raise PayloadError(
            f"claim {claim_id!r}: unknown kind {kind_raw!r} (expected one of {_KINDS})"
        )
    cites = _strings(item.get("cites", []), "cites", claim_id)
    for ref in cites:
        try:
            Address.parse(ref)
        except PayloadError as exc:
            raise PayloadError(f"claim {claim_id!r}: cites {exc}") from None
    premises = _strings(item.get("premises", []), "premises", claim_id)
    return Claim(claim_id, text, kind, tuple(dict.fromkeys(cites)), tuple(dict.fromkeys(premises)))


def _citation(raw: object, index: int) -> ProseCitation:
    item = raw if type(raw) is dict else _mapping(raw, f"dag.prose_citations[{index}]")
    start, end, claim = item.get("start"), item.get("end"), item.get("claim")
    if type(start) is int and type(end) is int and type(claim) is str:
        return ProseCitation(start, end, claim)  # the common case, checked at once
    for name, value in (("start", start), ("end", end)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PayloadError(f"dag.prose_citations[{index}].{name} must be an integer")
    assert isinstance(start, int) and isinstance(end, int)  # checked one by one above
    if not isinstance(claim, str):
        raise PayloadError(f"dag.prose_citations[{index}].claim must be a claim id string")
    return ProseCitation(start, end, claim)


def _groundings(raw: object) -> dict[str, GroundingSpec]:
    out = {}
    for ref, spec in _mapping(raw, "groundings").items():
        _address_key(ref, "groundings")
        item = _mapping(spec, f"groundings[{ref!r}]")
        kind = item.get("type")
        if not isinstance(kind, str) or not kind:
            raise PayloadError(f"groundings[{ref!r}].type must be a non-empty string")
        payload = item.get("payload", {})
        if type(payload) is not dict and not isinstance(payload, Mapping):
            raise PayloadError(f"groundings[{ref!r}].payload must be an object")
        out[ref] = GroundingSpec(kind, dict(payload))
    return out


def _node_status(raw: object) -> dict[str, Verdict]:
    out = {}
    for ref, value in _mapping(raw, "node_status").items():
        _address_key(ref, "node_status")
        where = f"node_status[{ref!r}]"
        item = {"tier": value} if isinstance(value, str) else _mapping(value, where)
        tier = member(Tier, item.get("tier"))
        if tier is None:
            raise PayloadError(f"{where}.tier must be one of {_TIERS}")
        flags = {}
        for flag in FLAGS:
            flag_value = item.get(flag, False)
            if not isinstance(flag_value, bool):
                raise PayloadError(f"{where}.{flag} must be true or false")
            flags[flag] = flag_value
        out[ref] = Verdict(tier, **flags)
    return out


def _node_bodies(raw: object) -> dict[str, str]:
    out = {}
    for ref, body in _mapping(raw, "node_bodies").items():
        _address_key(ref, "node_bodies")
        if not isinstance(body, str):
            raise PayloadError(f"node_bodies[{ref!r}] must be a string, got {_kind(body)}")
        out[ref] = body
    return out


def _asserted(raw: object, dag: ReasoningDAG) -> dict[str, Tier]:
    known = {c.id for c in dag.claims}
    out = {}
    for claim_id, value in _mapping(raw, "asserted").items():
        if claim_id not in known:
            raise PayloadError(f"asserted names unknown claim {claim_id!r}")
        try:
            out[claim_id] = Tier(value)
        except (ValueError, TypeError):
            raise PayloadError(f"asserted[{claim_id!r}] must be one of {_TIERS}") from None
    return out


def _edges(raw: object) -> tuple[Edge, ...]:
    if not isinstance(raw, list):
        raise PayloadError(f"edges must be a list, got {_kind(raw)}")
    out = []
    for i, item in enumerate(raw):
        edge = _mapping(item, f"edges[{i}]")
        values = [edge.get(k) for k in ("src", "dst", "relation")]
        if not filled_strings(values):
            raise PayloadError(f"edges[{i}] needs non-empty string src, dst and relation")
        out.append(Edge(*values))
    return tuple(out)


def _blocking(raw: object) -> int:
    if raw is None:
        return 0
    report = _mapping(raw, "coverage_report")
    count = report.get("blocking_count", 0)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise PayloadError("coverage_report.blocking_count must be a non-negative integer")
    return count


def _uncovered(raw: object, key: str = "uncovered") -> tuple[str, ...]:
    """The question words the report names under `key` as never mentioned; optional."""
    if raw is None:
        return ()
    words = _mapping(raw, "coverage_report").get(key, [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise PayloadError(f"coverage_report.{key} must be a list of strings")
    return tuple(words)


def _withheld_no(raw: object) -> bool:
    """Whether the reading the report withholds is a no; optional, false when absent."""
    if raw is None:
        return False
    value = _mapping(raw, "coverage_report").get("withheld_no", False)
    if not isinstance(value, bool):
        raise PayloadError("coverage_report.withheld_no must be true or false")
    return value


def _withheld(raw: object) -> Overstated | None:
    """The rule by which the cited text withholds the question's yes, if the report names one."""
    if raw is None:
        return None
    value = _mapping(raw, "coverage_report").get("withheld")
    if value is None:
        return None
    found = member(Overstated, value)
    if found is None:
        known = ", ".join(o.value for o in Overstated)
        raise PayloadError(f"coverage_report.withheld must be null or one of: {known}")
    return found


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if type(value) is dict:
        return value  # decoded JSON: spares the abstract-base check
    if not isinstance(value, Mapping):
        raise PayloadError(f"{where} must be an object, got {_kind(value)}")
    return value


def _strings(value: object, field: str, claim_id: str) -> list[str]:
    """A claim's list of texts (`field`: cites or premises), checked in one call when it is."""
    if type(value) is list:
        try:
            "".join(value)  # in one call: every item is text
        except TypeError:
            pass  # told item by item below, with the error
        else:
            return value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PayloadError(f"claim {claim_id!r}: {field} must be a list of strings")
    return value


def _address_key(ref: str, where: str) -> None:
    try:
        Address.parse(ref)
    except PayloadError as exc:
        raise PayloadError(f"{where}: {exc}") from None


def _freeze(mapping: dict[str, Any]) -> dict[str, Any]:
    # Sorted so every later iteration, and so the output, is deterministic.
    return dict(sorted(mapping.items()))


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else type(value).__name__
    )
