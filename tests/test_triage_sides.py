"""Triage has sides: which side of a contradiction a decision says is wrong, and what follows.

Only "the literature claim is contested" (`confirmed`) contests the canon claim for the
router; "our practice note is wrong" keeps the canon claim grounded and flags the note
wherever it is cited; "both stand" and "not a contradiction" settle the pair. Old log lines
keep their meaning.
"""

import json
from pathlib import Path

import pytest

from engine.api import Answer, answer, open_workspace, review_edges
from engine.core.model import Edge
from engine.review.contest import ContestScope, ReviewState, scope_of
from engine.review.matrix import matrix_frame
from engine.review.overlay import Overlay, save_overlay
from engine.review.relations import EdgeKey, Relation
from engine.review.snapshot import ReviewSnapshot
from engine.review.triage import LOG_PATH, TriageDecision, read_log, record, state
from engine.workspace.stores import load_workspace
from present.sides import TRIAGE_CHOICES, decision_words
from tests.overlay_edges import contradiction

MOM = EdgeKey("exp-2009-backtest", "finance", "z-mom-01")
GROUNDED_QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)


def _overlay(root: Path) -> None:
    edge = contradiction(MOM, priority=0.675, rationale="why", cue="direction")
    save_overlay(root, Overlay("t", "offline", {}, {}, 0.0, (edge,)))


def _ask(root: Path, question: str = GROUNDED_QUESTION) -> Answer:
    opened = open_workspace(root)
    try:
        return answer(opened, question)
    finally:
        opened.close()


@pytest.mark.parametrize(
    ("decision", "contests", "state_on_pair"),
    [
        (TriageDecision.CONFIRMED, True, ReviewState.CONFIRMED),
        (TriageDecision.PRACTICE_WRONG, False, ReviewState.PRACTICE_WRONG),
        (TriageDecision.SCOPE_DIFFERS, False, None),
        (TriageDecision.DISMISSED, False, None),
        (TriageDecision.FOLLOW_UP, False, ReviewState.FOLLOW_UP),
    ],
    ids=["literature-contested", "practice-wrong", "scope-differs", "not-a-contradiction", "later"],
)
def test_only_the_literature_side_contests_the_canon_claim(
    decision: TriageDecision, contests: bool, state_on_pair: ReviewState | None
) -> None:
    edge = contradiction(MOM, cue="")
    overlay = Overlay("t", "offline", {}, {}, 0.0, (edge,))
    # Even a workspace that trusts unreviewed contradictions honours the reviewer's side.
    review = scope_of(overlay, {MOM: decision}, ContestScope.UNREVIEWED)
    found = {c.key: c for c in review.contradictions}
    assert (found[MOM].state if MOM in found else None) is state_on_pair
    assert bool(review.edges()) is (contests or decision is TriageDecision.FOLLOW_UP)
    confirmed_only = scope_of(overlay, {MOM: decision}, ContestScope.CONFIRMED)
    assert bool(confirmed_only.edges()) is contests


def test_practice_wrong_keeps_the_canon_answer_grounded_and_flags_the_note(lab_path: Path) -> None:
    _overlay(lab_path)
    record(lab_path, MOM, TriageDecision.PRACTICE_WRONG, note="our backtest had a bug")
    result = _ask(lab_path)
    assert result.run.decision is not None
    assert result.run.decision.status is not None
    assert (result.label, result.run.decision.status.value) == ("ANSWER", "grounded")
    assert review_edges(lab_path) == []
    # The canon note is cited; the pair is about our practice note, so nothing is disclosed.
    assert result.contests is not None
    assert result.contests.items == ()
    # Where the practice note is cited, the answer says a reviewer marked it wrong.
    snapshot = ReviewSnapshot.load(lab_path)
    workspace = load_workspace(lab_path)
    disclosure = snapshot.disclose([MOM.practice_address], workspace)
    (item,) = disclosure.practice_wrong
    assert item.practice_title == "2009 backtest of the momentum book"
    assert disclosure.unreviewed == () and disclosure.contesting == ()
    assert disclosure.summary() == "1 cited practice note marked wrong by a reviewer"
    assert snapshot.practice_wrong() == {MOM.practice_address}
    frame = matrix_frame(snapshot.overlay, workspace, triage=dict(snapshot.decisions))
    assert frame["practice_wrong"].tolist() == [True]
    assert frame["contested"].tolist() == [False]
    assert frame["triage"].tolist() == ["practice-wrong"]


def test_literature_contested_makes_the_canon_claim_contested_as_before(lab_path: Path) -> None:
    _overlay(lab_path)
    record(lab_path, MOM, TriageDecision.CONFIRMED)
    result = _ask(lab_path)
    assert result.run.decision is not None
    assert result.label == "ABSTAIN" and "contested" in result.run.decision.detail
    assert review_edges(lab_path) == [
        Edge(MOM.practice_address, MOM.canon_address, Relation.CONTRADICTS.value)
    ]


@pytest.mark.parametrize(
    ("stored", "label", "edges"),
    [("confirmed", "ABSTAIN", 1), ("dismissed", "ANSWER", 0), ("follow-up", "ANSWER", 0)],
    ids=["old-confirmed", "old-dismissed", "old-follow-up"],
)
def test_an_old_log_line_keeps_its_meaning(
    lab_path: Path, stored: str, label: str, edges: int
) -> None:
    _overlay(lab_path)
    line = {
        "at": "2025-06-01T09:00:00.000000+00:00",
        "decision": stored,
        "edge": MOM.to_dict(),
        "note": "written by an earlier version",
    }
    log = lab_path / LOG_PATH
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(json.dumps(line, sort_keys=True) + "\n", encoding="utf-8")
    assert read_log(lab_path).problems == ()
    assert state(lab_path) == {MOM: TriageDecision(stored)}
    assert len(review_edges(lab_path)) == edges
    assert _ask(lab_path).label == label


def test_every_decision_has_words_and_a_button() -> None:
    sides = {decision for _, decision in TRIAGE_CHOICES}
    assert sides | {TriageDecision.RESET} == set(TriageDecision)
    assert decision_words("reset") == "Reset to unreviewed"
    assert decision_words("confirmed") == "The literature claim is contested"
    assert decision_words("practice-wrong") == "Our practice note is wrong"
    assert decision_words("") == "unreviewed"
