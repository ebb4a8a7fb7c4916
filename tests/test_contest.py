from pathlib import Path

import pytest

from engine.api import answer, open_workspace, review_edges
from engine.core.errors import ConfigError
from engine.review.contest import (
    ContestScope,
    ReviewState,
    contest_scope,
    review_scope,
    scope_of,
)
from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.relations import EdgeKey
from engine.review.snapshot import review_stamp
from engine.review.triage import TriageDecision, record
from tests.overlay_edges import contradiction

MOM = EdgeKey("exp-2009-backtest", "finance", "z-mom-01")
GROUNDED_QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)


def _contradiction(key: EdgeKey, confidence: float = 0.9) -> OverlayEdge:
    return contradiction(
        key, confidence=confidence, priority=0.675, rationale="why", cue="direction"
    )


def _set_contest(root: Path, value: str) -> None:
    settings = root / "workspace.toml"
    before = settings.read_text() if settings.exists() else ""
    settings.write_text(f"contest = {value}\n" + before)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, ContestScope.CONFIRMED),
        ("", ContestScope.CONFIRMED),
        ('contest = "confirmed"\n', ContestScope.CONFIRMED),
        ('contest = "unreviewed"\n', ContestScope.UNREVIEWED),
    ],
    ids=["no-file", "empty", "confirmed", "unreviewed"],
)
def test_the_contest_setting_defaults_to_confirmed(
    tmp_path: Path, text: str | None, expected: ContestScope
) -> None:
    if text is not None:
        (tmp_path / "workspace.toml").write_text(text)
    assert contest_scope(tmp_path) is expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'contest = "everything"\n',
            r'contest must be "confirmed" or "unreviewed", got .everything',
        ),
        ("contest = 3\n", "contest must be"),
        ("contest = [\n", "not valid TOML"),
    ],
    ids=["unknown-value", "not-a-string", "broken-toml"],
)
def test_a_bad_contest_setting_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "workspace.toml").write_text(text)
    with pytest.raises(ConfigError, match=message):
        contest_scope(tmp_path)


def test_review_states_follow_the_triage_log() -> None:
    keys = [EdgeKey(f"m{i}", "lab", f"n{i}") for i in range(4)]
    overlay = Overlay("t", "offline", {}, {}, 0.0, tuple(_contradiction(k) for k in keys[:3]))
    decisions = {
        keys[0]: TriageDecision.FOLLOW_UP,
        keys[1]: TriageDecision.DISMISSED,
        keys[3]: TriageDecision.CONFIRMED,  # confirmed though no longer in the overlay
    }
    found = {c.key: c for c in scope_of(overlay, decisions).contradictions}
    assert set(found) == {keys[0], keys[2], keys[3]}
    assert (found[keys[0]].state, found[keys[0]].contests) == (ReviewState.FOLLOW_UP, False)
    assert (found[keys[2]].state, found[keys[2]].contests) == (ReviewState.UNREVIEWED, False)
    assert (found[keys[3]].state, found[keys[3]].contests) == (ReviewState.CONFIRMED, True)
    trusting = scope_of(overlay, decisions, ContestScope.UNREVIEWED).contradictions
    assert [c.contests for c in trusting] == [True, True, True]


def test_an_unreviewed_contradiction_is_disclosed_but_does_not_contest_by_default(
    lab_path: Path,
) -> None:
    save_overlay(lab_path, Overlay("t", "offline", {}, {}, 0.0, (_contradiction(MOM),)))
    opened = open_workspace(lab_path)
    try:
        result = answer(opened, GROUNDED_QUESTION)
    finally:
        opened.close()
    assert result.run.decision is not None
    assert result.run.decision.status is not None
    assert (result.label, result.run.decision.status.value) == ("ANSWER", "grounded")
    assert review_edges(lab_path) == []
    assert result.contests is not None
    (item,) = result.contests.unreviewed
    assert item.contradiction.key == MOM and item.cited == MOM.canon_address
    assert item.practice_title == "2009 backtest of the momentum book"
    assert result.contests.summary() == (
        "1 unreviewed contradiction against a cited source — review it"
    )
    data = result.to_dict()
    assert data["contests"]["items"][0]["edge_id"] == MOM.token
    assert data["contests"]["items"][0]["state"] == "unreviewed"
    assert data["contests"]["items"][0]["contests"] is False


def test_under_the_unreviewed_setting_the_same_edge_contests(lab_path: Path) -> None:
    save_overlay(lab_path, Overlay("t", "offline", {}, {}, 0.0, (_contradiction(MOM),)))
    _set_contest(lab_path, '"unreviewed"')
    opened = open_workspace(lab_path)
    try:
        result = answer(opened, GROUNDED_QUESTION)
    finally:
        opened.close()
    assert result.run.decision is not None
    assert result.label == "ABSTAIN" and "contested" in result.run.decision.detail
    assert result.contests is not None
    (item,) = result.contests.contesting
    assert item.contradiction.state is ReviewState.UNREVIEWED
    assert result.contests.summary() == "1 contradiction contests a cited source"


@pytest.mark.parametrize(
    ("decision", "label", "disclosed"),
    [
        (TriageDecision.CONFIRMED, "ABSTAIN", "confirmed"),
        (TriageDecision.FOLLOW_UP, "ANSWER", "follow-up"),
        (TriageDecision.DISMISSED, "ANSWER", None),
    ],
    ids=["confirmed-contests", "follow-up-only-disclosed", "dismissed-gone"],
)
def test_a_triage_decision_changes_the_answer_and_its_stamp(
    lab_path: Path, decision: TriageDecision, label: str, disclosed: str | None
) -> None:
    save_overlay(lab_path, Overlay("t", "offline", {}, {}, 0.0, (_contradiction(MOM),)))
    opened = open_workspace(lab_path)
    try:
        before = answer(opened, GROUNDED_QUESTION)
        record(lab_path, MOM, decision, note="checked")
        after = answer(opened, GROUNDED_QUESTION)
    finally:
        opened.close()
    assert before.review_stamp != after.review_stamp == review_stamp(lab_path)
    assert after.label == label
    assert after.contests is not None
    states = [d.contradiction.state.value for d in after.contests.items]
    assert states == ([disclosed] if disclosed else [])


def test_review_scope_reads_the_workspace(lab_path: Path) -> None:
    save_overlay(lab_path, Overlay("t", "offline", {}, {}, 0.0, (_contradiction(MOM),)))
    scope = review_scope(lab_path)
    assert scope.scope is ContestScope.CONFIRMED and scope.edges() == []
    assert [c.key for c in scope.touching({MOM.canon_address})] == [MOM]
    assert scope.touching({"zk:finance:elsewhere"}) == ()
