"""The pages' shelf: a workspace's papers read once, again after an import or `forget`."""

from __future__ import annotations

from pathlib import Path

from engine import import_pdf_folder, open_workspace
from tests.builders.pdfgen import write_pdf
from webapp import papers

PDF = "Okafor et al. - 2021 - Sleep and memory consolidation.pdf"


def test_the_shelf_keeps_its_papers_until_forget(tmp_path: Path) -> None:
    pages = [["Memory consolidation depends on slow-wave sleep in many species."]] * 2
    write_pdf(tmp_path / "papers" / PDF, pages)
    import_pdf_folder(tmp_path / "papers", tmp_path / "ws")
    opened = open_workspace(tmp_path / "ws")
    assert [p.pages for p in papers.shelf(opened)[0]] == [2]
    sidecar = tmp_path / "ws/sources/okafor2021sleep.pdf.json"
    sidecar.write_text(sidecar.read_text(encoding="utf-8").replace('"pages": 2', '"pages": 5'))
    assert [p.pages for p in papers.shelf(opened)[0]] == [2]  # no import since: kept
    papers.forget()
    assert [p.pages for p in papers.shelf(opened)[0]] == [5]
    opened.close()
