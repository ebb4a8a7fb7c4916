"""A matrix cell as a reviewer reads it: the brief as text, names instead of addresses."""

from pathlib import Path

from engine.api import open_workspace
from engine.review.cell import cell_detail, triage_history
from engine.review.relations import EdgeKey
from engine.review.triage import record
from tests.overlay_edges import contradiction

MOM = EdgeKey("exp-2009-backtest", "finance", "z-mom-01")
EVIDENCE = "Buying past winners and selling past losers generated significant abnormal returns"
EDGE = contradiction(MOM, priority=0.7, rationale="Opposite findings.", cue="direction")


def test_the_brief_reads_as_text_with_names_sentences_and_cue(lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    try:
        detail = cell_detail(opened, EDGE)
    finally:
        opened.close()
    reading = detail.reading
    assert "“2009 backtest of the momentum book” (experiment) says: In our 2009 backtest" in reading
    assert "“Past winners keep beating past losers for up to a year” says: “" + EVIDENCE in reading
    assert "They contradict each other (confidence 0.90); cue: opposite direction" in reading
    assert "the word “not”." in reading
    assert "Why: Opposite findings." in reading
    # No address on screen: the brief with ids stays for the tooltip and downloads.
    for address in ("mem:", "zk:", "exp-2009-backtest", "z-mom-01"):
        assert address not in reading
    assert "mem:_memory:exp-2009-backtest" in (detail.brief or "")


def test_the_triage_log_names_notes_by_title_and_who_decided(lab_path: Path) -> None:
    record(lab_path, MOM, "confirmed", note="checked", by="Ada")
    opened = open_workspace(lab_path)
    try:
        (line,) = triage_history(lab_path, opened.workspace)
    finally:
        opened.close()
    assert line["practice"] == "2009 backtest of the momentum book"
    assert line["canon"] == "Past winners keep beating past losers for up to a year"
    assert (line["decision"], line["note"], line["by"]) == ("confirmed", "checked", "Ada")
