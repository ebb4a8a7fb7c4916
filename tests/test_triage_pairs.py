"""Triage decisions exported as labelled pairs for the reader's next training run."""

import json
import os
from pathlib import Path

import pytest

from engine.commands.eval_reader import read_pairs
from engine.review.overlay import Overlay, save_overlay
from engine.review.relations import EdgeKey
from engine.review.triage import record
from tests.cli import invoke
from tests.overlay_edges import contradiction

SIG = EdgeKey("exp-2009-backtest", "finance", "z-sig-03")
MOM = EdgeKey("exp-2009-backtest", "finance", "z-mom-01")
CRASH = EdgeKey("chk-2024-q1", "finance", "z-crash-05")
GONE = EdgeKey("chk-2024-q1", "finance", "z-no-such-note")


def overlaid(root: Path) -> Path:
    edges = tuple(contradiction(key) for key in (SIG, MOM, CRASH, GONE))
    counts = {"practice": 2, "candidates": 4, "typed": 4, "kept": len(edges)}
    save_overlay(root, Overlay("2026-12-05T00:00:00Z", "offline", {}, counts, 0.0, edges))
    return root


def export(root: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    result = invoke("triage", "pairs", "--workspace", root, "--out", out, *extra)
    return result.code, result.out, result.err


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    ("decisions", "label"),
    [
        ((("confirmed", "Ada"),), "CONTRADICT"),
        ((("practice-wrong", "Ada"),), "CONTRADICT"),
        ((("dismissed", "Ada"),), "NONE"),
        ((("scope-differs", "Ada"),), "NONE"),
        ((("confirmed", "Ada"), ("confirmed", "Grace")), "CONTRADICT"),
        ((("follow-up", "Ada"),), None),
        ((("confirmed", "Ada"), ("dismissed", "Grace")), None),
        ((("confirmed", "Ada"), ("reset", "Ada")), None),
    ],
    ids=[
        "confirmed",
        "practice-wrong",
        "dismissed",
        "scope-differs",
        "two-agree",
        "follow-up-left-out",
        "disagreement-left-out",
        "reset-left-out",
    ],
)
def test_a_decision_becomes_a_labelled_pair_or_is_left_out(
    lab_path: Path, tmp_path: Path, decisions: tuple[tuple[str, str], ...], label: str | None
) -> None:
    overlaid(lab_path)
    for decision, by in decisions:
        record(lab_path, SIG, decision, by=by)
    out = tmp_path / "pairs.jsonl"
    code, said, err = export(lab_path, out)
    assert (code, err) == (0, "")
    rows = lines(out)
    if label is None:
        assert rows == [] and "wrote 0 labelled pairs" in said
        return
    (row,) = rows
    assert row["label"] == label and row["edge"] == SIG.to_dict()
    assert row["by"] == ", ".join(sorted(by for _, by in decisions))
    assert "momentum" in str(row["claim"]).lower() and str(row["sentence"]).strip()
    # The file is what `eval reader --pairs` (and the lab's training) reads.
    assert len(read_pairs(out)) == 1


def test_the_summary_counts_labels_and_what_was_left_out(lab_path: Path, tmp_path: Path) -> None:
    overlaid(lab_path)
    record(lab_path, SIG, "confirmed", by="Ada")
    record(lab_path, MOM, "dismissed", by="Ada")
    record(lab_path, CRASH, "follow-up", by="Ada")
    record(lab_path, GONE, "confirmed", by="Ada")
    out = tmp_path / "pairs.jsonl"
    code, said, _ = export(lab_path, out)
    assert code == 0
    assert "wrote 2 labelled pairs" in said and "(1 CONTRADICT, 1 NONE)" in said
    assert "1 undecided" in said and "1 gone" in said
    assert [row["label"] for row in lines(out)] == ["NONE", "CONTRADICT"]  # edge order


def test_nothing_is_exported_unless_asked_and_nothing_is_written_over(
    lab_path: Path, tmp_path: Path
) -> None:
    overlaid(lab_path)
    record(lab_path, SIG, "confirmed", by="Ada")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "pairs.jsonl"
    out.write_text("mine\n", encoding="utf-8")
    code, _, err = export(lab_path, out)
    assert code == 2 and err.startswith("error: ") and "--replace" in err
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "pairs.jsonl"])
    code, _, _ = export(lab_path, out, "--replace")
    assert code == 0 and lines(out)[0]["label"] == "CONTRADICT"


def test_a_link_at_the_out_path_is_refused_even_with_replace(
    lab_path: Path, tmp_path: Path
) -> None:
    overlaid(lab_path)
    record(lab_path, SIG, "confirmed", by="Ada")
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n", encoding="utf-8")
    link = tmp_path / "pairs.jsonl"
    os.symlink(target, link)
    code, _, err = export(lab_path, link, "--replace")
    assert code == 2 and "is a link" in err
    assert target.read_text(encoding="utf-8") == "keep\n" and link.is_symlink()


def test_the_lab_reads_the_export_as_training_pairs(lab_path: Path, tmp_path: Path) -> None:
    from lab.reader_data import triage_examples

    overlaid(lab_path)
    record(lab_path, SIG, "practice-wrong", by="Ada")
    record(lab_path, MOM, "scope-differs", by="Ada")
    out = tmp_path / "pairs.jsonl"
    assert export(lab_path, out)[0] == 0
    examples = triage_examples([out])
    assert [(e.label, e.source) for e in examples] == [(0, "triage"), (2, "triage")]
    assert examples[1].claim == lines(out)[1]["claim"]
