"""No importer writes through a link: every user file keeps its bytes, whatever is planted."""

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.builders.pdfgen import write_pdf
from tests.builders.zotero_library import Mark, Paper, build_library
from tests.cli import invoke
from tests.workspaces import make_workspace, user_bytes

PAGES = [["Patients given the drug had fewer relapses than those given placebo."]]
NOTE = "---\nid: d1\ntype: decision\ntitle: Keep\n---\nOur own decision, typed by hand.\n"
WINNERS = "Buying past winners and selling past losers generated significant abnormal returns."


def _workspace(tmp_path: Path) -> Path:
    root = make_workspace(tmp_path, "empty", name="ws")
    (root / ".memory").mkdir()
    (root / ".memory/d1.md").write_text(NOTE)
    (root / "sources").mkdir()
    return root


def _symlink_text(root: Path) -> None:
    (root / "sources/p.txt").symlink_to("../.memory/d1.md")
    # A sidecar with a stale hash, so the text looks due for an update.
    (root / "sources/p.pdf.json").write_text('{"sha256": "0", "text_bytes": 1}')


def _hard_link_text(root: Path) -> None:
    os.link(root / ".memory/d1.md", root / "sources/p.txt")


def _linked_folder(root: Path) -> None:
    (root / "sources").rmdir()
    (root / "sources").symlink_to(".memory")


PLANTS = [
    (_symlink_text, "symbolic link"),
    (_hard_link_text, "hard links"),
    (_linked_folder, "link or not a folder"),
]
PLANT_IDS = ["symlinked-text", "hard-linked-text", "symlinked-sources-folder"]


@pytest.mark.parametrize(("plant", "named"), PLANTS, ids=PLANT_IDS)
def test_sources_add_never_writes_through_a_link(
    tmp_path: Path, plant: Callable[[Path], None], named: str
) -> None:
    root = _workspace(tmp_path)
    plant(root)
    before = user_bytes(root)
    pdf = write_pdf(tmp_path / "p.pdf", PAGES)
    code, _, err = invoke("sources", "add", pdf, "--workspace", root)
    assert code == 1 and named in err and "p.pdf" in err, err
    assert user_bytes(root) == before
    assert (root / ".memory/d1.md").read_text() == NOTE


@pytest.mark.parametrize(("plant", "named"), PLANTS, ids=PLANT_IDS)
def test_replace_never_writes_through_a_link_either(
    tmp_path: Path, plant: Callable[[Path], None], named: str
) -> None:
    root = _workspace(tmp_path)
    plant(root)
    before = user_bytes(root)
    pdf = write_pdf(tmp_path / "p.pdf", PAGES)
    code, _, err = invoke("sources", "add", pdf, "--workspace", root, "--replace")
    assert code == 1 and named in err
    assert user_bytes(root) == before


def _zotero_library(tmp_path: Path) -> Path:
    paper = Paper(
        key="K0000001",
        title="Returns to Buying Winners and Selling Losers",
        authors=[("Jegadeesh", "Narasimhan")],
        date="1993",
        pages=[["Introduction."], [WINNERS]],
        marks=[Mark(WINNERS, 1)],
        bbt_key="jt1993",
    )
    return build_library(tmp_path / "Zotero", [paper])


def _note_link(root: Path) -> None:
    (root / ".zettelkasten/zotero").mkdir(parents=True)
    (root / ".zettelkasten/zotero/jt1993.md").symlink_to("../../.memory/d1.md")


def _box_link(root: Path) -> None:
    (root / ".zettelkasten").mkdir()
    (root / ".zettelkasten/zotero").symlink_to("../.memory")
    (root / ".memory/jt1993.md").write_text(NOTE.replace("d1", "jt1993"))


def _highlights_link(root: Path) -> None:
    (root / "sources/jt1993.annotations.json").symlink_to("../.memory/d1.md")


@pytest.mark.parametrize(
    "plant", [_note_link, _box_link, _highlights_link], ids=["note", "box-folder", "highlights"]
)
def test_import_zotero_never_writes_through_a_link(
    tmp_path: Path, plant: Callable[[Path], None]
) -> None:
    library = _zotero_library(tmp_path)
    root = _workspace(tmp_path)
    plant(root)
    before = user_bytes(root)
    code, _, err = invoke("import", "zotero", "--data-dir", library, "--workspace", root)
    assert code == 1 and "link" in err, err
    after = user_bytes(root)
    assert {k: v for k, v in after.items() if k in before} == before
    assert (root / ".memory/d1.md").read_text() == NOTE
    assert not any(name.startswith(".memory/") for name in set(after) - set(before))


def test_import_scifact_never_writes_through_a_link(tmp_path: Path) -> None:
    from tests.test_scifact import CLAIMS, CORPUS

    root = _workspace(tmp_path)
    (root / "README.md").symlink_to(".memory/d1.md")
    before = user_bytes(root)
    code, _, err = invoke(
        "import", "scifact", "--corpus", CORPUS, "--claims", CLAIMS, "--out", root, "--limit", 5
    )
    assert code == 1 and "README.md is a symbolic link" in err, err
    after = user_bytes(root)
    assert {k: v for k, v in after.items() if k in before} == before
