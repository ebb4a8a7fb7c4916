"""Reviewers' triage decisions as labelled pairs a next training run of the reader can use.

A decision on a (practice, canon) pair says whether the two contradict: `confirmed` (the
literature claim is contested) and `practice-wrong` (our note is the wrong side) both say
they do, so the pair is CONTRADICT; `dismissed` and `scope-differs` say there is no
contradiction to act on, so it is NONE, meaning "not a contradiction" (a reviewer never says
whether the canon supports the note). A pair left to `follow-up`, one whose reviewers
disagree, and one whose notes or overlay edge are gone are left out and counted, never
guessed. The texts are what the reviewer compared: the practice note and the canon sentence
the typer quoted.

Nothing here runs by itself: the pairs leave the workspace only when someone asks for them
(`python -m engine triage pairs`), and training reads them only when given the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.review.cell import compared_texts
from engine.review.overlay import Overlay, OverlayEdge
from engine.review.relations import EdgeKey
from engine.review.synthesis import cell_material
from engine.review.triage import TriageDecision, TriageEntry, TriageLog
from engine.workspace.opened import OpenWorkspace


class PairLabel(StrEnum):
    """A pair's label as the reader's training and `eval reader` read it."""

    CONTRADICT = "CONTRADICT"
    NONE = "NONE"


class LeftOut(StrEnum):
    """Why a decided pair is not among the labelled pairs."""

    UNDECIDED = "undecided"  # left to follow up
    DISAGREEMENT = "disagreement"  # reviewers' standing decisions differ
    GONE = "gone"  # a note or the overlay edge is no longer there


LABELS: dict[TriageDecision, PairLabel] = {
    TriageDecision.CONFIRMED: PairLabel.CONTRADICT,
    TriageDecision.PRACTICE_WRONG: PairLabel.CONTRADICT,
    TriageDecision.DISMISSED: PairLabel.NONE,
    TriageDecision.SCOPE_DIFFERS: PairLabel.NONE,
}


@dataclass(frozen=True)
class LabelledPair:
    """One reviewed pair: the practice text as the claim, the canon sentence, the label."""

    claim: str
    sentence: str
    label: PairLabel
    edge: EdgeKey
    decision: TriageDecision
    by: str
    at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "sentence": self.sentence,
            "label": self.label.value,
            "source": "triage",
            "edge": self.edge.to_dict(),
            "decision": self.decision.value,
            "by": self.by,
            "at": self.at,
        }


@dataclass(frozen=True)
class TriagePairs:
    """The labelled pairs, in edge order, and how many decided pairs were left out, why."""

    pairs: tuple[LabelledPair, ...]
    left_out: tuple[tuple[LeftOut, int], ...]

    def count(self, label: PairLabel) -> int:
        return sum(1 for pair in self.pairs if pair.label is label)

    def jsonl(self) -> str:
        """One JSON object a line, the format `eval reader --pairs` and the lab read."""
        lines = (json.dumps(p.to_dict(), ensure_ascii=False, sort_keys=True) for p in self.pairs)
        return "".join(f"{line}\n" for line in lines)


def labelled_pairs(opened: OpenWorkspace, overlay: Overlay | None, log: TriageLog) -> TriagePairs:
    """The standing triage decisions of `log` on `overlay`'s pairs, as labelled pairs."""
    edges: dict[EdgeKey, OverlayEdge] = {e.key: e for e in (overlay.edges if overlay else ())}
    pairs: list[LabelledPair] = []
    left: dict[LeftOut, int] = dict.fromkeys(LeftOut, 0)
    for key, standing in log.standing().items():
        decisions = {entry.decision for entry in standing}
        if len(decisions) > 1:
            left[LeftOut.DISAGREEMENT] += 1
            continue
        label = LABELS.get(standing[-1].decision)
        if label is None:
            left[LeftOut.UNDECIDED] += 1
            continue
        pair = _pair(opened, edges.get(key), label, standing)
        if pair is None:
            left[LeftOut.GONE] += 1
            continue
        pairs.append(pair)
    return TriagePairs(tuple(pairs), tuple((why, n) for why, n in left.items() if n))


def _pair(
    opened: OpenWorkspace,
    edge: OverlayEdge | None,
    label: PairLabel,
    standing: tuple[TriageEntry, ...],
) -> LabelledPair | None:
    material = cell_material(opened, edge) if edge is not None else None
    if edge is None or material is None:
        return None
    claim, sentence = compared_texts(opened, edge, material)
    if not claim.strip() or not sentence.strip():
        return None
    # Reviewers who agree are all named; the time is the latest of their decisions.
    by = ", ".join(sorted({entry.by for entry in standing if entry.by}))
    last = standing[-1]
    return LabelledPair(
        claim, sentence, label, edge.key, last.decision, by, max(e.at for e in standing)
    )
