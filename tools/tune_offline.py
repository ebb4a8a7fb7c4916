"""Tune when the offline reasoner restates a sentence, on SciFact train with five folds.

`python -m tools.tune_offline [WORKSPACE [CLAIMS]]` (defaults: demo/scifact and
data/scifact/claims_train.jsonl) navigates every claim once with the shipped reasoner,
keeps what it saw when it answered, and replays the answer choice over a grid of salience
shares and give-up thresholds. The router is assumed to see the same salient terms as the
reasoner (true of the shipped constants, which is the grid's first row). For each held-out
fold it picks, on the other four, the setting with the best evidence recall among those
with citation precision and no-evidence abstention both at least 0.80, and prints the
held-out figures per fold and pooled. Deterministic: folds are a hash of the claim id.
"""

from __future__ import annotations

import itertools
import sys
import zlib
from dataclasses import dataclass, replace

from engine.api import ask, open_workspace
from engine.datasets.evaluation import SCIFACT_BOX, GoldClaim, load_gold
from engine.navigation.coverage import SALIENT_SHARE, TOPIC_SHARE, QuestionTerms, claim_shaped
from engine.navigation.navigator import NavState
from engine.navigation.reasoners.offline import (
    Candidate,
    OfflineConfig,
    OfflineReasoner,
    best_candidate,
)

FOLDS = 5
SALIENCE = [(SALIENT_SHARE, TOPIC_SHARE), *itertools.product((0.69, 0.8), (0.8, 0.9, 1.0))]
GATES = list(itertools.product((0.5, 0.6, 0.7), (0.0, 0.04, 0.06, 0.08, 0.1), (0.2, 0.3)))
FLOOR = 0.8


class _Recorder(OfflineReasoner):
    """The shipped reasoner, keeping the state it answered from."""

    def __init__(self):
        super().__init__()
        self.state: NavState | None = None

    def answer(self, state: NavState):
        self.state = state
        return super().answer(state)


@dataclass(frozen=True)
class Seen:
    """One claim and the best candidate under each salience setting."""

    gold: GoldClaim
    best: dict[tuple[float, float], Candidate | None]


def observe(workspace: str, claims_path: str) -> list[Seen]:
    opened = open_workspace(workspace)
    notes = opened.index.count()
    config = OfflineConfig(ground_practice=False)
    out = []
    for gold in load_gold(claims_path):
        recorder = _Recorder()
        ask(opened, gold.claim, reasoner=recorder)
        best = {}
        for salient, topic in SALIENCE:
            state = recorder.state
            if state is not None:
                terms = QuestionTerms(
                    gold.claim,
                    opened.index.rarity,
                    notes=notes,
                    salient_share=salient,
                    topic_share=topic,
                )
                state = replace(state, terms=terms)
            best[(salient, topic)] = best_candidate(state, config) if state else None
        out.append(Seen(gold, best))
    opened.close()
    return out


def figures(seen: list[Seen], salience, gate) -> dict:
    min_coverage, min_margin, min_sentence = gate
    hits = answered = false = 0
    for item in seen:
        c = item.best[salience]
        if (
            c is None
            or c.gaps
            or c.note_coverage < min_coverage
            or (c.margin < min_margin and claim_shaped(item.gold.claim))
            or c.sentence_coverage < min_sentence
        ):
            continue
        answered += 1
        hits += c.address.removeprefix(f"zk:{SCIFACT_BOX}:") in item.gold.evidence
        false += not item.gold.evidence
    with_evidence = sum(bool(s.gold.evidence) for s in seen)
    without = len(seen) - with_evidence
    return {
        "recall": hits / with_evidence if with_evidence else 0.0,
        "precision": hits / answered if answered else 0.0,
        "abstain": 1 - false / without if without else 1.0,
        "hits": hits,
        "answered": answered,
        "false": false,
        "with_evidence": with_evidence,
        "without": without,
    }


def _fold(item: Seen) -> int:
    return zlib.crc32(item.gold.id.encode()) % FOLDS


def _show(name: str, f: dict) -> str:
    return (
        f"{name}: recall {f['recall']:.3f}  precision {f['precision']:.3f}  "
        f"abstain {f['abstain']:.3f}  ({f['answered']} answered)"
    )


def main(argv: list[str]) -> int:
    workspace = argv[0] if argv else "demo/scifact"
    claims = argv[1] if len(argv) > 1 else "data/scifact/claims_train.jsonl"
    seen = observe(workspace, claims)
    shipped = ((SALIENT_SHARE, TOPIC_SHARE), (0.6, 0.06, 0.3))
    print(_show(f"shipped {shipped}", figures(seen, *shipped)))
    settings = list(itertools.product(SALIENCE, GATES))
    pooled = dict.fromkeys(("hits", "answered", "false", "with_evidence", "without"), 0)
    for k in range(FOLDS):
        train = [s for s in seen if _fold(s) != k]
        held = [s for s in seen if _fold(s) == k]
        scored = [(setting, figures(train, *setting)) for setting in settings]
        sound = [x for x in scored if min(x[1]["precision"], x[1]["abstain"]) >= FLOOR]
        setting = max(sound or scored, key=lambda x: (x[1]["recall"], x[1]["precision"]))[0]
        result = figures(held, *setting)
        print(_show(f"fold {k} {setting}", result))
        for key in pooled:
            pooled[key] += result[key]
    print(
        _show(
            "pooled held-out",
            {
                "recall": pooled["hits"] / pooled["with_evidence"],
                "precision": pooled["hits"] / max(pooled["answered"], 1),
                "abstain": 1 - pooled["false"] / pooled["without"],
                "answered": pooled["answered"],
            },
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
