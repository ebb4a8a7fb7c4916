"""Print how the gated offline typer does on SciFact train (both halves) and Climate-FEVER.

Run with `python -m tools.tune_stance`. SciFact comes from the repo's `data/scifact/`;
Climate-FEVER is read from `../shared/data/climate-fever/` when present and skipped
otherwise (it is a tuning set only and never ships with the product). Every figure is
deterministic: the halves are fixed by a hash of the claim id.
"""

from __future__ import annotations

import gzip
import json
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.review.typers import make_typer

ROOT = Path(__file__).resolve().parent.parent
SCIFACT = ROOT / "data" / "scifact"
CLIMATE_FEVER = ROOT.parent / "shared" / "data" / "climate-fever" / "climate-fever.jsonl"
GOLD = {"SUPPORT": "supports", "CONTRADICT": "contradicts", "SUPPORTS": "supports",
        "REFUTES": "contradicts", "NOT_ENOUGH_INFO": "none"}  # fmt: skip
PREDICTED = {"supports": "supports", "contradicts": "contradicts", "extends": "none",
             "unrelated": "none"}  # fmt: skip
LABELS = ("supports", "contradicts", "none")


@dataclass(frozen=True)
class Pair:
    """One gold-labelled (claim, canon) pair; `rationale` holds the gold sentence indices."""

    claim_id: str
    claim: str
    canon: str
    gold: str
    sentences: tuple[str, ...] = ()
    rationale: tuple[int, ...] = ()


def half(claim_id: str) -> str:
    """`fit` or `held`: a fixed split of the claims by a hash of their id."""
    return "fit" if zlib.crc32(claim_id.encode()) % 2 == 0 else "held"


def _jsonl(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def corpus() -> dict[str, dict]:
    """SciFact abstracts by doc id."""
    path = SCIFACT / "corpus.jsonl.gz"
    if not path.exists():
        path = SCIFACT / "corpus.jsonl"
    return {str(doc["doc_id"]): doc for doc in _jsonl(path)}


def scifact_pairs(which: str) -> list[Pair]:
    """Every (claim, cited abstract) pair of one half; claims without evidence count as none."""
    docs = corpus()
    out = []
    for claim in _jsonl(SCIFACT / "claims_train.jsonl"):
        cid = str(claim["id"])
        if half(cid) != which:
            continue
        evidence = claim.get("evidence") or {}
        for doc_id in claim["cited_doc_ids"]:
            doc = docs.get(str(doc_id))
            if doc is None:
                continue
            found = evidence.get(str(doc_id))
            gold = GOLD[found["label"]] if found else "none"
            out.append(Pair(
                cid, claim["claim"], "\n\n".join([doc["title"], *doc["sentences"]]), gold,
                tuple(doc["sentences"]), tuple(found["sentences"]) if found else (),
            ))  # fmt: skip
    return out


def climate_pairs() -> list[Pair]:
    """Climate-FEVER claim-evidence pairs, or none when the file is absent."""
    if not CLIMATE_FEVER.exists():
        return []
    out = []
    for row in _jsonl(CLIMATE_FEVER):
        for ev in row["evidences"]:
            gold = GOLD[ev["evidence_label"]]
            out.append(Pair(str(row["claim_id"]), row["claim"], ev["evidence"], gold))
    return out


def evaluate(typer: Callable, pairs: list[Pair]) -> tuple[Counter, float]:
    """The confusion counts (gold, predicted) and the mean seconds per typing call."""
    confusion: Counter = Counter()
    started = time.perf_counter()
    for pair in pairs:
        typing = typer(pair.claim, pair.canon)
        confusion[pair.gold, PREDICTED[str(typing.relation)]] += 1
    return confusion, (time.perf_counter() - started) / max(1, len(pairs))


def prf(confusion: Counter, label: str) -> tuple[float, float, float, int]:
    """Precision, recall, F1 and predicted count of one label."""
    tp = confusion[label, label]
    predicted = sum(confusion[g, label] for g in LABELS)
    actual = sum(confusion[label, p] for p in LABELS)
    p = tp / predicted if predicted else 0.0
    r = tp / actual if actual else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f, predicted


def report(title: str, confusion: Counter, seconds: float) -> str:
    """A printable block: P/R/F1 of contradicts and supports, the confusion table, speed."""
    n = sum(confusion.values())
    lines = [f"== {title}: {n} pairs, {seconds * 1000:.2f} ms per call (first reading included)"]
    for label in ("contradicts", "supports"):
        p, r, f, n = prf(confusion, label)
        lines.append(f"  {label:<12} P {p:.3f}  R {r:.3f}  F1 {f:.3f}  (predicted {n})")
    lines.append("  gold \\ predicted  " + "  ".join(f"{x:>11}" for x in LABELS))
    for g in LABELS:
        row = "  ".join(f"{confusion[g, x]:>11}" for x in LABELS)
        lines.append(f"  {g:<17}  {row}")
    return "\n".join(lines)


def overlay_run(typer: Callable, per_claim: int = 10) -> str:
    """Time an overlay-shaped run: every SciFact claim against `per_claim` fixed abstracts."""
    docs = corpus()
    ids = sorted(docs)
    canons = ["\n\n".join([docs[i]["title"], *docs[i]["sentences"]]) for i in ids[:400]]
    claims = [c["claim"] for c in _jsonl(SCIFACT / "claims_train.jsonl")]
    started = time.perf_counter()
    for k, claim in enumerate(claims):
        for j in range(per_claim):
            typer(claim, canons[(7 * k + 13 * j) % len(canons)])
    seconds = time.perf_counter() - started
    n = len(claims) * per_claim
    return f"== Overlay-shaped run: {n} pairs in {seconds:.1f} s ({seconds / n * 1000:.2f} ms each)"


def main() -> None:
    typer = make_typer("offline")
    for which in ("fit", "held"):
        pairs = scifact_pairs(which)
        confusion, seconds = evaluate(typer, pairs)
        print(report(f"SciFact train, {which} half", confusion, seconds))
    pairs = climate_pairs()
    if pairs:
        confusion, seconds = evaluate(typer, pairs)
        print(report("Climate-FEVER", confusion, seconds))
    else:
        print("== Climate-FEVER: not found at", CLIMATE_FEVER, "(skipped)")
    print(overlay_run(make_typer("offline")))


if __name__ == "__main__":
    main()
