"""The evidence table's cells: the finding quoted at its page, yes / no / mixed, the row."""

from __future__ import annotations

import pytest

from engine import (
    Cue,
    CueShape,
    EvidenceTable,
    Finding,
    RowStatus,
    Stance,
    StanceRelation,
    TableRow,
)
from engine.core.stance import Overstated
from present.markup import esc
from present.paper_table import (
    NO_FINDING,
    finding_html,
    stance_html,
    status_html,
    table_caption,
)

HOSTILE = "Statins <script>alert(1)</script> cut fracture risk."


def row(
    finding: str | None, relation: StanceRelation | None, status: RowStatus = RowStatus.RELATED
) -> TableRow:
    found = Finding(finding, "zk:lit:x", 3) if finding else None
    stance = Stance(relation, Cue(CueShape.NONE), 0.0, finding or "") if relation else None
    return TableRow("x", "Smith 2001", "A title", "zk:lit:x", status, found, stance)


def test_a_finding_is_quoted_with_its_page_and_escaped() -> None:
    markup = finding_html(row(HOSTILE, StanceRelation.SUPPORTS))
    assert "&lt;script&gt;" in markup and "<script>" not in markup
    assert "p. 3" in markup


@pytest.mark.parametrize(
    ("finding", "relation", "shown"),
    [
        ("A b c.", StanceRelation.SUPPORTS, ">yes<"),
        ("A b c.", StanceRelation.CONTRADICTS, ">no<"),
        ("A b c.", StanceRelation.NEITHER, ">mixed<"),
        ("A b c.", None, "—"),
        (None, StanceRelation.SUPPORTS, "—"),
    ],
    ids=["yes", "no", "mixed", "not-yes-no", "no-finding-no-stance"],
)
def test_the_stance_reads_only_a_finding(
    finding: str | None, relation: StanceRelation | None, shown: str
) -> None:
    assert shown in stance_html(row(finding, relation))


def test_a_row_without_a_finding_says_why() -> None:
    assert NO_FINDING in finding_html(row(None, None))


@pytest.mark.parametrize(
    ("status", "word"),
    [(RowStatus.GREEN, "green"), (RowStatus.HEDGED, "hedged"), (RowStatus.RELATED, "related")],
    ids=["green", "hedged", "related"],
)
def test_each_row_names_its_status(status: RowStatus, word: str) -> None:
    assert f">{word}</span>" in status_html(row("A b c.", None, status))


def test_the_caption_counts_what_was_cut() -> None:
    one = EvidenceTable("q", (row("A b c.", None),), papers=1)
    many = EvidenceTable("q", (row("A b c.", None),) * 2, papers=14)
    assert table_caption(one).startswith("1 paper bears on the question.")
    assert table_caption(many).startswith("2 papers bear on the question (the 2 closest of 14).")


@pytest.mark.parametrize("rule", list(Overstated), ids=lambda r: r.value)
def test_a_withheld_yes_shows_its_rule_in_a_few_words_and_the_reason_in_the_tooltip(
    rule: Overstated,
) -> None:
    withheld = Stance(StanceRelation.NEITHER, Cue(CueShape.NONE), 0.0, "A b c.", overstated=rule)
    found = Finding("A b c.", "zk:lit:x", 3)
    markup = stance_html(TableRow("x", "S", "T", "zk:lit:x", RowStatus.HEDGED, found, withheld))
    assert f">not a {withheld.withheld_reading}: {esc(rule.label)}</small>" in markup
    assert f"title='{esc(rule.words)}'" in markup
    assert len(rule.label) < 40 < len(rule.words)
