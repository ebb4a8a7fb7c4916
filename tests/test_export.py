"""The claim matrix download: both sentences, the cue, the standing decision, note, who, when."""

import csv
import io
from pathlib import Path

from engine.api import open_workspace
from engine.review.export import review_export
from engine.review.matrix import matrix_frame, to_csv
from engine.review.overlay import Overlay
from engine.review.relations import EdgeKey
from engine.review.triage import record, state
from tests.overlay_edges import contradiction

MOM = EdgeKey("exp-2009-backtest", "finance", "z-mom-01")
SIG = EdgeKey("exp-2009-backtest", "finance", "z-sig-03")
EVIDENCE = "Buying past winners and selling past losers"


def _overlay() -> Overlay:
    against = contradiction(MOM, priority=0.7, rationale="why", evidence=EVIDENCE, cue="direction")
    other = contradiction(SIG, confidence=0.8, cue="")
    return Overlay("t", "offline", {}, {}, 0.0, (against, other))


def test_the_download_has_both_sentences_the_cue_and_who_decided_what_when(lab_path: Path) -> None:
    record(lab_path, MOM, "practice-wrong", note="the 2009 book skipped no month", by="Ada")
    record(lab_path, SIG, "confirmed", by="Ada")
    record(lab_path, SIG, "reset", by="Grace")
    opened = open_workspace(lab_path)
    try:
        overlay = _overlay()
        frame = matrix_frame(overlay, opened.workspace, triage=state(lab_path))
        exported = to_csv(review_export(frame, overlay, opened, lab_path))
        rows = list(csv.DictReader(io.StringIO(exported)))
    finally:
        opened.close()
    mom, sig = rows
    assert "past winners did not outperform" in mom["practice_text"]
    assert mom["canon_text"] == EVIDENCE
    assert mom["cue_label"] == "opposite direction on the same aligned terms"
    assert (mom["decision"], mom["note"], mom["decided_by"]) == (
        "practice-wrong",
        "the 2009 book skipped no month",
        "Ada",
    )
    assert mom["decided_at"].startswith("20")
    # A reset pair is unreviewed again: no decision, note or name stands on it.
    assert (sig["decision"], sig["decided_by"], sig["decided_at"]) == ("", "", "")
    assert sig["canon_text"]  # no evidence sentence: the note's best quote or text
