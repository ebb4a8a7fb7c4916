"""Evaluate grounded navigation on SciFact: answers, evidence recall, citation precision, stance."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.api import OpenWorkspace, ask
from engine.core import jsonsafe
from engine.core.errors import ConfigError
from engine.core.model import Address, ClaimKind
from engine.core.router import Decision
from engine.navigation.budget import Budget
from engine.workspace.notes import Store
from engine.workspace.passage_notes import PASSAGE_BOX

SCIFACT_BOX = "scifact"
_SCIFACT_NOTES = (Store.CANON.value, SCIFACT_BOX)  # the store and source of its abstracts


@dataclass(frozen=True)
class GoldClaim:
    """One SciFact claim with the abstracts that hold evidence for it (empty: not enough info)."""

    id: str
    claim: str
    evidence: frozenset[str]
    labels: Mapping[str, str] = field(default_factory=dict)  # doc id -> SUPPORT | CONTRADICT
    # doc id -> the indices of the sentences annotators marked as the evidence
    rationales: Mapping[str, frozenset[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class ClaimOutcome:
    """What the engine did with one claim; `stance` is the answer's relation, if any.

    `restated` maps each cited abstract to the indices of its sentences the answer restates
    verbatim and the router verified; `rationales` are the gold claim's.
    """

    id: str
    label: str
    cited: tuple[str, ...]
    gold: frozenset[str]
    latency_ms: float
    stance: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    restated: Mapping[str, frozenset[int]] = field(default_factory=dict)
    rationales: Mapping[str, frozenset[int]] = field(default_factory=dict)

    @property
    def answered(self) -> bool:
        return self.label != "ABSTAIN"

    @property
    def restates_rationale(self) -> bool:
        """Whether a verified restatement is a sentence annotators marked as the evidence."""
        return any(
            self.restated.get(doc, frozenset()) & rows for doc, rows in self.rationales.items()
        )

    @property
    def expected_stance(self) -> str | None:
        """`supports` or `contradicts` when the answer cites a gold abstract, else None."""
        for doc in self.cited:
            label = self.labels.get(doc)
            if label in _STANCE_OF_LABEL:
                return _STANCE_OF_LABEL[label]
        return None


_STANCE_OF_LABEL = {"SUPPORT": "supports", "CONTRADICT": "contradicts"}


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
            evidence = item.get("evidence")
            if not isinstance(evidence, dict | list):
                raise ValueError("evidence must be an object of abstract ids")
            ids = [str(doc) for doc in evidence if isinstance(doc, str | int)]
            # Only the object form (doc id -> its evidence) carries labels and rationales.
            per_doc = (
                {str(doc): ev for doc, ev in evidence.items()} if isinstance(evidence, dict) else {}
            )
            labels = {doc: _label(ev) for doc, ev in per_doc.items()}
            rationales = {doc: _rationale(ev) for doc, ev in per_doc.items()}
            claims.append(
                GoldClaim(str(item["id"]), item["claim"], frozenset(ids), labels, rationales)
            )
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
        found = dict.fromkeys(_abstract(opened, a) for a in cited)
        docs = tuple(doc for doc in found if doc is not None)
        stance = result.stance.relation.value if result.stance is not None else None
        out.append(
            ClaimOutcome(
                gold.id,
                result.label,
                docs,
                gold.evidence,
                result.latency_ms,
                stance=stance,
                labels=gold.labels,
                restated=_restated(opened, result.decision),
                rationales=gold.rationales,
            )
        )
        if progress is not None:
            progress(n)
    return out


def score(outcomes: list[ClaimOutcome]) -> dict[str, Any]:
    """The evaluation figures over a list of outcomes."""
    answered = [o for o in outcomes if o.answered]
    with_evidence = [o for o in outcomes if o.gold]
    without = [o for o in outcomes if not o.gold]
    recalled = [o for o in with_evidence if o.answered and set(o.cited) & o.gold]
    on_rationale = sum(o.restates_rationale for o in recalled)
    cited_total = sum(len(o.cited) for o in answered)
    cited_gold = sum(len(set(o.cited) & o.gold) for o in answered)
    latencies = [o.latency_ms for o in outcomes]
    green = [o for o in answered if o.label == "ANSWER"]
    green_recalled = [o for o in recalled if o.label == "ANSWER"]
    return {
        "claims": len(outcomes),
        "answer_rate": _ratio(len(answered), len(outcomes)),
        "hedged": sum(o.label == "HEDGED ANSWER" for o in outcomes),
        "evidence_recall": _ratio(len(recalled), len(with_evidence)),
        "citation_precision": _ratio(cited_gold, cited_total),
        "rationale_restated": on_rationale,
        "rationale_rate": _ratio(on_rationale, len(recalled)),
        "abstain_rate_no_evidence": _ratio(sum(not o.answered for o in without), len(without)),
        "answer_rate_with_evidence": _ratio(
            sum(o.answered for o in with_evidence), len(with_evidence)
        ),
        # Green answers alone (ANSWER, not HEDGED): what a reader may take as answered.
        "green_recall": _ratio(len(green_recalled), len(with_evidence)),
        "green_citation_precision": _ratio(
            sum(len(set(o.cited) & o.gold) for o in green), sum(len(o.cited) for o in green)
        ),
        "green_rate_no_evidence": _ratio(sum(o.label == "ANSWER" for o in without), len(without)),
        "claims_with_evidence": len(with_evidence),
        "claims_without_evidence": len(without),
        "median_latency_ms": round(statistics.median(latencies), 2) if latencies else None,
        **stance_figures(answered),
    }


def stance_figures(answered: list[ClaimOutcome]) -> dict[str, Any]:
    """How often each stance is right on green answers that cite a SUPPORT or CONTRADICT
    abstract (a hedged answer's text never says all the claim, so its stance is mixed)."""
    judged = [o for o in answered if o.expected_stance is not None and o.label == "ANSWER"]
    out: dict[str, Any] = {"stance_judged": len(judged)}
    for relation in ("supports", "contradicts"):
        said = [o for o in judged if o.stance == relation]
        truly = [o for o in judged if o.expected_stance == relation]
        right = sum(o.expected_stance == relation for o in said)
        out[f"stance_{relation}_said"] = len(said)
        out[f"stance_{relation}_precision"] = _ratio(right, len(said))
        out[f"stance_{relation}_recall"] = _ratio(right, len(truly))
    out["stance_neither"] = sum(o.stance in (None, "neither") for o in judged)
    return out


def _items(evidence: object) -> list[Any]:
    """A gold abstract's evidence as a list of SciFact's `{label, sentences}` items."""
    return evidence if isinstance(evidence, list) else [evidence]


def _label(evidence: object) -> str:
    """A gold abstract's label (its first item's): SUPPORT or CONTRADICT."""
    first = next(iter(_items(evidence)), None)
    return str(first.get("label", "")) if isinstance(first, dict) else ""


def _rationale(evidence: object) -> frozenset[int]:
    """The sentence indices a gold abstract's evidence items name."""
    rows = [
        n
        for item in _items(evidence)
        if isinstance(item, dict) and isinstance(item.get("sentences"), list)
        for n in item["sentences"]
        if isinstance(n, int) and not isinstance(n, bool)
    ]
    return frozenset(rows)


def _abstract(opened: OpenWorkspace, cite: str) -> str | None:
    """The SciFact abstract a cited node stands for: its note, or a passage of its text."""
    address = Address.parse(cite)
    if (address.store, address.source) == _SCIFACT_NOTES:
        return address.id
    note = opened.workspace.note(cite)
    return note.citekey if note is not None and note.source == PASSAGE_BOX else None


def _restated(opened: OpenWorkspace, decision: Decision | None) -> dict[str, frozenset[int]]:
    """Abstract id -> indices of its quoted sentences that a verified restatement copies."""
    if decision is None:
        return {}
    out: dict[str, set[int]] = {}
    for cid, verdict in decision.claim_verdicts.items():
        claim = decision.dag.claim(cid)
        if claim.kind is not ClaimKind.RESTATEMENT or not verdict.verified:
            continue
        for cite in claim.cites:
            address = Address.parse(cite)
            note = opened.workspace.note(cite)
            if (address.store, address.source) != _SCIFACT_NOTES or note is None:
                continue
            for quote in note.quotes:
                if quote.body.strip() == claim.text.strip() and quote.id[1:].isdigit():
                    out.setdefault(address.id, set()).add(int(quote.id[1:]))
    return {doc: frozenset(rows) for doc, rows in out.items()}


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None
