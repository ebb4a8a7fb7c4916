"""A library opens without making its passages: they are named from the cached layout and
made a source at a time when read, the same notes a full build makes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.api import ask, open_workspace
from engine.workspace.caches import passages_path
from engine.workspace.note_map import NoteMap
from engine.workspace.passage_cache import PassageCache, pack, unpack
from engine.workspace.passage_notes import PASSAGE_BOX
from engine.workspace.passages import load_passages
from engine.workspace.stores import load_workspace

PAGE = (
    "Extended sleep improved recall in every group we studied. The effect held in women. "
    "It held in men as well. Naps helped less than a full night did.\n\n"
    "Students who slept longer remembered more word pairs. Recall fell after one short night."
)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    sources = tmp_path / "sources"
    sources.mkdir()
    for n in range(4):
        pages = [f"Paper {n} on sleep\n\n{PAGE}", PAGE.replace("sleep", f"rest{n}"), PAGE]
        (sources / f"p{n}.txt").write_text("\f".join(pages), "utf-8")
    box = tmp_path / ".zettelkasten" / "lab"
    box.mkdir(parents=True)
    (box / "n1.md").write_text(
        "---\nid: n1\ntype: finding\ntitle: Sleep and recall\nsource: p1\nquotes:\n"
        '  - {id: q1, body: "The effect held in women.", page: 1}\n---\nWomen too.\n',
        "utf-8",
    )
    return tmp_path


def _fresh(root: Path) -> NoteMap:
    """The notes of `root` made from nothing cached."""
    written = load_workspace(root).notes.written
    return NoteMap(written, load_passages(root, written, PassageCache()))


def test_opening_makes_no_passage_until_one_is_read(library: Path) -> None:
    open_workspace(library).close()  # the first open lays the passages out and keeps it
    opened = open_workspace(library)
    try:
        passages = opened.workspace.notes.passages
        assert len(passages) > 8 and passages.made() == 0
        first = next(iter(passages))
        assert passages[first].source == PASSAGE_BOX and passages.made() == 1
    finally:
        opened.close()


def test_notes_made_from_the_cache_are_those_a_full_build_makes(library: Path) -> None:
    open_workspace(library).close()
    cached = load_workspace(library).notes
    fresh = _fresh(library)
    assert list(cached) == list(fresh) == sorted(fresh)
    assert [cached[a] for a in cached] == [fresh[a] for a in fresh]
    assert all(n.stamp == fresh[n.address].stamp for n in cached.values())


def test_every_note_is_stamped_without_making_a_passage(library: Path) -> None:
    notes = load_workspace(library).notes
    rows = list(notes.stamped())
    assert notes.passages.made() == 0
    assert rows == [(n.address, n.stamp, n.path) for n in notes.values()]
    assert set(notes.written) == {"zk:lab:n1"} and len(notes) == len(rows)


def test_a_sentence_a_note_quotes_is_left_out_of_its_passages(library: Path) -> None:
    notes = load_workspace(library).notes
    said = [q.body for n in notes.passages.values() if n.citekey == "p1" for q in n.quotes]
    others = [q.body for n in notes.passages.values() if n.citekey == "p2" for q in n.quotes]
    assert "The effect held in women." not in said
    assert "The effect held in women." in others


@pytest.mark.parametrize(
    "forge",
    [
        lambda layout: [layout[0], layout[1], layout[2], pack(np.array([99]))],
        lambda layout: [layout[0], pack(np.array([0, 1, 2, 500])), layout[2], layout[3]],
        lambda layout: [
            layout[0],
            layout[1],
            pack(np.array([7] * len(unpack(layout[2])))),
            layout[3],
        ],
        lambda layout: [layout[0], "not base64!", layout[2], layout[3]],
    ],
    ids=[
        "counts-beyond-the-kept",
        "kept-beyond-the-sentences",
        "pages-not-the-sentences",
        "garbage",
    ],
)
def test_a_layout_that_does_not_fit_its_sentences_is_laid_out_again(
    library: Path, forge: object
) -> None:
    open_workspace(library).close()
    path = passages_path(library)
    data = json.loads(path.read_text("utf-8"))
    entry = data["sources"]["p0"]
    entry["layout"] = forge(entry["layout"])  # type: ignore[operator]
    path.write_text(json.dumps(data), "utf-8")
    notes = load_workspace(library).notes
    fresh = _fresh(library)
    assert list(notes) == list(fresh)
    assert [notes[a] for a in notes] == [fresh[a] for a in fresh]


def test_a_written_note_in_the_passages_box_is_refused(library: Path) -> None:
    box = library / ".zettelkasten" / PASSAGE_BOX
    box.mkdir()
    (box / "p0~p1~1.md").write_text("---\nid: p0~p1~1\ntype: finding\n---\nForged.\n", "utf-8")
    workspace = load_workspace(library)
    assert "Forged." not in workspace.notes[f"zk:{PASSAGE_BOX}:p0~p1~1"].body
    assert any(PASSAGE_BOX in problem.problem for problem in workspace.report)


def test_a_passage_read_later_still_answers(library: Path) -> None:
    for n in range(8):  # papers on other things, which the question never reads
        text = f"Mangrove stand {n} stored carbon in its soil. Tides carried silt{n} inland."
        (library / "sources" / f"m{n}.txt").write_text(text, "utf-8")
    open_workspace(library).close()
    opened = open_workspace(library)
    try:
        result = ask(opened, "Did extended rest2 improve recall in every group we studied?")
        assert result.label == "ANSWER"
        assert 0 < opened.workspace.notes.passages.made() <= 4
    finally:
        opened.close()
