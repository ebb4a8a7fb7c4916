"""A PDF answers only with what a reader of its page sees: `sources add`, then `ask`."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.evaluation.pdf_tricks import CONTROLS, TRICKS, hiding_pdf, order_pdf
from tests.builders.pdfgen import pdf_bytes
from tests.cli import Result, invoke

SHOWN = "Zorbex did not lower mortality in the ARC trial."
HIDDEN = "Zorbex lowered mortality by 40 percent in the ARC trial."
QUESTION = "Did Zorbex lower mortality by 40 percent in the ARC trial?"


def _add(tmp_path: Path, data: bytes) -> tuple[Path, Result]:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(data)
    workspace = tmp_path / "ws"
    added = invoke("sources", "add", pdf, "--workspace", workspace)
    assert added.code == 0, added.err
    return workspace, added


def _answer(workspace: Path, question: str) -> dict[str, Any]:
    asked = invoke("ask", question, "--workspace", workspace)
    assert asked.code == 0, asked.err
    answered: dict[str, Any] = json.loads(asked.out)
    return answered


def _label(workspace: Path, question: str) -> str:
    label: str = _answer(workspace, question)["decision"]["label"]
    return label


def _green_without(workspace: Path, question: str, words: str) -> bool:
    """A green answer whose text does not carry `words` (the page's negation) as words."""
    answer = _answer(workspace, question)
    said = " ".join(answer["prose"].split())
    return answer["decision"]["label"] == "ANSWER" and not re.search(rf"\b{words}\b", said)


@pytest.mark.parametrize("trick", TRICKS, ids=list(TRICKS))
def test_hidden_text_is_left_out_counted_and_never_answers(tmp_path: Path, trick: str) -> None:
    workspace, added = _add(tmp_path, hiding_pdf(SHOWN, HIDDEN, trick))
    assert _label(workspace, QUESTION) != "ANSWER"
    assert (workspace / "sources/paper.txt").read_text().strip() == SHOWN
    assert "paper.pdf: page 1: 1 line of hidden text left out" in added.err
    sidecar = json.loads((workspace / "sources/paper.pdf.json").read_text())
    assert sidecar["hidden_text"] == [{"page": 1, "lines": 1}]
    report = json.loads((workspace / ".synapse/reports/sources-add.json").read_text())
    assert report["items"][0]["hidden_text"] == [{"page": 1, "lines": 1}]


@pytest.mark.parametrize("control", CONTROLS, ids=list(CONTROLS))
def test_text_a_reader_sees_still_answers(tmp_path: Path, control: str) -> None:
    workspace, added = _add(tmp_path, hiding_pdf(SHOWN, HIDDEN, control))
    assert "hidden text" not in added.err
    assert HIDDEN in (workspace / "sources/paper.txt").read_text()
    assert _label(workspace, QUESTION) == "ANSWER"


def test_a_word_drawn_last_reads_where_it_stands(tmp_path: Path) -> None:
    after = "Zorbex raised blood pressure in the ARC trial."
    workspace, _ = _add(tmp_path, order_pdf(SHOWN, "not", after))
    # A green answer here may only be the page's own "did not".
    question = "Did Zorbex lower mortality in the ARC trial?"
    assert not _green_without(workspace, question, "did not lower")
    assert (workspace / "sources/paper.txt").read_text().splitlines()[0] == SHOWN


def test_a_negation_at_a_line_end_is_never_glued_to_the_word_before(tmp_path: Path) -> None:
    lines = ["Zorbex is safe for adults-", "not for children in the ARC trial."]
    workspace, _ = _add(tmp_path, pdf_bytes([lines]))
    question = "Is Zorbex safe for children in the ARC trial?"
    assert not _green_without(workspace, question, "not for children")
    assert "adultsnot" not in (workspace / "sources/paper.txt").read_text()


def test_a_word_split_at_a_line_end_joins_when_the_paper_has_it(tmp_path: Path) -> None:
    pages = [
        ["The pheno-", "type of Zorbex carriers differed in the ARC trial."],
        ["Each phenotype was measured twice in the ARC trial."],
    ]
    workspace, _ = _add(tmp_path, pdf_bytes(pages))
    assert "The phenotype of Zorbex carriers" in (workspace / "sources/paper.txt").read_text()
    question = "Did the phenotype of Zorbex carriers differ in the ARC trial?"
    assert _label(workspace, question) == "ANSWER"


_BODY = [
    "Zorbex lowered mortality in younger adults in the ARC trial.",
    "Zorbex lowered mortality in older adults in the ARC trial.",
    "Zorbex raised blood pressure in the ARC trial.",
]


def test_a_sentence_opening_every_page_is_not_a_running_header(tmp_path: Path) -> None:
    pages = [["We found no evidence that", body] for body in _BODY]
    workspace, _ = _add(tmp_path, pdf_bytes(pages))
    question = "Did Zorbex lower mortality in older adults in the ARC trial?"
    assert not _green_without(workspace, question, "We found no evidence that")
    assert "We found no evidence that" in (workspace / "sources/paper.txt").read_text()


def test_a_real_running_header_is_removed_and_the_text_still_answers(tmp_path: Path) -> None:
    pages = [["Journal of Zorbex Studies", body] for body in _BODY]
    workspace, _ = _add(tmp_path, pdf_bytes(pages))
    assert "Journal of Zorbex Studies" not in (workspace / "sources/paper.txt").read_text()
    question = "Did Zorbex lower mortality in older adults in the ARC trial?"
    assert _label(workspace, question) == "ANSWER"
