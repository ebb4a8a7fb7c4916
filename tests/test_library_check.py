"""The held-out check on a library of your own: its sentences answer, their mutants never
answer yes, and the command says so in one JSON object."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import ask, open_workspace
from engine.evaluation.library_check import check_library
from tests.cli import invoke

PAGES = [
    "Sleep and recall\n\nStudents who slept 9 hours recalled 42% more word pairs than those who "
    "slept 6 hours. The effect held in women and in men. Recall did not improve after naps. "
    "Teenagers slept 7.5 hours on school nights. Caffeine after 4 pm shortened sleep by 40 "
    "minutes. Reaction times were 12 ms slower after one short night.",
    "Lithium and memory\n\nLi+ and Na+ were effective in inducing competence at 10(8) cells. "
    "Serum levels fell by -3.2 mmol/L in the treated group. Adverse events were not more "
    "frequent with lithium than with placebo. Thyroid function was unchanged at 12 months. "
    "Patients over 65 years received 300 mg daily. Renal clearance was lower in women.",
    "Urban trees\n\nStreets with more canopy cover were 2.1 degrees cooler at noon. Shade did "
    "not lower night temperatures. Canopy cover rose from 18% to 24% over ten years. Heat "
    "admissions fell by 9% in shaded districts. Asphalt surfaces reached 52 degrees in July.",
]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    (tmp_path / "sources").mkdir()
    for n, page in enumerate(PAGES):
        (tmp_path / "sources" / f"paper{n}.txt").write_text(page, "utf-8")
    return tmp_path


def test_stated_sentences_answer_and_no_mutant_answers_yes(library: Path) -> None:
    opened = open_workspace(library)
    try:
        found = check_library(opened, ask, sample=6, seed=3)
    finally:
        opened.close()
    assert found.asked == 6 and found.answered + found.answered_elsewhere >= 4, found.misses
    assert sum(found.mutants.values()) > 6, "the sentences should give mutants"
    assert sum(found.green.values()) == 0, found.leaks
    assert found.first_s > 0 and len(found.latencies_ms) > 6


def test_the_command_prints_the_check_and_exits_zero_without_a_false_answer(library: Path) -> None:
    out = invoke("eval", "library", "--workspace", library, "--sample", "3")
    assert out.code == 0, out.err
    report = out.json()
    assert report["false_answers"] == 0 and report["stated"]["asked"] == 3
    assert report["library"]["papers"] == 3
    assert report["open_s"] >= 0 and report["p50_ms"] is not None


@pytest.mark.parametrize("sample", ["0", "999999"], ids=["zero", "too-many"])
def test_a_sample_out_of_range_is_one_error_line(library: Path, sample: str) -> None:
    out = invoke("eval", "library", "--workspace", library, "--sample", sample)
    assert out.code == 2 and out.err.startswith("error: --sample must be between")


def test_a_workspace_without_papers_is_refused(tmp_path: Path) -> None:
    (tmp_path / ".zettelkasten" / "lab").mkdir(parents=True)
    out = invoke("eval", "library", "--workspace", tmp_path)
    assert out.code == 2 and "holds no passages" in out.err
