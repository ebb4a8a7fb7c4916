"""Citations as a reader knows them, the evidence each opens, and audited payloads by title."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import EvidenceKind, answer_evidence, audit_answer, cite_labels
from engine.api import OpenWorkspace, answer
from engine.workspace.cited_notes import evidence, mark
from present.evidence import evidence_html, source_label
from present.gallery import example
from present.views import banner

WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
MOM = "zk:finance:z-mom-01"
QUOTE = (
    "Buying past winners and selling past losers generated significant abnormal returns of "
    "about 1% per month over 3 to 12 month holding periods."
)
BIB = "@article{jt1993, author = {Jegadeesh, N. and Titman, S.}, title = {Returns}, year = {1993}}"


def test_a_source_the_references_know_is_named_author_year(
    lab: OpenWorkspace, lab_path: Path
) -> None:
    assert cite_labels(lab.workspace, [MOM]) == {
        MOM: "Past winners keep beating past losers for up to a year"
    }
    (lab_path / "references.bib").write_text(BIB, encoding="utf-8")
    assert cite_labels(lab.workspace, [MOM, "zk:finance:nope"]) == {
        MOM: "Jegadeesh & Titman 1993",
        "zk:finance:nope": "zk:finance:nope",
    }


def test_an_answer_opens_the_source_page_with_the_quote_marked(lab: OpenWorkspace) -> None:
    result = answer(lab, WINNERS)
    (item,) = answer_evidence(lab, result.run)
    assert item.address == MOM and item.kind is EvidenceKind.SOURCE
    assert item.context is not None and item.context.page == 2
    assert item.context.sentence == QUOTE
    assert item.citation == "Past winners keep beating past losers for up to a year, p. 2"
    assert [p.text for p in item.pieces if p.quoted] == [QUOTE]
    markup = evidence_html(item)
    assert f"<mark class='quoted' style='background:#fde68a;color:#1f2328'>{QUOTE}</mark>" in markup
    assert source_label(item) == "Past winners keep beating past losers for up to a year"


def test_a_note_without_a_source_opens_its_own_text(lab: OpenWorkspace) -> None:
    note = next(n for n in lab.workspace.notes.values() if not n.citekey and n.body.strip())
    first = note.body.split(".")[0] + "."
    item = evidence(lab.workspace, note.address, [first])
    assert item.kind is EvidenceKind.NOTE and item.found
    assert item.pieces[0].quoted and item.pieces[0].text == " ".join(first.split())


def test_an_address_the_workspace_lacks_opens_nothing(lab: OpenWorkspace) -> None:
    item = evidence(lab.workspace, "zk:elsewhere:x1", ["anything"])
    assert item.kind is EvidenceKind.UNKNOWN and item.label == "zk:elsewhere:x1"
    assert "holds no note at this address" in evidence_html(item)


@pytest.mark.parametrize(
    ("text", "quoted", "marked"),
    [
        ("A b. C d. E f.", ["C d."], ["C d."]),
        ("A  b.\nC d.", ["A b. C d."], ["A b. C d."]),
        ("A b. C d.", ["not there"], []),
        ("A b. C d.", ["A b.", "b. C"], ["A b. C"]),
    ],
    ids=["one", "across-lines", "absent", "overlapping"],
)
def test_marks_cover_each_quote_once(text: str, quoted: list[str], marked: list[str]) -> None:
    pieces = mark(text, quoted)
    assert "".join(p.text for p in pieces) == " ".join(text.split())
    assert ["".join(p.text for p in pieces if p.quoted)] == ["".join(marked)]


def test_evidence_text_is_escaped(lab: OpenWorkspace) -> None:
    item = evidence(lab.workspace, "zk:elsewhere:<script>", [])
    assert "<script>" not in evidence_html(item)


def test_an_audited_payload_names_the_notes_the_workspace_knows(lab: OpenWorkspace) -> None:
    payload = json.loads(example("grounded").text)
    cited = payload["dag"]["claims"][0]["cites"][0]
    assert banner(audit_answer(json.dumps(payload)).run).text.count(cited) >= 1
    payload["dag"]["claims"][0]["cites"] = [MOM]
    payload["groundings"] = {MOM: next(iter(payload["groundings"].values()))}
    text = banner(audit_answer(json.dumps(payload), lab).run).text
    assert MOM not in text
    assert "“Past winners keep beating past losers for up to a year”" in text


def test_the_source_page_says_how_much_hidden_text_was_left_out(
    lab: OpenWorkspace, lab_path: Path
) -> None:
    note = lab.workspace.note(MOM)
    assert note is not None
    citekey = note.citekey
    sidecar = {"hidden_text": [{"page": 2, "lines": 1}]}
    (lab_path / f"sources/{citekey}.pdf.json").write_text(json.dumps(sidecar), encoding="utf-8")
    (item,) = answer_evidence(lab, answer(lab, WINNERS).run)
    assert item.hidden == 1
    assert "1 line of text on this page that a reader does not see" in evidence_html(item)
