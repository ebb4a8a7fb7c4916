"""How far a lexical gate can take the offline reasoner's evidence recall on SciFact train.

`python -m lab.ceiling_offline [WORKSPACE [CLAIMS]]` (defaults: demo/scifact and
data/scifact/claims_train.jsonl) navigates every claim once with the shipped reasoner and
prints three things:

1. where each claim's gold abstract stands: answered with, best but given up on (and by
   which rule: a salient term unmentioned, an aim, standing out in neither words nor
   meaning, the relevance gate, the coverage thresholds), checked but beaten by another
   note, retrieved but never checked, or never retrieved;
2. the oracle bound: the recall if the reasoner restated every best candidate that names
   every salient question term (the router refuses the others) and only when it is gold;
3. an out-of-fold logistic gate over the candidate's measurements (coverage of the note,
   of the sentence and its title, of the sentence alone; margin over the runner-up; how
   many terms are salient; where the sentence sits in its abstract), fitted on four folds
   and scored on the fifth, as recall, citation precision and no-evidence abstention at
   answer counts around the shipped reasoner's.

It shows whether any gate over these measurements, not just the shipped thresholds,
reaches a recall target at a given precision. Deterministic: folds are a hash of the claim
id, and the fit is plain gradient descent from zero.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass

import numpy as np

from engine.api import OpenWorkspace, open_workspace
from engine.evaluation.navigation_scores import SCIFACT_BOX, GoldClaim
from engine.navigation.navigator import NavState
from engine.navigation.reasoners.candidates import (
    Candidate,
    OfflineConfig,
    best_candidate,
    stands_out,
    strong,
)
from lab.train_stance import cross_validated
from lab.tune_offline import recorded

PREFIX = f"zk:{SCIFACT_BOX}:"
# The evidence-recall target; the listing stops at the first gate reaching it.
RECALL_TARGET = 0.55


@dataclass(frozen=True)
class Case:
    """One claim: its gold abstracts, the reasoner's best candidate and where gold stood."""

    gold: GoldClaim
    best: Candidate | None
    standing: str
    features: tuple[float, ...] = ()

    @property
    def hit(self) -> bool:
        best = self.best
        return best is not None and best.address.removeprefix(PREFIX) in self.gold.evidence


def observe(workspace: str, claims_path: str) -> list[Case]:
    opened = open_workspace(workspace)
    config = OfflineConfig(ground_practice=False)
    out = []
    for gold, state in recorded(opened, claims_path):
        best = best_candidate(state, config) if state is not None else None
        wanted = {PREFIX + doc for doc in gold.evidence}
        if not gold.evidence:
            standing = "no evidence in the corpus"
        elif best is not None and best.address in wanted:
            answered = strong(best, config)
            standing = "gold answered" if answered else f"gold best, {given_up(best, config)}"
        elif state is not None and wanted & set(state.grounded):
            standing = "gold checked, another note best"
        elif state is not None and wanted & set(state.neighbourhood.nodes):
            standing = "gold retrieved, not checked"
        else:
            standing = "gold never retrieved"
        features = _features(opened, best, state) if best and state else ()
        out.append(Case(gold, best, standing, features))
    opened.close()
    return out


def given_up(best: Candidate, config: OfflineConfig) -> str:
    """Why the reasoner gave up on a candidate, by the first rule that turned it down."""
    if best.gaps:
        return "given up on: a salient term unmentioned"
    if best.asks:
        return "given up on: an aim, not a finding"
    if best.relevance is not None and config.relevance_gate() is not None:
        if not stands_out(best, config):
            return "given up on: stands out in neither words nor meaning"
        return "given up on: the relevance gate turns it down"
    return "given up on: below the coverage thresholds"


def _features(opened: OpenWorkspace, best: Candidate, state: NavState) -> tuple[float, ...]:
    note = opened.workspace.note(best.address)
    quotes = [q.body.strip() for q in note.quotes] if note is not None else []
    where = quotes.index(best.text.strip()) if best.text.strip() in quotes else 0
    salient = len(state.terms.salient) if state.terms is not None else 0
    words = len(state.terms.words) if state.terms is not None else 0
    return (
        best.note_coverage,
        best.coverage,
        best.sentence_coverage,
        best.margin,
        float(salient),
        float(words),
        where / max(len(quotes) - 1, 1),
        len(best.text) / 300,
    )


def held_out_scores(pool: list[Case]) -> np.ndarray:
    """Each case's gate probability from a logistic fit on the other four folds."""
    x = np.array([c.features for c in pool], dtype=float)
    y = np.array([c.hit for c in pool], dtype=float)
    return cross_validated(x, y, [c.gold.id for c in pool], l2=1.0)


def main(argv: list[str]) -> int:
    workspace = argv[0] if argv else "demo/scifact"
    claims = argv[1] if len(argv) > 1 else "data/scifact/claims_train.jsonl"
    cases = observe(workspace, claims)
    with_evidence = sum(bool(c.gold.evidence) for c in cases)
    without = len(cases) - with_evidence
    print(f"{len(cases)} claims, {with_evidence} with evidence, {without} without")
    for standing, n in sorted(Counter(c.standing for c in cases).items()):
        print(f"  {standing}: {n}")
    # The router refuses a candidate that leaves a salient term unmentioned, whatever the gate.
    pool = [c for c in cases if c.best is not None and not c.best.gaps]
    bound = sum(c.hit for c in pool)
    print(
        f"oracle bound: {bound} of the {len(pool)} candidates naming every salient term are "
        f"gold, recall at most {bound / with_evidence:.3f}"
    )
    order = np.argsort(-held_out_scores(pool), kind="stable")
    hits = np.cumsum([pool[i].hit for i in order])
    false = np.cumsum([not pool[i].gold.evidence for i in order])
    print("out-of-fold logistic gate, answering the n highest-scored candidates:")
    for n in range(200, len(pool) + 1, 20):
        h, f = int(hits[n - 1]), int(false[n - 1])
        print(
            f"  n={n}: recall {h / with_evidence:.3f}  precision {h / n:.3f}  "
            f"abstain {1 - f / without:.3f}  ({h} right, {f} on no-evidence claims)"
        )
        if h / with_evidence >= RECALL_TARGET:
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
