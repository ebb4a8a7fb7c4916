"""The index is a cache, never evidence: a tampered, stale or damaged row costs recall only."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from engine.api import ask, open_workspace
from engine.workspace.bm25 import BAG_DTYPE
from engine.workspace.caches import index_path
from engine.workspace.index import Index
from engine.workspace.stores import load_workspace
from tests.cli import invoke

# Abstains on momentum-lab: nothing there mentions Japan.
JAPAN = "Do past winners keep beating past losers over 3 to 12 month holding periods in Japan?"
WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)


def inject(db: Path, term: str) -> None:
    """Add `term` to the vocabulary and to every note's row, as a hostile writer would."""
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        term_id = raw.execute("SELECT max(id) + 1 FROM terms").fetchone()[0]
        raw.execute("INSERT INTO terms (id, term, seal) VALUES (?, ?, x'00')", (term_id, term))
        extra = np.array([(term_id, 0, 1)], dtype=BAG_DTYPE).tobytes()
        for doc_id, bag in raw.execute("SELECT id, bag FROM docs").fetchall():
            raw.execute("UPDATE docs SET bag = ? WHERE id = ?", (bag + extra, doc_id))


def reset_times(root: Path) -> None:
    """Give every file one old modification time, so no stat-based check sees a change."""
    for path in root.rglob("*"):
        if path.is_file() and ".synapse" not in path.parts:
            os.utime(path, ns=(1_000_000_000, 1_000_000_000))


def label(root: Path, question: str) -> str:
    opened = open_workspace(root)
    try:
        return ask(opened, question).label
    finally:
        opened.close()


def test_the_tampered_question_abstains_untouched(lab_path: Path) -> None:
    assert label(lab_path, JAPAN) == "ABSTAIN"
    assert label(lab_path, WINNERS) == "ANSWER"


def test_a_term_injected_into_every_row_never_grants_an_answer(lab_path: Path) -> None:
    label(lab_path, WINNERS)
    inject(index_path(lab_path), "japan")
    reset_times(lab_path)
    assert label(lab_path, JAPAN) == "ABSTAIN"
    assert label(lab_path, WINNERS) == "ANSWER"


def test_rows_tampered_while_the_workspace_is_open_are_left_out(lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    try:
        assert ask(opened, WINNERS).label == "ANSWER"
        inject(index_path(lab_path), "japan")  # another process writes behind its back
        assert ask(opened, JAPAN).label == "ABSTAIN"
        assert opened.index.rarity(["japan"])["japan"] > 2.0  # no sealed row holds it
    finally:
        opened.close()


def test_index_check_names_and_repairs_altered_rows(lab_path: Path) -> None:
    label(lab_path, WINNERS)
    db = index_path(lab_path)
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE docs SET title = 'forged' WHERE address = 'zk:finance:z-mom-01'")
    out = invoke("index", "--workspace", lab_path, "--check")
    assert out.code == 1
    assert out.json()["check"]["altered"] == ["zk:finance:z-mom-01"]
    again = invoke("index", "--workspace", lab_path, "--check")
    assert (again.code, again.json()["check"]["ok"]) == (0, True)


def test_a_note_edited_with_its_time_reset_is_indexed_again(lab_path: Path) -> None:
    note = lab_path / ".zettelkasten/finance/z-mom-01.md"
    label(lab_path, WINNERS)
    info = note.stat()
    text = note.read_text(encoding="utf-8")
    note.write_text(text.replace("significant", "xylophonic"), encoding="utf-8")
    os.utime(note, ns=(info.st_atime_ns, info.st_mtime_ns))
    with Index.open(lab_path) as index:
        stats = index.update(load_workspace(lab_path))
        assert stats.changed == 1
        assert [h.address for h in index.search("xylophonic")] == ["zk:finance:z-mom-01"]


def test_dropped_tables_under_a_current_schema_version_are_rebuilt(lab_path: Path) -> None:
    label(lab_path, WINNERS)
    with contextlib.closing(sqlite3.connect(index_path(lab_path))) as raw, raw:
        raw.execute("DROP TABLE docs")
        raw.execute("DROP TABLE terms")
    assert label(lab_path, WINNERS) == "ANSWER"


def test_corrupted_term_rows_make_the_index_rebuild_rather_than_abstain(lab_path: Path) -> None:
    label(lab_path, WINNERS)
    with contextlib.closing(sqlite3.connect(index_path(lab_path))) as raw, raw:
        raw.execute("UPDATE terms SET term = term || 'q'")
    with Index.open(lab_path) as index:
        index.update(load_workspace(lab_path))
        assert index.rebuilt
        assert index.search("winners")
    assert label(lab_path, WINNERS) == "ANSWER"


@contextlib.contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """`path` made impossible to write for this process: by mode, or immutable as root."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    subprocess.run(["chattr", "+i", str(path)], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_index_file_that_cannot_be_written_falls_back_to_memory(lab_path: Path) -> None:
    invoke("index", "--workspace", lab_path)
    (lab_path / ".zettelkasten/finance/z-mom-01.md").write_text(
        (lab_path / ".zettelkasten/finance/z-mom-01.md").read_text("utf-8") + "\nMore.\n", "utf-8"
    )
    with unwritable(index_path(lab_path)):
        out = invoke("index", "--workspace", lab_path)
        assert (out.code, "index kept in memory" in out.err) == (0, True)
        asked = invoke("ask", WINNERS, "--workspace", lab_path)
        assert (asked.code, asked.json()["decision"]["label"]) == (0, "ANSWER")


@pytest.mark.parametrize("notes", [1, 2], ids=["one-note", "two-notes"])
def test_a_tiny_workspace_answers_a_verbatim_question(tmp_path: Path, notes: int) -> None:
    sentence = "Buying past winners and selling past losers generated significant abnormal returns."
    box = tmp_path / ".zettelkasten" / "lab"
    box.mkdir(parents=True)
    (tmp_path / "sources").mkdir()
    source = f"Intro. {sentence} Value stocks earned a premium in most markets. More."
    (tmp_path / "sources" / "jt.txt").write_text(source, "utf-8")
    other = "Value stocks earned a premium in most markets."
    for n, said in enumerate([sentence, other][:notes]):
        (box / f"n{n}.md").write_text(
            f"---\nid: n{n}\ntype: finding\ntitle: Note {n}\nsource: jt\n"
            f'quotes:\n  - {{id: q1, body: "{said}", page: 1}}\n---\n{said}\n',
            encoding="utf-8",
        )
    assert label(tmp_path, sentence) == "ANSWER"
