from collections import Counter
from pathlib import Path

import numpy as np

from engine.datasets.scifact import labels_path
from lab.ceiling_offline import held_out_scores, observe


def test_every_claim_gets_one_standing_and_answers_are_hits(scifact_slice: Path) -> None:
    cases = observe(str(scifact_slice), str(labels_path(scifact_slice)))
    standings = Counter(c.standing for c in cases)
    assert sum(standings.values()) == len(cases)
    assert standings["gold answered"] > 0
    for case in cases:
        if case.standing == "gold answered":
            assert case.best is not None
            assert case.hit and not case.best.gaps
        if case.standing == "no evidence in the corpus":
            assert not case.hit
        if case.standing.startswith("gold best"):
            # A give-up names the first rule that turned the gold abstract down.
            assert case.hit and ": " in case.standing
            assert case.best is not None
            assert bool(case.best.gaps) == case.standing.endswith("a salient term unmentioned")


def test_the_gate_scores_are_out_of_fold_and_deterministic(scifact_slice: Path) -> None:
    cases = observe(str(scifact_slice), str(labels_path(scifact_slice)))
    pool = [c for c in cases if c.best is not None and not c.best.gaps]
    first, second = held_out_scores(pool), held_out_scores(pool)
    assert np.array_equal(first, second)
    assert len(set(np.round(first, 6))) > 1
