"""The library: papers by reader's name, PDFs served from the workspace, imports that report."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine import (
    ConfigError,
    ProblemKind,
    bibtex,
    dismiss_import,
    holdings,
    import_pdf_folder,
    import_zotero_library,
    open_imports,
    open_workspace,
    paper_pdf,
    read_library,
    search_library,
)
from engine.workspace.library import forget as forget_sidecars
from tests.builders.pdfgen import write_pdf
from tests.builders.zotero_library import Paper as ZoteroPaper
from tests.builders.zotero_library import build_library
from tests.workspaces import user_bytes

OKAFOR = "Okafor et al. - 2021 - Sleep and memory consolidation.pdf"
PAGES = [
    ["Sleep and memory consolidation in adolescents", "We studied 240 students."],
    ["Memory consolidation depends on slow-wave sleep in many species."],
    ["Students who slept longer recalled 23% more word pairs."],
]


def papers_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    write_pdf(folder / OKAFOR, PAGES)
    write_pdf(folder / "scan.pdf", [None, None])  # pictures of pages, no text layer
    return folder


def test_an_import_records_a_scan_until_dismissed_and_changes_no_user_file(tmp_path: Path) -> None:
    folder = papers_folder(tmp_path)
    before = user_bytes(folder)
    record = import_pdf_folder(folder, tmp_path / "ws")
    assert user_bytes(folder) == before
    assert (record.papers, record.pages) == (1, 3)
    [problem] = record.problems
    assert (problem.subject, problem.kind) == ("scan.pdf", ProblemKind.NO_TEXT_LAYER)
    assert [r.id for r in open_imports(tmp_path / "ws")] == [record.id]
    assert dismiss_import(tmp_path / "ws", record.id)
    assert open_imports(tmp_path / "ws") == ()


def test_the_library_names_each_paper_and_serves_its_pdf_from_the_workspace(tmp_path: Path) -> None:
    folder = papers_folder(tmp_path)
    import_pdf_folder(folder, tmp_path / "ws")
    opened = open_workspace(tmp_path / "ws")
    papers = read_library(opened.workspace)
    by_name = {p.name: p for p in papers}
    okafor = by_name["Okafor et al. 2021"]
    assert (okafor.title, okafor.year, okafor.pages) == ("Sleep and memory consolidation", 2021, 3)
    assert okafor.passages >= 3 and okafor.imported is not None
    assert paper_pdf(opened.root, okafor) == (folder / OKAFOR).read_bytes()
    scan = by_name["scan"]
    assert [p.kind for p in scan.problems] == [ProblemKind.NO_TEXT_LAYER]
    assert paper_pdf(opened.root, scan) is None
    held = holdings(opened.workspace, papers)
    assert (held.papers, held.pages) == (1, 3)
    assert "@article{okafor2021sleep," in bibtex(papers) and "scan" not in bibtex(papers)
    found = search_library(opened.workspace, opened.index, papers, "slow-wave sleep")
    assert [(h.name, h.where) for h in found.passages][:1] == [("Okafor et al. 2021", "p. 2")]
    assert all(":" not in h.name for h in found.passages)
    opened.close()


def test_a_pdf_reached_through_a_link_is_never_served(tmp_path: Path) -> None:
    outside = write_pdf(tmp_path / "outside.pdf", PAGES)
    import_pdf_folder(papers_folder(tmp_path), tmp_path / "ws")
    copy = tmp_path / "ws/sources/okafor2021sleep.pdf"
    copy.unlink()
    copy.symlink_to(outside)
    opened = open_workspace(tmp_path / "ws")
    okafor = next(p for p in read_library(opened.workspace) if p.citekey == "okafor2021sleep")
    assert paper_pdf(opened.root, okafor) is None
    opened.close()


@pytest.mark.parametrize("library", ["missing", "corrupt"], ids=["no-library", "corrupt-db"])
def test_a_failed_zotero_import_leaves_nothing_behind(tmp_path: Path, library: str) -> None:
    data = tmp_path / "Zotero"
    if library == "corrupt":
        build_library(data, [ZoteroPaper("AAAA1111", "A title", [("Smith", "Ann")])])
        (data / "zotero.sqlite").write_bytes(b"not a database" * 100)
    with pytest.raises(ConfigError):
        import_zotero_library(data, tmp_path / "ws")
    assert not (tmp_path / "ws").exists()


def test_an_empty_folder_is_no_import(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="no PDF"):
        import_pdf_folder(tmp_path / "empty", tmp_path / "ws")
    assert not (tmp_path / "ws").exists()


@pytest.mark.parametrize(
    ("change", "pages"),
    [({"pages": 9}, 9), ({"pages": None}, 3)],
    ids=["sidecar-pages-changed", "sidecar-pages-dropped-last-passage-page"],
)
def test_a_changed_sidecar_shows_at_the_next_read(
    tmp_path: Path, change: dict[str, Any], pages: int
) -> None:
    import_pdf_folder(papers_folder(tmp_path), tmp_path / "ws")
    opened = open_workspace(tmp_path / "ws")
    okafor = next(p for p in read_library(opened.workspace) if p.citekey == "okafor2021sleep")
    assert okafor.pages == 3 and okafor.pdf == "sources/okafor2021sleep.pdf"
    sidecar = tmp_path / "ws/sources/okafor2021sleep.pdf.json"
    side = json.loads(sidecar.read_text(encoding="utf-8")) | change
    sidecar.write_text(json.dumps(side, indent=1) + "\n", encoding="utf-8")
    again = next(p for p in read_library(opened.workspace) if p.citekey == "okafor2021sleep")
    assert (again.pages, again.passages, again.name) == (pages, okafor.passages, okafor.name)
    opened.close()


def test_forget_reads_the_sidecars_again_as_a_new_process_would(tmp_path: Path) -> None:
    import_pdf_folder(papers_folder(tmp_path), tmp_path / "ws")
    opened = open_workspace(tmp_path / "ws")
    read_library(opened.workspace)
    # Same size and time stamp, so only a process that forgot what it read sees the change.
    sidecar = tmp_path / "ws/sources/okafor2021sleep.pdf.json"
    before = sidecar.stat()
    sidecar.write_text(sidecar.read_text(encoding="utf-8").replace('"pages": 3', '"pages": 8'))
    os.utime(sidecar, ns=(before.st_atime_ns, before.st_mtime_ns))
    forget_sidecars()
    okafor = next(p for p in read_library(opened.workspace) if p.citekey == "okafor2021sleep")
    assert okafor.pages == 8
    opened.close()


def test_no_pdf_is_found_through_a_sources_folder_that_is_a_link(tmp_path: Path) -> None:
    import_pdf_folder(papers_folder(tmp_path), tmp_path / "ws")
    (tmp_path / "ws/sources").rename(tmp_path / "elsewhere")
    (tmp_path / "ws/sources").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "ws/.zettelkasten/box").mkdir(parents=True)  # a workspace without sources/
    opened = open_workspace(tmp_path / "ws")
    papers = read_library(opened.workspace)
    assert "okafor2021sleep" in {p.citekey for p in papers}
    assert [p.pdf for p in papers if p.pdf] == []
    opened.close()
