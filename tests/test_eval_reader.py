"""`eval reader`: the shipped reader measured on labelled pairs a user brings."""

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from engine.commands.eval_reader import auc, measure
from engine.review.reader_typer import reader_bands
from tests.cli import invoke

PAIRS = [
    {
        "claim": "Aspirin lowers stroke risk.",
        "sentence": "Aspirin cut strokes by a third.",
        "label": "SUPPORT",
    },
    {
        "claim": "Aspirin lowers stroke risk.",
        "sentence": "Aspirin raised the stroke rate.",
        "label": "CONTRADICT",
    },
    {
        "claim": "Aspirin lowers stroke risk.",
        "sentence": "Glaciers retreated in the Alps.",
        "label": "NOT_ENOUGH_INFO",
    },
]


def write(path: Path, rows: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("scores", "positive", "expected"),
    [
        ([0.9, 0.8, 0.1], [True, True, False], 1.0),
        ([0.1, 0.2, 0.9], [True, True, False], 0.0),
        ([0.5, 0.5], [True, False], 0.5),
        ([0.5, 0.4], [True, True], None),
    ],
    ids=["separated", "reversed", "tied", "one-class"],
)
def test_auc(scores: list[float], positive: list[bool], expected: float | None) -> None:
    assert auc(np.array(scores), np.array(positive)) == expected


def test_each_pair_falls_in_at_most_one_shipped_band() -> None:
    readings = np.array([[0.1, 0.1, 0.8], [0.98, 0.01, 0.01], [0.0, 0.0, 1.0]])
    report = measure(readings, np.array([2, 0, 2]))
    assert report["labels"] == {"none": 1, "support": 0, "contradict": 2}
    assert [b["low"] for b in report["bands"]] == [b.low for b in reader_bands()]
    assert sum(b["flagged"] for b in report["bands"]) <= 3
    assert all(b["right"] <= b["flagged"] for b in report["bands"])


def test_the_reader_reads_the_pairs_and_says_how_it_did(tmp_path: Path) -> None:
    done = invoke("eval", "reader", "--pairs", write(tmp_path / "p.jsonl", PAIRS))
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert report["pairs"] == 3 and report["reader"].startswith("reader:")
    assert report["labels"] == {"none": 1, "support": 1, "contradict": 1}
    assert 0.0 <= report["evidence_auc"] <= 1.0 and 0.0 <= report["contradict_auc"] <= 1.0


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["not json"], "--pairs line 1 is not JSON"),
        ([{"claim": "A.", "sentence": "B.", "label": "MAYBE"}], "line 1: label must be one of"),
        ([{"claim": "A.", "label": "NONE"}], "line 1 needs a claim and a sentence"),
        ([{"claim": " ", "sentence": "B.", "label": "NONE"}], "line 1 has an empty claim"),
        ([], "holds no pairs"),
    ],
    ids=["not-json", "label", "no-sentence", "empty-claim", "empty-file"],
)
def test_bad_pairs_exit_2_with_one_line(tmp_path: Path, rows: list[object], message: str) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    done = invoke("eval", "reader", "--pairs", path)
    assert done.code == 2 and done.err.startswith("error: ") and message in done.err
    assert done.err.count("\n") == 1
