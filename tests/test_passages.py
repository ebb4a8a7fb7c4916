"""Passages: a paper's full text answers, quoted and cited to its printed page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from engine.api import ask, open_workspace
from engine.navigation.result import NavResult
from engine.workspace.caches import passages_path
from engine.workspace.passage_cache import pack, unpack
from engine.workspace.passage_notes import PASSAGE_BOX, PassagePlace, passage_place
from engine.workspace.stores import load_workspace
from present.graphs import PAPER_NODE, neighbourhood_html
from tests.builders.pdfgen import write_pdf
from tests.cli import invoke

HEADER = "Journal of Synthetic Studies 2021"
RECALL = (
    "Students who slept more than eight hours recalled 23% more word pairs than those who "
    "slept less than six hours."
)
CANOPY = (
    "Segments with more than 30% canopy cover were 4.1 degrees cooler at noon than segments "
    "without trees."
)


def _pages(*bodies: list[str]) -> list[list[str]]:
    return [[HEADER, *body, f"Page {n}"] for n, body in enumerate(bodies, start=1)]


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two PDFs as Zotero names them: running headers, page labels from 101."""
    root = tmp_path_factory.mktemp("library")
    folder = root / "papers"
    write_pdf(
        folder / "Okafor et al. - 2021 - Sleep and memory consolidation.pdf",
        _pages(
            ["Sleep and memory consolidation in adolescents", "We studied 240 students."],
            ["Memory consolidation depends on slow-wave sleep in many species."],
            [RECALL[:90], RECALL[90:], "The effect did not depend on caffeine intake."],
        ),
        labels=[(0, "D", 101)],
    )
    write_pdf(
        folder / "De Bock - 2019 - Urban heat islands.pdf",
        _pages(
            ["Urban heat islands and tree cover"],
            ["We measured 1,200 street segments with thermal imaging during heat waves."],
            [CANOPY, "Night-time differences were smaller and not significant."],
        ),
    )
    done = invoke("sources", "add", folder, "--workspace", root / "ws")
    assert done.code == 0, done.err
    return root / "ws"


def answer(root: Path, question: str) -> NavResult:
    opened = open_workspace(root)
    try:
        return ask(opened, question)
    finally:
        opened.close()


def test_a_folder_of_pdfs_is_a_workspace_of_passages(papers: Path) -> None:
    workspace = load_workspace(papers)
    passages = [n for n in workspace.notes.values() if n.source == PASSAGE_BOX]
    assert {n.citekey for n in passages} == {"okafor2021sleep", "debock2019urban"}
    assert not any(HEADER in n.body or "Page 2" in n.body for n in passages)


@pytest.mark.parametrize(
    ("question", "paper", "page", "said"),
    [
        (
            "Did students who slept more than eight hours recall more word pairs?",
            "okafor2021sleep",
            3,
            RECALL,
        ),
        (
            "Were segments with more canopy cover cooler at noon?",
            "debock2019urban",
            3,
            CANOPY,
        ),
    ],
    ids=["sleep-results-page", "canopy-results-page"],
)
def test_a_question_stated_in_a_paper_s_body_answers_with_its_sentence_and_page(
    papers: Path, question: str, paper: str, page: int, said: str
) -> None:
    result = answer(papers, question)
    assert result.decision is not None
    assert result.label == "ANSWER", result.decision.detail
    (cited,) = result.decision.cited
    assert cited.startswith(f"zk:{PASSAGE_BOX}:{paper}~p{page}")
    assert " ".join(result.prose.split()) == said
    check = result.decision.verifier_results[cited]
    assert (check.method, check.page) == ("exact", page)


@pytest.mark.parametrize(
    "question",
    [
        "Does caffeine intake improve recall in adolescents?",
        "Do street trees reduce asthma rates in dense neighbourhoods?",
        "Did students who slept more than eight hours recall fewer word pairs?",
    ],
    ids=["caffeine-not-stated", "asthma-not-studied", "direction-flipped"],
)
def test_questions_the_papers_do_not_state_never_answer_green(papers: Path, question: str) -> None:
    result = answer(papers, question)
    assert result.label != "ANSWER" or "fewer" not in result.prose


def test_the_printed_page_label_is_cited(papers: Path) -> None:
    result = answer(papers, "Did students who slept more than eight hours recall more word pairs?")
    assert result.decision is not None
    (cited,) = result.decision.cited
    assert (
        result.neighbourhood.nodes[cited].title
        == "Sleep and memory consolidation (okafor2021sleep, p. 103)"
    )


def test_the_sentence_offsets_are_kept_and_a_forged_cache_injects_nothing(papers: Path) -> None:
    answer(papers, "Were segments with more canopy cover cooler at noon?")
    cache = passages_path(papers)
    data = json.loads(cache.read_text("utf-8"))
    assert set(data["sources"]) == {"okafor2021sleep", "debock2019urban"}
    entry = data["sources"]["debock2019urban"]
    # Offsets cutting across sentences, and a layout that no longer fits them.
    entry["spans"] = pack(np.array([[0, 40, 1], [5, 120, 3]]))
    cache.write_text(json.dumps(data), "utf-8")
    text = (papers / "sources" / "debock2019urban.txt").read_text("utf-8")
    for note in load_workspace(papers).notes.values():
        if note.citekey == "debock2019urban":
            assert all(q.body in text for q in note.quotes)
    result = answer(papers, "Were segments with more canopy cover cooler at noon?")
    assert result.label != "ANSWER" or " ".join(result.prose.split()) == CANOPY


def test_a_source_its_notes_quote_in_full_gives_no_passage(tmp_path: Path) -> None:
    box = tmp_path / ".zettelkasten" / "lab"
    box.mkdir(parents=True)
    (tmp_path / "sources").mkdir()
    sentences = ["Aspirin lowered the risk.", "The effect held in women."]
    (tmp_path / "sources" / "a1.txt").write_text("A title\n" + " ".join(sentences), "utf-8")
    quotes = "".join(f'  - {{id: q{i}, body: "{s}", page: 1}}\n' for i, s in enumerate(sentences))
    (box / "a1.md").write_text(
        f"---\nid: a1\ntype: finding\ntitle: A title\nsource: a1\nquotes:\n{quotes}---\nBody.\n",
        "utf-8",
    )
    assert not [n for n in load_workspace(tmp_path).notes.values() if n.source == PASSAGE_BOX]


def test_an_abstract_s_sentences_found_in_its_paper_cite_the_paper(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    said = "Extended sleep improved recall in every group we studied."
    (tmp_path / "sources" / "ok21.txt").write_text(f"Intro.\f{said} More follows.", "utf-8")
    abstract = f"{said} Only the abstract says that naps also helped."
    (tmp_path / "sources" / "ok21.abstract.txt").write_text(abstract, "utf-8")
    notes = load_workspace(tmp_path).notes.values()
    from_abstract = [q.body for n in notes if n.citekey == "ok21.abstract" for q in n.quotes]
    assert from_abstract == ["Only the abstract says that naps also helped."]


def test_a_passage_knows_its_paper_and_printed_page(papers: Path) -> None:
    workspace = load_workspace(papers)
    (passage,) = [
        n
        for n in workspace.notes.values()
        if n.source == PASSAGE_BOX and n.citekey == "okafor2021sleep" and RECALL[:40] in n.body
    ]
    place = passage_place(passage.address, passage.title)
    assert place == PassagePlace("okafor2021sleep", "Sleep and memory consolidation", "p. 103")
    assert passage_place("zk:finance:z-1", "A note") is None


def test_the_walk_draws_each_paper_above_its_passages_by_page(papers: Path) -> None:
    result = answer(papers, "Did students who slept more than eight hours recall more word pairs?")
    page = neighbourhood_html(result, len(result.steps) - 1)
    assert f'"id": "{PAPER_NODE}okafor2021sleep"' in page
    # The passage hangs under its paper's box, labelled by its printed page.
    assert re.search(r'"label": "[^"]*p\. 103"', page)


def _passage_quotes(root: Path, key: str) -> list[str]:
    opened = open_workspace(root)
    try:
        notes = opened.workspace.notes.values()
        return [
            q.body for n in notes if n.source == PASSAGE_BOX and n.citekey == key for q in n.quotes
        ]
    finally:
        opened.close()


def test_which_sentences_a_note_already_quotes_is_kept_and_follows_the_notes(
    tmp_path: Path,
) -> None:
    (tmp_path / "sources").mkdir()
    sentences = ["Aspirin lowered the risk of stroke.", "The effect held in women.", "Not in men."]
    (tmp_path / "sources" / "a1.txt").write_text("A title\n\n" + " ".join(sentences), "utf-8")
    assert _passage_quotes(tmp_path, "a1") == sentences
    entry = json.loads(passages_path(tmp_path).read_text("utf-8"))["sources"]["a1"]
    assert unpack(entry["layout"][1]).tolist() == [0, 1, 2]  # nothing quoted yet: all kept
    box = tmp_path / ".zettelkasten" / "lab"
    box.mkdir(parents=True)
    (box / "a1.md").write_text(
        "---\nid: a1\ntype: finding\ntitle: A title\nsource: a1\nquotes:\n"
        f'  - {{id: q0, body: "{sentences[1]}", page: 1}}\n---\nBody.\n',
        "utf-8",
    )
    assert _passage_quotes(tmp_path, "a1") == [sentences[0], sentences[2]]
    data = json.loads(passages_path(tmp_path).read_text("utf-8"))
    digest, kept, pages, counts = data["sources"]["a1"]["layout"]
    assert unpack(kept).tolist() == [0, 2] and unpack(counts).tolist() == [2]
    # A forged list of kept sentences may only pick among the source's own sentences.
    forged = pack(np.array([0, 1, 2, 99]))
    data["sources"]["a1"]["layout"] = [digest, forged, pages, pack(np.array([4]))]
    passages_path(tmp_path).write_text(json.dumps(data), "utf-8")
    assert _passage_quotes(tmp_path, "a1") == [sentences[0], sentences[2]]


def test_whether_a_source_says_more_than_its_notes_is_kept_and_follows_the_notes(
    tmp_path: Path,
) -> None:
    (tmp_path / "sources").mkdir()
    sentences = ["Aspirin lowered the risk of stroke.", "The effect held in women."]
    (tmp_path / "sources" / "a1.txt").write_text(" ".join(sentences), "utf-8")
    box = tmp_path / ".zettelkasten" / "lab"
    box.mkdir(parents=True)

    def quote(*bodies: str) -> None:
        lines = "".join(f'  - {{id: q{i}, body: "{b}", page: 1}}\n' for i, b in enumerate(bodies))
        (box / "a1.md").write_text(
            f"---\nid: a1\ntype: finding\ntitle: A trial\nsource: a1\nquotes:\n{lines}---\nB.\n",
            "utf-8",
        )

    quote(*sentences)  # quoted in full: no passage, and that is remembered without a split
    assert _passage_quotes(tmp_path, "a1") == []
    entry = json.loads(passages_path(tmp_path).read_text("utf-8"))["sources"]["a1"]
    assert entry["beyond"][1] is False and "spans" not in entry
    assert _passage_quotes(tmp_path, "a1") == []
    quote(sentences[0])  # the notes change: the look is taken again
    assert _passage_quotes(tmp_path, "a1") == [sentences[1]]
    entry = json.loads(passages_path(tmp_path).read_text("utf-8"))["sources"]["a1"]
    assert entry["beyond"][1] is True and entry["spans"]
