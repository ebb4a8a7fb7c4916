"""The evidence table: papers that bear on a question, each finding verbatim, yes / no / mixed."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import (
    EvidenceKind,
    EvidenceTable,
    RowStatus,
    evidence_table,
    row_evidence,
    table_markdown,
)
from engine.api import OpenWorkspace, answer, open_workspace
from engine.core.environment import ENV_ENCODER
from engine.reading.aims import asks

BROAD = "Do statins reduce fracture risk?"
NARROW = "Do statins reduce hip fracture risk in elderly women?"
HIP = "Statin use reduced the risk of hip fracture in elderly women."
NULL = "Statin use did not reduce fracture risk in this cohort."
WHOLE = "We found no evidence that statins reduce fracture risk in men."

# citekey -> (title, the note's quotes, the source text when it differs from the quotes)
PAPERS = {
    "hip2000": (
        "Statins and hip fracture in elderly women",
        ["To determine whether statins reduce fracture risk.", HIP],
        None,
    ),
    "null2004": ("Statin therapy and fracture risk in a cohort", [NULL], None),
    "aim2010": ("Statins and fracture risk: a protocol", [BROAD.replace("Do", "We ask if")], None),
    # The note misquotes its source, which says nothing else of the question.
    "miss2012": (
        "Fracture risk under statins",
        ["Statins reduce fracture risk by half."],
        "Bone density was unchanged after two years.",
    ),
    # The note quotes a span from inside a sentence that says the opposite.
    "part2015": ("Statins, bone and fracture risk", ["statins reduce fracture risk"], WHOLE),
    "chol2001": ("Statins lower cholesterol", ["Statins reduce LDL cholesterol."], None),
}


def write_workspace(root: Path) -> Path:
    box, sources = root / ".zettelkasten" / "lit", root / "sources"
    box.mkdir(parents=True)
    sources.mkdir()
    for key, (title, quotes, source) in PAPERS.items():
        (sources / f"{key}.txt").write_text(source or " ".join(quotes), encoding="utf-8")
        meta = {
            "id": key,
            "type": "finding",
            "title": title,
            "source": key,
            "quotes": [{"id": f"s{i}", "body": q, "page": 1} for i, q in enumerate(quotes)],
        }
        body = " ".join(quotes)
        (box / f"{key}.md").write_text(f"---\n{json.dumps(meta)}\n---\n{body}\n", encoding="utf-8")
    return root


@pytest.fixture
def papers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenWorkspace]:
    monkeypatch.setenv(ENV_ENCODER, "none")
    opened = open_workspace(write_workspace(tmp_path / "ws"))
    yield opened
    opened.close()


def rows_by_paper(table: EvidenceTable) -> dict[str, tuple[str, str]]:
    return {r.paper: (r.finding.sentence if r.finding else "", r.reading) for r in table.rows}


@pytest.mark.parametrize(
    ("paper", "finding", "reading"),
    [
        ("hip2000", HIP, "yes"),
        ("null2004", NULL, "no"),
        ("aim2010", "", ""),
        ("miss2012", "", ""),
        ("part2015", WHOLE, "no"),
    ],
    ids=["finding-yes", "finding-no", "aim-is-no-finding", "misquote-no-finding", "whole-sentence"],
)
def test_a_row_shows_only_a_whole_verbatim_finding(
    papers: OpenWorkspace, paper: str, finding: str, reading: str
) -> None:
    table = evidence_table(papers, answer(papers, BROAD))
    assert rows_by_paper(table)[paper] == (finding, reading)


def test_a_paper_that_leaves_out_a_question_word_is_not_listed(papers: OpenWorkspace) -> None:
    table = evidence_table(papers, answer(papers, BROAD))
    assert "chol2001" not in rows_by_paper(table)
    assert table.papers == len(table.rows) == 5


def test_the_answers_citation_is_green_and_reads_as_the_answer_does(papers: OpenWorkspace) -> None:
    result = answer(papers, NARROW)
    assert result.label == "ANSWER"
    first = evidence_table(papers, result).rows[0]
    assert first.finding is not None
    assert (first.paper, first.status, first.finding.sentence) == ("hip2000", RowStatus.GREEN, HIP)
    assert first.stance == result.run.stance and first.page == 1


def test_an_abstention_has_only_related_rows(papers: OpenWorkspace) -> None:
    result = answer(papers, BROAD)
    assert result.label == "ABSTAIN"  # the misquote is a false premise
    assert {r.status for r in evidence_table(papers, result).rows} == {RowStatus.RELATED}


def test_same_workspace_and_question_same_rows(papers: OpenWorkspace, tmp_path: Path) -> None:
    first = evidence_table(papers, answer(papers, BROAD))
    again = open_workspace(write_workspace(tmp_path / "copy"))
    try:
        assert evidence_table(again, answer(again, BROAD)).to_dict() == first.to_dict()
    finally:
        again.close()


def test_a_row_opens_its_source_page_with_the_finding_marked(papers: OpenWorkspace) -> None:
    table = evidence_table(papers, answer(papers, BROAD))
    row = next(r for r in table.rows if r.paper == "part2015")
    item = row_evidence(papers, row)
    assert item.kind is EvidenceKind.SOURCE
    assert item.context is not None and (item.context.sentence, item.context.page) == (WHOLE, 1)


def test_the_table_exports_as_csv_and_markdown(papers: OpenWorkspace) -> None:
    table = evidence_table(papers, answer(papers, BROAD))
    lines = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert [line["title"] for line in lines] == [r.title for r in table.rows]
    assert {line["finding"] for line in lines} >= {HIP, NULL, WHOLE, ""}
    text = table_markdown(table)
    assert text.count("\n") == len(table.rows) + 2
    assert "| no sentence of it states a finding on the question |" in text
    assert "“Statin use did not reduce fracture risk in this cohort.”" in text


def test_on_the_demo_every_finding_is_a_quoted_finding_of_its_paper(demo: OpenWorkspace) -> None:
    result = answer(demo, "What causes sepsis?")
    table = evidence_table(demo, result)
    assert len(table.rows) == 10 and table.rows[0].status is RowStatus.GREEN
    first = table.rows[0].finding
    assert first is not None
    assert first.sentence == result.run.prose
    for row in table.rows:
        if row.finding is None:
            continue
        note = demo.workspace.note(row.finding.address)
        assert note is not None
        quotes = {q.body.strip() for q in note.quotes}
        assert row.finding.sentence in quotes and not asks(row.finding.sentence)
        assert row.name and not row.name.startswith("zk:")


def test_a_finding_shows_the_page_as_printed_on_it(tmp_path: Path) -> None:
    # A PDF numbered from 101: the row names page 103, as the answer's citation does.
    from engine.importers.sources import add_pdfs, collect_pdfs
    from engine.models.encoder import EncoderChoice
    from present.paper_table import finding_html
    from tests.test_browser_library import QUESTION, RECALL, write_papers

    write_papers(tmp_path / "papers")
    add_pdfs(tmp_path / "ws", collect_pdfs([str(tmp_path / "papers")]))
    opened = open_workspace(tmp_path / "ws", encoder=EncoderChoice(None, "words alone"))
    try:
        row = evidence_table(opened, answer(opened, QUESTION)).rows[0]
    finally:
        opened.close()
    assert row.finding is not None and " ".join(row.finding.sentence.split()) == RECALL
    assert (row.page, row.page_label) == (3, "103")
    assert "p. 103" in finding_html(row)
