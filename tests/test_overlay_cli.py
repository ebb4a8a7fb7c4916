import json
from pathlib import Path
from typing import Any

import pytest

from engine.commands.eval_overlay import annotated_pairs, contradiction_bands, gold_pairs
from engine.core.environment import ENV_ENCODER
from engine.datasets.scifact import import_scifact, labels_path
from engine.review.overlay import Overlay, OverlayEdge
from engine.review.relations import Relation
from engine.workspace.layout import OVERLAY_PATH
from tests.cli import invoke
from tests.conftest import ROOT

SCIFACT = ROOT / "data" / "scifact"


def test_overlay_build_prints_a_summary_then_show_lists_edges(lab_path: Path) -> None:
    code, out, err = invoke("overlay", "build", "--workspace", lab_path, "--min-confidence", 0)
    summary = json.loads(out)
    assert code == 0 and summary["typer"] == "offline" and summary["counts"]["practice"] == 3
    assert err == ""  # stderr is not a terminal here: no progress line
    code, out, _ = invoke("overlay", "show", "--workspace", lab_path)
    edges = json.loads(out)
    assert code == 0 and len(edges) == summary["counts"]["kept"] > 0
    assert list(edges[0]) == [
        "memory_id", "zk_source", "zk_id", "relation", "confidence", "claim_strength",
        "priority", "rationale",
    ]  # fmt: skip


def test_overlay_build_if_missing_keeps_a_saved_overlay(lab_path: Path) -> None:
    invoke("overlay", "build", "--workspace", lab_path)
    saved = (lab_path / OVERLAY_PATH).stat().st_mtime_ns
    code, out, _ = invoke("overlay", "build", "--workspace", lab_path, "--if-missing")
    assert code == 0 and json.loads(out)["kept"] is True
    assert (lab_path / OVERLAY_PATH).stat().st_mtime_ns == saved


def test_overlay_show_without_an_overlay_is_a_one_line_error(lab_path: Path) -> None:
    code, out, err = invoke("overlay", "show", "--workspace", lab_path)
    assert (code, out) == (2, "") and "overlay build" in err


@pytest.mark.parametrize(
    "flags",
    [("--practice-id", "--canon-source", "--canon-id"), ("--memory-id", "--zk-source", "--zk-id")],
    ids=["practice-canon", "older-names"],
)
def test_triage_set_then_show(lab_path: Path, flags: tuple[str, str, str]) -> None:
    ids = ("exp-2009-backtest", "finance", "z-mom-01")
    edge = [part for pair in zip(flags, ids, strict=True) for part in pair]
    for decision in ("follow-up", "confirmed"):
        code, out, _ = invoke(
            "triage", "set", "--workspace", lab_path, *edge, "--decision", decision
        )
        assert code == 0 and json.loads(out)["decision"] == decision
    code, out, _ = invoke("triage", "show", "--workspace", lab_path)
    shown = json.loads(out)
    assert code == 0 and [(s["edge"]["zk_id"], s["decision"]) for s in shown] == [
        ("z-mom-01", "confirmed")
    ]


def test_triage_set_refuses_an_unknown_decision(lab_path: Path) -> None:
    code, out, err = invoke("triage", "set", "--workspace", lab_path, "--memory-id", "m",
                         "--zk-source", "s", "--zk-id", "z", "--decision", "maybe")  # fmt: skip
    assert (code, out) == (2, "") and "invalid choice: 'maybe'" in err


@pytest.mark.skipif(not (SCIFACT / "corpus.jsonl.gz").exists(), reason="SciFact data absent")
def test_eval_overlay_scores_both_relations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_ENCODER, "none")  # stance reads words; meaning would cost a minute
    out_dir = tmp_path / "sf"
    import_scifact(SCIFACT / "corpus.jsonl.gz", SCIFACT / "claims_train.jsonl", out_dir, limit=300)
    assert invoke("overlay", "build", "--workspace", out_dir, "--quiet").code == 0
    code, out, _ = invoke("eval", "overlay", "--workspace", out_dir, "--gold", labels_path(out_dir))
    report = json.loads(out)
    assert code == 0
    scores = {"precision", "recall", "f1", "predicted", "gold", "correct"}
    assert set(report["supports"]) == scores
    assert set(report["contradicts"]) == scores | {"calibration", "by_cue"}
    for relation in ("contradicts", "supports"):
        assert 0.0 <= report[relation]["precision"] <= 1.0
    bands = report["contradicts"]["calibration"].values()
    assert sum(b["flagged"] for b in bands) == report["contradicts"]["predicted"]
    assert sum(b["correct"] for b in bands) == report["contradicts"]["correct"]
    assert report["supports"]["gold"] > 0 and report["counts"]["gold_pairs"] > 0
    for relation in ("contradicts", "supports"):
        annotated = report["annotated_pairs"][relation]
        assert annotated["predicted"] <= report[relation]["predicted"]
        assert annotated["correct"] == report[relation]["correct"]


@pytest.mark.parametrize(
    "evidence",
    [
        {"7": [{"label": "CONTRADICT", "sentences": [1]}], "8": [{"label": "SUPPORT"}]},
        {"7": {"label": "CONTRADICT", "sentences": [1]}, "8": {"label": "SUPPORT"}},
    ],
    ids=["rationale-lists", "single-objects"],
)
def test_gold_pairs_read_both_label_shapes(evidence: dict[str, Any]) -> None:
    line = json.dumps({"id": 3, "claim": "c", "cited_doc_ids": [7, 8, 9], "evidence": evidence})
    assert gold_pairs([line, ""]) == {("claim-3", "7"): "contradicts", ("claim-3", "8"): "supports"}


def test_annotated_pairs_are_each_claim_against_its_cited_abstracts() -> None:
    lines = [json.dumps({"id": 3, "claim": "c", "cited_doc_ids": [7, 9], "evidence": {}}), ""]
    assert annotated_pairs(lines) == {("claim-3", "7"), ("claim-3", "9")}


def test_contradiction_bands_count_precision_by_confidence_and_cue() -> None:
    def edge(doc: str, confidence: float, cue: str) -> OverlayEdge:
        return OverlayEdge(
            "claim-1", "scifact", doc, Relation.CONTRADICTS, confidence, None, 0.5, "", "", cue
        )

    overlay = Overlay(
        "t", "offline", {}, {}, 0.0,
        (edge("7", 0.95, "number"), edge("8", 0.91, "direction"), edge("9", 0.55, "direction")),
    )  # fmt: skip
    gold = {("claim-1", "7"): "contradicts", ("claim-1", "9"): "supports"}
    report = contradiction_bands(overlay, gold, {"claim-1"})
    assert report["calibration"] == {
        "[0.5, 0.6)": {"flagged": 1, "correct": 0, "precision": 0.0},
        "[0.9, 1.0]": {"flagged": 2, "correct": 1, "precision": 0.5},
    }
    assert report["by_cue"]["direction"] == {"flagged": 2, "correct": 0, "precision": 0.0}
    assert contradiction_bands(overlay, gold, {"claim-2"}) == {"calibration": {}, "by_cue": {}}
