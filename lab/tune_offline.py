"""Tune when the offline reasoner restates a sentence, on SciFact train with five folds.

`python -m lab.tune_offline [WORKSPACE [CLAIMS]]` (defaults: demo/scifact and
data/scifact/claims_train.jsonl) navigates every claim once with the shipped reasoner,
keeps what it saw when it answered (watching the walk through `navigate`'s observer), and
replays the answer choice over a grid of salience shares, mention rules (typo corrections,
compounds, acronyms) and give-up thresholds, with the shipped gate (`strong`) itself. The
reasoner and the router share one mention rule, so the router sees the same salient terms
and mentions. It prints each reading at the shipped thresholds, then cross-validates. For
each held-out fold it picks, on the other four, the setting with the best evidence recall
among those with citation precision and no-evidence abstention both at least 0.80, and
prints the held-out figures per fold and pooled. Folds group claims by the abstracts they
cite (`engine.evaluation.folds`).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from engine.api import OpenWorkspace, ask, open_workspace
from engine.evaluation.folds import FOLDS, claim_folds
from engine.evaluation.navigation_scores import SCIFACT_BOX, GoldClaim, load_gold
from engine.navigation.coverage import (
    SALIENT_SHARE,
    TOPIC_SHARE,
    AcronymRule,
    MentionRules,
    QuestionTerms,
    claim_shaped,
)
from engine.navigation.navigator import Action, ActionKind, NavState, in_canon
from engine.navigation.reasoners.candidates import (
    Candidate,
    OfflineConfig,
    best_candidate,
    strong,
)

SHIPPED_SALIENCE = (SALIENT_SHARE, TOPIC_SHARE)
SALIENCE = [SHIPPED_SALIENCE, *itertools.product((0.69, 0.8), (0.8, 0.9, 1.0))]
# What counts as a mention, tried at the shipped salience only (each row is a full replay).
RULES = {
    "shipped": MentionRules(),
    "stem only": MentionRules(correct_unseen=False, compounds=False, acronyms=AcronymRule.OFF),
    "no typo fix": MentionRules(correct_unseen=False),
    "no compounds": MentionRules(compounds=False),
    "no acronyms": MentionRules(acronyms=AcronymRule.OFF),
    "any acronym": MentionRules(acronyms=AcronymRule.ANY),
}
# The reasoner as shipped, and with one of its give-ups undone.
CONFIGS = {
    "shipped": OfflineConfig(ground_practice=False),
    "numbers free": OfflineConfig(ground_practice=False, numbers_block=False),
    "aims restated": OfflineConfig(ground_practice=False, findings_only=False),
}
# (salience, mention rules, reasoner) replayed for every claim; one change from shipped each.
READINGS = [(s, "shipped", "shipped") for s in SALIENCE]
READINGS += [(SHIPPED_SALIENCE, r, "shipped") for r in RULES if r != "shipped"]
READINGS += [(SHIPPED_SALIENCE, "shipped", c) for c in CONFIGS if c != "shipped"]
READINGS += [(SHIPPED_SALIENCE, "stem only", "numbers free")]  # the reasoner before these
GATES = list(itertools.product((0.5, 0.6, 0.7), (0.0, 0.04, 0.06, 0.08, 0.1), (0.2, 0.3)))
FLOOR = 0.8
Reading = tuple[tuple[float, float], str, str]  # salience, mention rule, reasoner settings
Gate = tuple[float, float, float]  # min coverage, min margin, min sentence coverage


@dataclass(frozen=True)
class Seen:
    """One claim and the best candidate under each reading: (salience, mention rules)."""

    gold: GoldClaim
    best: dict[Reading, Candidate | None]


def recorded(
    opened: OpenWorkspace, claims_path: str
) -> Iterator[tuple[GoldClaim, NavState | None]]:
    """Each claim with the state the shipped reasoner answered it from (None if it never did)."""
    for gold in load_gold(claims_path):
        answered_from: list[NavState] = []

        def watch(state: NavState, action: Action, seen: list[NavState] = answered_from) -> None:
            if action.kind is ActionKind.ANSWER:
                seen.append(state)

        ask(opened, gold.claim, observer=watch)
        yield gold, (answered_from[-1] if answered_from else None)


def observe(workspace: str, claims_path: str) -> list[Seen]:
    opened = open_workspace(workspace)
    notes = opened.index.count()
    known = in_canon(opened.index)
    out = []
    for gold, answered_from in recorded(opened, claims_path):
        best = {}
        for (salient, topic), rules, config in READINGS:
            state = answered_from
            if state is not None:
                terms = QuestionTerms(
                    gold.claim,
                    opened.index.rarity,
                    notes=notes,
                    salient_share=salient,
                    topic_share=topic,
                    known=known,
                    rules=RULES[rules],
                )
                state = replace(state, terms=terms)
            found = best_candidate(state, CONFIGS[config]) if state else None
            best[((salient, topic), rules, config)] = found
        out.append(Seen(gold, best))
    opened.close()
    return out


def figures(seen: list[Seen], reading: Reading, gate: Gate) -> dict[str, float]:
    min_coverage, min_margin, min_sentence = gate
    config = replace(
        CONFIGS[reading[2]],
        min_coverage=min_coverage,
        min_margin=min_margin,
        min_sentence=min_sentence,
    )
    hits = answered = false = 0
    for item in seen:
        c = item.best[reading]
        if c is None or not strong(c, config, claim=claim_shaped(item.gold.claim)):
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


def _show(name: str, f: Mapping[str, float]) -> str:
    return (
        f"{name}: recall {f['recall']:.3f}  precision {f['precision']:.3f}  "
        f"abstain {f['abstain']:.3f}  ({f['answered']} answered)"
    )


def cross_validate(
    seen: list[Seen], settings: list[tuple[Reading, Gate]], *, verbose: bool = False
) -> dict[str, float]:
    """Held-out figures pooled over the folds, each fold's setting picked on the other four."""
    pooled: dict[str, float] = dict.fromkeys(
        ("hits", "answered", "false", "with_evidence", "without"), 0
    )
    fold = claim_folds({s.gold.id: s.gold.evidence for s in seen})
    for k in range(FOLDS):
        train = [s for s in seen if fold[s.gold.id] != k]
        held = [s for s in seen if fold[s.gold.id] == k]
        scored = [(setting, figures(train, *setting)) for setting in settings]
        sound = [x for x in scored if min(x[1]["precision"], x[1]["abstain"]) >= FLOOR]
        setting = max(sound or scored, key=lambda x: (x[1]["recall"], x[1]["precision"]))[0]
        result = figures(held, *setting)
        if verbose:
            print(_show(f"fold {k} {setting}", result))
        for key in pooled:
            pooled[key] += result[key]
    return {
        **pooled,
        "recall": pooled["hits"] / pooled["with_evidence"],
        "precision": pooled["hits"] / max(pooled["answered"], 1),
        "abstain": 1 - pooled["false"] / pooled["without"],
    }


def main(argv: list[str]) -> int:
    workspace = argv[0] if argv else "demo/scifact"
    claims = argv[1] if len(argv) > 1 else "data/scifact/claims_train.jsonl"
    seen = observe(workspace, claims)
    shipped_gate = (0.6, 0.06, 0.3)
    for reading in READINGS:
        f = figures(seen, reading, shipped_gate)
        held = cross_validate(seen, [(reading, gate) for gate in GATES])
        print(
            _show(f"{reading} {shipped_gate}", f)
            + f", {f['hits']} right, {f['false']} on no-evidence claims; held-out, thresholds"
            + f" picked: recall {held['recall']:.3f} precision {held['precision']:.3f}"
            + f" abstain {held['abstain']:.3f} ({held['hits']} right, {held['false']} false)"
        )
    pooled = cross_validate(seen, list(itertools.product(READINGS, GATES)), verbose=True)
    print(_show("pooled held-out", pooled))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
