"""`python -m engine eval overlay --workspace DIR --gold FILE`: score the overlay on SciFact.

Gold pairs come from the SciFact evidence labels (SUPPORT → supports, CONTRADICT →
contradicts) between `mem:_memory:claim-<id>` and `zk:scifact:<doc_id>`. Only the practice
entries the overlay was built over are scored (its `limit`), so a partial build is not
charged for claims it never saw. Recall is over the gold pairs of that relation.

Precision is reported twice. The strict figure counts every overlay edge of a relation as a
prediction, including pairs SciFact never annotated (a claim against an abstract it does not
cite), which count as wrong. `annotated_pairs` restricts predictions to the pairs SciFact
did annotate (a claim against each abstract it cites, not-enough-info included): the
typer's precision where the truth is known.

`calibration` gives the precision of the overlay's contradictions in each band of their
confidence (a calibrated confidence should rise with precision), and `by_cue` the
precision of each cue that produced them.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError, WorkspaceError
from engine.review.relations import Relation

if TYPE_CHECKING:
    from engine.review.overlay import Overlay


GOLD_RELATIONS = {"SUPPORT": Relation.SUPPORTS.value, "CONTRADICT": Relation.CONTRADICTS.value}
SCORED = (Relation.CONTRADICTS.value, Relation.SUPPORTS.value)
BANDS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9)

Pair = tuple[str, str]


def gold_pairs(lines: Sequence[str | bytes]) -> dict[Pair, str]:
    """(practice id, doc id) → gold relation, from the lines of a SciFact labels file."""
    gold: dict[Pair, str] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        claim = _label_line(line, number)
        evidence = claim.get("evidence") or {}
        if not isinstance(evidence, dict):
            raise ConfigError(f"gold line {number}: evidence is not an object")
        practice_id = f"claim-{claim['id']}"
        for doc_id, sets in evidence.items():
            # SciFact lists rationale sets per document; a single object is read as one.
            sets = [sets] if isinstance(sets, dict) else sets if isinstance(sets, list) else []
            labels = [item.get("label") for item in sets if isinstance(item, dict)]
            relation = next((GOLD_RELATIONS[x] for x in labels if x in GOLD_RELATIONS), None)
            if relation is not None:
                gold[(practice_id, str(doc_id))] = relation
    return gold


def annotated_pairs(lines: Sequence[str | bytes]) -> set[Pair]:
    """Every (practice id, doc id) SciFact annotated: each claim against each abstract it cites."""
    pairs: set[Pair] = set()
    for number, line in enumerate(lines, start=1):
        if line.strip():
            claim = _label_line(line, number)
            cited = claim.get("cited_doc_ids", [])
            if not isinstance(cited, list):
                raise ConfigError(f"gold line {number}: cited_doc_ids is not a list")
            pairs.update((f"claim-{claim['id']}", str(doc)) for doc in cited)
    return pairs


def _label_line(line: str | bytes, number: int) -> dict[str, Any]:
    """One SciFact label line as an object with an id; ConfigError naming the problem."""
    from engine.core import jsonsafe

    try:
        claim = jsonsafe.loads(line)
    except ValueError as exc:
        raise ConfigError(f"gold line {number}: not a SciFact label ({exc})") from None
    if not isinstance(claim, dict) or not isinstance(claim.get("id"), str | int):
        raise ConfigError(f"gold line {number}: not a SciFact label (no object with an id)")
    return claim


def score_overlay(
    overlay: Overlay, gold: dict[Pair, str], scope: set[str], *, within: set[Pair] | None = None
) -> dict[str, Any]:
    """Precision, recall and F1 of each scored relation, with the counts behind them.

    `within`, when given, keeps only predictions on those pairs.
    """
    from engine.datasets.scifact import BOX

    gold = {pair: rel for pair, rel in gold.items() if pair[0] in scope}
    predicted = {
        (edge.practice_id, edge.canon_id): edge.relation.value
        for edge in overlay.edges
        if edge.canon_source == BOX
        and edge.practice_id in scope
        and (within is None or (edge.practice_id, edge.canon_id) in within)
    }
    report: dict[str, Any] = {}
    for relation in SCORED:
        said = {pair for pair, rel in predicted.items() if rel == relation}
        truth = {pair for pair, rel in gold.items() if rel == relation}
        hits = len(said & truth)
        precision = hits / len(said) if said else 0.0
        recall = hits / len(truth) if truth else 0.0
        f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
        report[relation] = {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "predicted": len(said),
            "gold": len(truth),
            "correct": hits,
        }
    # How the overlay typed each gold pair ("none": no edge kept), a confusion table.
    confusion = Counter(f"{rel}->{predicted.get(pair, 'none')}" for pair, rel in gold.items())
    report["counts"] = {
        "practice_scored": len(scope),
        "gold_pairs": len(gold),
        "gold_pairs_with_an_edge": sum(pair in predicted for pair in gold),
        "edges_scored": len(predicted),
        "confusion": dict(sorted(confusion.items())),
    }
    return report


def contradiction_bands(overlay: Overlay, gold: dict[Pair, str], scope: set[str]) -> dict[str, Any]:
    """Precision of the contradictions by confidence band and by cue, with the counts."""
    from engine.datasets.scifact import BOX

    bands: dict[str, list[bool]] = {}
    cues: dict[str, list[bool]] = {}
    for edge in overlay.edges:
        if edge.relation is not Relation.CONTRADICTS or edge.canon_source != BOX:
            continue
        if edge.practice_id not in scope:
            continue
        right = gold.get((edge.practice_id, edge.canon_id)) == Relation.CONTRADICTS.value
        low = max(b for b in BANDS if edge.confidence >= b)
        high = next((b for b in BANDS if b > low), 1.0)
        bands.setdefault(f"[{low:.1f}, {high:.1f}{']' if high == 1.0 else ')'}", []).append(right)
        cues.setdefault(edge.cue, []).append(right)

    def summary(groups: dict[str, list[bool]]) -> dict[str, Any]:
        return {
            name: {"flagged": len(v), "correct": sum(v), "precision": round(sum(v) / len(v), 4)}
            for name, v in sorted(groups.items())
        }

    return {"calibration": summary(bands), "by_cue": summary(cues)}


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", type=Path, required=True, help="the SciFact workspace")
    parser.add_argument("--gold", type=Path, help="gold labels (default: beside the workspace)")


def _run(args: argparse.Namespace) -> int:
    from engine.datasets.scifact import labels_path
    from engine.review.overlay import practice_entries, read_overlay
    from engine.workspace.stores import load_workspace

    read = read_overlay(args.workspace)
    if read.overlay is None:
        raise WorkspaceError(f"{read.reason} (run `python -m engine overlay build` first)")
    gold_file = args.gold or labels_path(args.workspace)
    try:
        lines = gold_file.read_bytes().splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read the gold labels {gold_file}: {exc.strerror}") from None
    overlay = read.overlay
    workspace = load_workspace(args.workspace)
    scope = {n.id for n in practice_entries(workspace, limit=overlay.parameters.get("limit"))}
    gold = gold_pairs(lines)
    report = score_overlay(overlay, gold, scope)
    annotated = score_overlay(overlay, gold, scope, within=annotated_pairs(lines))
    report["annotated_pairs"] = {rel: annotated[rel] for rel in SCORED}
    report["contradicts"] |= contradiction_bands(overlay, gold, scope)
    report["overlay"] = overlay.header()
    print(json.dumps(report, sort_keys=True))
    return 0


register(
    "eval overlay",
    Command("Score the claim overlay against SciFact evidence labels", _configure, _run),
)
