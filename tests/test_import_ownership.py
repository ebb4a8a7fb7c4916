"""An import replaces only what an import wrote: your texts, edits and READMEs stay yours."""

import json
import sqlite3
from pathlib import Path

import pytest

from engine.workspace.stores import load_workspace
from tests.builders.pdfgen import write_pdf
from tests.builders.zotero_library import Paper, build_library
from tests.cli import invoke
from tests.test_scifact import CLAIMS, CORPUS
from tests.workspaces import make_workspace, user_bytes

FIRST = [["Müller found that sleep loss impaired recall in all 40 adults tested."]]
SECOND = [["Muller reports that caffeine had no effect on reaction times in mice."]]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path, "empty", name="ws")


def test_a_citekey_clash_across_runs_keeps_the_first_papers_text(
    tmp_path: Path, workspace: Path
) -> None:
    first = write_pdf(tmp_path / "run1" / "Müller 2020.pdf", FIRST)
    second = write_pdf(tmp_path / "run2" / "Muller 2020.pdf", SECOND)
    assert invoke("sources", "add", first, "--workspace", workspace).code == 0
    before = user_bytes(workspace)
    code, out, err = invoke("sources", "add", second, "--workspace", workspace)
    assert code == 1 and "Muller 2020.pdf: other-origin:" in err and "Müller 2020.pdf" in err
    assert json.loads(out)["counts"]["updated"] == 0
    assert user_bytes(workspace) == before
    assert "sleep loss" in (workspace / "sources/Muller-2020.txt").read_text()
    # The way out is explicit: another key, or --replace.
    code, _, _ = invoke(
        "sources", "add", second, "--citekey", "muller2020b", "--workspace", workspace
    )
    assert code == 0 and "caffeine" in (workspace / "sources/muller2020b.txt").read_text()


def test_a_changed_pdf_of_the_same_name_is_still_updated(tmp_path: Path, workspace: Path) -> None:
    pdf = write_pdf(tmp_path / "Müller 2020.pdf", FIRST)
    assert invoke("sources", "add", pdf, "--workspace", workspace).code == 0
    write_pdf(pdf, SECOND)
    code, out, _ = invoke("sources", "add", pdf, "--workspace", workspace)
    assert code == 0 and json.loads(out)["counts"]["updated"] == 1
    assert "caffeine" in (workspace / "sources/Muller-2020.txt").read_text()


def test_a_source_text_edited_after_import_is_kept(tmp_path: Path, workspace: Path) -> None:
    pdf = write_pdf(tmp_path / "p.pdf", FIRST)
    invoke("sources", "add", pdf, "--workspace", workspace)
    text = workspace / "sources/p.txt"
    text.write_text(text.read_text() + "\nMy correction of the OCR.\n")
    write_pdf(pdf, SECOND)
    before = user_bytes(workspace)
    code, _, err = invoke("sources", "add", pdf, "--workspace", workspace)
    assert code == 1 and "p.pdf: edited:" in err and "--replace" in err
    assert user_bytes(workspace) == before
    code, _, _ = invoke("sources", "add", pdf, "--workspace", workspace, "--replace")
    assert code == 0 and "caffeine" in text.read_text()


def _library(tmp_path: Path, papers: list[Paper]) -> Path:
    return build_library(tmp_path / "Zotero", papers)


PAPER = Paper(key="K0000001", title="The Winner Effect", authors=[("Smith", "A")], date="2001")


def test_reading_notes_added_to_an_imported_note_are_kept(tmp_path: Path, workspace: Path) -> None:
    library = _library(tmp_path, [PAPER])
    assert invoke("import", "zotero", "--data-dir", library, "--workspace", workspace).code == 0
    note = workspace / ".zettelkasten/zotero/smith2001winner.md"
    note.write_text(note.read_text() + "\n## My reading notes\nThe effect is small.\n")
    db = sqlite3.connect(library / "zotero.sqlite")
    db.execute("UPDATE itemDataValues SET value = 'Revised' WHERE value = 'The Winner Effect'")
    db.commit()
    db.close()
    before = user_bytes(workspace)
    code, out, err = invoke("import", "zotero", "--data-dir", library, "--workspace", workspace)
    assert code == 1 and "smith2001winner.md was changed after it was imported" in err
    assert json.loads(out)["problems"] == 1
    assert (
        user_bytes(workspace)[".zettelkasten/zotero/smith2001winner.md"]
        == (before[".zettelkasten/zotero/smith2001winner.md"])
    )
    assert "My reading notes" in note.read_text()


@pytest.mark.parametrize(
    ("bbt_key", "named"),
    [(".hidden2001", "starts with '.'"), ("k" * 300, "over the 200-byte limit")],
    ids=["leading-dot", "300-characters"],
)
def test_an_unusable_better_bibtex_key_is_reported_and_replaced(
    tmp_path: Path, bbt_key: str, named: str
) -> None:
    papers = [
        Paper(
            key="K0000001", title="Odd Key", authors=[("Odd", "O")], date="2001", bbt_key=bbt_key
        ),
        Paper(
            key="K0000002", title="Fine Key", authors=[("Fine", "F")], date="2002", bbt_key="fine"
        ),
    ]
    library = _library(tmp_path, papers)
    root = tmp_path / "ws"
    code, out, err = invoke("import", "zotero", "--data-dir", library, "--workspace", root)
    assert code == 1 and named in err and "filed as odd2001odd instead" in err, err
    assert json.loads(out)["items"] == 2
    names = sorted(p.name for p in (root / ".zettelkasten/zotero").iterdir())
    assert names == ["fine.md", "odd2001odd.md"]
    assert {n.id for n in load_workspace(root).notes.values()} == {"fine", "odd2001odd"}


def test_import_scifact_into_a_folder_of_other_files_asks_for_force(tmp_path: Path) -> None:
    out = tmp_path / "project"
    out.mkdir()
    (out / "README.md").write_text("# My project\n")
    (out / "notes.txt").write_text("mine\n")
    before = user_bytes(out)
    argv = ("import", "scifact", "--corpus", CORPUS, "--claims", CLAIMS, "--limit", 5)
    code, _, err = invoke(*argv, "--out", out)
    assert code == 2 and err.startswith("error:") and "--force" in err and err.count("\n") == 1
    assert user_bytes(out) == before
    code, stdout, err = invoke(*argv, "--out", out, "--force")
    assert code == 1 and "README.md exists and no import wrote it" in err
    assert "1 kept" in stdout
    after = user_bytes(out)
    assert {k: after[k] for k in before} == before
    assert (out / ".zettelkasten/scifact").is_dir()


def test_import_scifact_again_into_its_own_workspace_needs_no_force(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    argv = ("import", "scifact", "--corpus", CORPUS, "--claims", CLAIMS, "--limit", 5, "--out", out)
    assert invoke(*argv).code == 0
    code, stdout, _ = invoke(*argv)
    assert code == 0 and "0 files written" in stdout
