"""Evaluate grounded navigation on SciFact: answer rate, evidence recall, citation precision."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.api import OpenWorkspace, ask
from engine.core import jsonsafe
from engine.core.errors import ConfigError
from engine.navigation.substrate import Budget

SCIFACT_BOX = "scifact"


@dataclass(frozen=True)
class GoldClaim:
    """One SciFact claim with the abstracts that hold evidence for it (empty: not enough info)."""

    id: str
    claim: str
    evidence: frozenset[str]


@dataclass(frozen=True)
class ClaimOutcome:
    """What the engine did with one claim."""

    id: str
    label: str
    cited: tuple[str, ...]
    gold: frozenset[str]
    latency_ms: float

    @property
    def answered(self) -> bool:
        return self.label != "ABSTAIN"


def load_gold(path: str | Path) -> list[GoldClaim]:
    """Read SciFact claims (`{id, claim, evidence: {doc_id: ...}}` per line)."""
    claims = []
    try:
        lines = Path(path).read_bytes().splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read claims file {path}: {exc.strerror}") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = jsonsafe.loads(line)
            if not isinstance(item, dict) or not isinstance(item.get("claim"), str):
                raise ValueError("expected an object with a string claim")
            if not isinstance(item.get("evidence"), dict | list):
                raise ValueError("evidence must be an object of abstract ids")
            ids = [str(doc) for doc in item["evidence"] if isinstance(doc, str | int)]
            claims.append(GoldClaim(str(item["id"]), item["claim"], frozenset(ids)))
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"claims file {path} line {n} is malformed: {exc}") from None
    return claims


def run_claims(
    opened: OpenWorkspace,
    claims: Iterable[GoldClaim],
    *,
    reasoner: str = "offline",
    budget: Budget | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[ClaimOutcome]:
    """Ask every claim as a question and record the verdict and the abstracts it cites."""
    out = []
    for n, gold in enumerate(claims, start=1):
        result = ask(opened, gold.claim, reasoner=reasoner, budget=budget)
        cited = result.decision.cited if result.decision is not None else ()
        docs = tuple(ref.split(":", 2)[2] for ref in cited if ref.startswith(f"zk:{SCIFACT_BOX}:"))
        out.append(ClaimOutcome(gold.id, result.label, docs, gold.evidence, result.latency_ms))
        if progress is not None:
            progress(n)
    return out


def score(outcomes: list[ClaimOutcome]) -> dict:
    """The evaluation figures over a list of outcomes."""
    answered = [o for o in outcomes if o.answered]
    with_evidence = [o for o in outcomes if o.gold]
    without = [o for o in outcomes if not o.gold]
    recalled = [o for o in with_evidence if o.answered and set(o.cited) & o.gold]
    cited_total = sum(len(o.cited) for o in answered)
    cited_gold = sum(len(set(o.cited) & o.gold) for o in answered)
    latencies = [o.latency_ms for o in outcomes]
    return {
        "claims": len(outcomes),
        "answer_rate": _ratio(len(answered), len(outcomes)),
        "hedged": sum(o.label == "HEDGED ANSWER" for o in outcomes),
        "evidence_recall": _ratio(len(recalled), len(with_evidence)),
        "citation_precision": _ratio(cited_gold, cited_total),
        "abstain_rate_no_evidence": _ratio(sum(not o.answered for o in without), len(without)),
        "answer_rate_with_evidence": _ratio(
            sum(o.answered for o in with_evidence), len(with_evidence)
        ),
        "claims_with_evidence": len(with_evidence),
        "claims_without_evidence": len(without),
        "median_latency_ms": round(statistics.median(latencies), 2) if latencies else None,
    }


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None
