import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.api import ask, open_workspace, review_edges
from engine.core.errors import ConfigError
from engine.core.model import Edge
from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.relations import EdgeKey
from engine.review.triage import (
    LOG_PATH,
    TriageDecision,
    confirmed_edges,
    read_log,
    record,
    state,
)
from tests.conftest import ROOT
from tests.overlay_edges import contradiction

MOM = EdgeKey("exp-2009-backtest", "finance", "z-mom-01")
SIG = EdgeKey("deci-a7688a22", "finance", "z-sig-03")
GROUNDED_QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)


def _contradiction(key: EdgeKey) -> OverlayEdge:
    return contradiction(key, priority=0.675, rationale="why")


@pytest.mark.parametrize(
    ("decisions", "expected"),
    [
        (["confirmed"], TriageDecision.CONFIRMED),
        (["confirmed", "dismissed"], TriageDecision.DISMISSED),
        (["dismissed", "follow-up", "confirmed"], TriageDecision.CONFIRMED),
    ],
    ids=["one", "last-wins", "three-steps"],
)
def test_state_is_the_fold_of_the_log(
    tmp_path: Path, decisions: list[str], expected: TriageDecision
) -> None:
    for decision in decisions:
        record(tmp_path, MOM, decision, note=f"said {decision}")
    record(tmp_path, SIG, "follow-up")
    assert state(tmp_path) == {SIG: TriageDecision.FOLLOW_UP, MOM: expected}
    assert len(read_log(tmp_path).entries) == len(decisions) + 1


def test_unknown_decision_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown decision"):
        record(tmp_path, MOM, "maybe")


def test_torn_last_line_is_ignored_and_reported_and_the_next_record_survives(
    tmp_path: Path,
) -> None:
    record(tmp_path, MOM, "confirmed")
    log = tmp_path / LOG_PATH
    with log.open("ab") as stream:
        stream.write(b'{"at": "2024-01-01T00:00:00", "edge": {"memory_id": "exp')
    read = read_log(tmp_path)
    assert read.state() == {MOM: TriageDecision.CONFIRMED}
    assert read.problems == ("line 2: incomplete last line ignored",)
    record(tmp_path, SIG, "dismissed")
    read = read_log(tmp_path)
    assert read.state() == {MOM: TriageDecision.CONFIRMED, SIG: TriageDecision.DISMISSED}
    assert len(read.problems) == 1 and "line 2: skipped" in read.problems[0]


def test_malformed_middle_line_is_skipped_and_reported(tmp_path: Path) -> None:
    record(tmp_path, MOM, "confirmed")
    with (tmp_path / LOG_PATH).open("a") as stream:
        stream.write('{"at": "x", "edge": {"memory_id": "m"}, "decision": "confirmed"}\n')
    record(tmp_path, SIG, "follow-up")
    read = read_log(tmp_path)
    assert read.state() == {MOM: TriageDecision.CONFIRMED, SIG: TriageDecision.FOLLOW_UP}
    assert len(read.problems) == 1 and read.problems[0].startswith("line 2: skipped")


_WRITER = textwrap.dedent(
    """
    import sys
    from engine.review.relations import EdgeKey
    from engine.review.triage import record
    root, worker = sys.argv[1], sys.argv[2]
    for n in range(200):
        record(root, EdgeKey(f"{worker}-{n}", "finance", "z"), "confirmed")
    """
)


def test_two_processes_writing_concurrently_lose_nothing(tmp_path: Path) -> None:
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path), name], cwd=ROOT)
        for name in ("a", "b")
    ]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0]
    read = read_log(tmp_path)
    assert read.problems == ()
    assert len(read.entries) == 400 and len(read.state()) == 400


def test_review_edges_are_confirmed_triage_and_undismissed_overlay_ones_only_when_set(
    tmp_path: Path,
) -> None:
    other = EdgeKey("chk-2024-q1", "finance", "z-ret-02")
    overlay = Overlay("t", "offline", {}, {}, 0.0, (_contradiction(SIG), _contradiction(other)))
    save_overlay(tmp_path, overlay)
    record(tmp_path, MOM, "confirmed")
    record(tmp_path, other, "dismissed")
    mom = Edge("mem:_memory:exp-2009-backtest", "zk:finance:z-mom-01", "contradicts")
    sig = Edge("mem:_memory:deci-a7688a22", "zk:finance:z-sig-03", "contradicts")
    assert confirmed_edges(tmp_path) == [mom]
    assert review_edges(tmp_path) == [mom]
    (tmp_path / "workspace.toml").write_text('contest = "unreviewed"\n')
    assert review_edges(tmp_path) == [sig, mom]


def test_confirmed_contradiction_makes_the_router_abstain(lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    try:
        before = ask(opened, GROUNDED_QUESTION, edges=review_edges(lab_path)).to_dict()
        assert (before["decision"]["label"], before["decision"]["status"]) == ("ANSWER", "grounded")
        assert "zk:finance:z-mom-01" in before["cited"]
        record(lab_path, MOM, TriageDecision.CONFIRMED, note="our 2009 book lost money")
        after = ask(opened, GROUNDED_QUESTION, edges=review_edges(lab_path)).to_dict()
        assert after["decision"]["label"] == "ABSTAIN"
        assert "contested" in after["decision"]["detail"]
    finally:
        opened.close()


# "reviewer:decision" in the order recorded (":x" is a line from before reviewers were named),
# the decision that then acts, and whether the reviewers disagree.
REVIEWS = {
    "one-reviewer-changes-their-mind": ("ann:confirmed ann:dismissed", "dismissed", False),
    "two-agree": ("ann:dismissed bob:dismissed", "dismissed", False),
    "confirmed-then-dismissed-by-another": ("ann:confirmed bob:dismissed", "confirmed", True),
    "dismissed-then-confirmed-by-another": ("ann:dismissed bob:confirmed", "confirmed", True),
    "follow-up-outranks-settled": ("ann:scope-differs bob:follow-up", "follow-up", True),
    "they-come-to-agree": ("ann:confirmed bob:dismissed ann:dismissed", "dismissed", False),
    "an-unnamed-line-is-superseded": (":confirmed bob:dismissed", "dismissed", False),
    "an-unnamed-line-supersedes": ("ann:confirmed bob:confirmed :dismissed", "dismissed", False),
    "a-reset-withdraws-its-own": ("ann:confirmed bob:dismissed ann:reset", "dismissed", False),
}


@pytest.mark.parametrize(("said", "acts", "disagree"), REVIEWS.values(), ids=REVIEWS.keys())
def test_each_reviewer_keeps_a_decision_and_disagreement_is_reported(
    tmp_path: Path, said: str, acts: str, disagree: bool
) -> None:
    for said_one in said.split():
        by, decision = said_one.split(":")
        record(tmp_path, MOM, decision, by=by)
    log = read_log(tmp_path)
    assert log.state() == {MOM: TriageDecision(acts)}
    assert (MOM in log.disagreements()) is disagree
    standing = log.standing()[MOM]
    assert len({e.by for e in standing}) == len(standing)
    assert all(e.at for e in standing)


def test_a_reset_returns_the_pair_to_unreviewed_and_keeps_every_line(tmp_path: Path) -> None:
    record(tmp_path, MOM, "confirmed", note="contested")
    record(tmp_path, SIG, "dismissed")
    record(tmp_path, MOM, TriageDecision.RESET)
    read = read_log(tmp_path)
    assert read.state() == {SIG: TriageDecision.DISMISSED}
    assert [e.decision for e in read.entries] == ["confirmed", "dismissed", "reset"]
    assert confirmed_edges(tmp_path) == []
    record(tmp_path, MOM, "follow-up")
    assert state(tmp_path)[MOM] is TriageDecision.FOLLOW_UP


@pytest.mark.parametrize(
    ("env", "by", "expected"),
    [("Ada", None, "Ada"), ("Ada", "Grace", "Grace"), ("", "", "")],
    ids=["from-env", "given", "nobody"],
)
def test_each_line_names_who_decided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: str, by: str | None, expected: str
) -> None:
    monkeypatch.setenv("SYNAPSE_REVIEWER", env)
    record(tmp_path, MOM, "confirmed", by=by)
    (entry,) = read_log(tmp_path).entries
    assert entry.by == expected
    line = json.loads((tmp_path / LOG_PATH).read_text())
    assert line.get("by", "") == expected


def test_a_line_written_before_names_were_kept_still_reads(tmp_path: Path) -> None:
    (tmp_path / LOG_PATH).parent.mkdir(parents=True)
    old = {"at": "2024-01-01T00:00:00", "edge": MOM.to_dict(), "decision": "confirmed", "note": ""}
    (tmp_path / LOG_PATH).write_text(json.dumps(old) + "\n")
    (entry,) = read_log(tmp_path).entries
    assert (entry.decision, entry.by) == (TriageDecision.CONFIRMED, "")


def test_a_name_on_two_lines_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="who decided"):
        record(tmp_path, MOM, "confirmed", by="Ada\nLovelace")
