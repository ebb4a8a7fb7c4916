"""`sources add` and `import zotero` report likely duplicates (the same DOI, title and year, or
text) and keep every paper."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.importers.zotero import import_zotero
from engine.workspace.layout import SOURCES_REPORT
from tests.builders.pdfgen import write_pdf
from tests.builders.zotero_library import Paper, build_library
from tests.cli import Result, invoke

TRIAL = [["Statins in the liver"], ["Atorvastatin reduced hepatic fibrosis by 40% in adults."]]
OTHER = [["Sleep and memory"], ["Short sleep impaired recall in students over two weeks."]]
AUTHORS = [("Okafor", "Ada")]


def _add(workspace: Path, *paths: Path) -> Result:
    return invoke("sources", "add", *map(str, paths), "--workspace", str(workspace))


def test_the_same_pdf_under_two_names_is_reported_and_both_are_kept(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    write_pdf(folder / "okafor2019.pdf", TRIAL)
    write_pdf(folder / "okafor2019-copy.pdf", TRIAL)
    write_pdf(folder / "lee2020.pdf", OTHER)
    done = _add(tmp_path / "ws", folder)
    assert done.code == 0, done.err
    said = json.loads(done.out)["duplicates"]
    assert said == [{"papers": ["okafor2019", "okafor2019-copy"], "same": ["text"]}]
    assert "likely duplicates (same text): okafor2019, okafor2019-copy" in done.err
    report = json.loads((tmp_path / "ws" / SOURCES_REPORT).read_text())
    assert report["duplicates"] == said
    assert {p.name for p in (tmp_path / "ws" / "sources").glob("*.txt")} == {
        "okafor2019.txt",
        "okafor2019-copy.txt",
        "lee2020.txt",
    }


def test_a_pdf_whose_text_a_source_file_already_holds_is_reported(tmp_path: Path) -> None:
    first = _add(tmp_path / "ws", write_pdf(tmp_path / "okafor2019.pdf", TRIAL))
    assert json.loads(first.out)["duplicates"] == []
    text = (tmp_path / "ws" / "sources" / "okafor2019.txt").read_text("utf-8")
    # The same text by hand, spaced otherwise.
    (tmp_path / "ws" / "sources" / "preprint.txt").write_text(" \n".join(text.split()), "utf-8")
    again = _add(tmp_path / "ws", tmp_path / "okafor2019.pdf")
    assert json.loads(again.out)["duplicates"] == [
        {"papers": ["okafor2019", "preprint"], "same": ["text"]}
    ]


@pytest.mark.parametrize(
    "name, title, reported",
    [
        ("Okafor 2019 published", "Statins in the LIVER.", True),
        ("Okafor 2021 published", "Statins in the liver", False),
        ("Okafor 2019 published", "Statins in the kidney", False),
    ],
    ids=["same-title-and-year", "another-year", "another-title"],
)
def test_pdfs_with_one_title_and_year_are_reported(
    tmp_path: Path, name: str, title: str, reported: bool
) -> None:
    first = write_pdf(tmp_path / "Okafor 2019 preprint.pdf", TRIAL, title="Statins in the liver")
    # The published version's text differs from the preprint's; only its title and year agree.
    second = write_pdf(tmp_path / f"{name}.pdf", [*TRIAL, ["Erratum follows."]], title=title)
    done = _add(tmp_path / "ws", first, second)
    assert done.code == 0, done.err
    keys = sorted(["Okafor-2019-preprint", name.replace(" ", "-")])
    expected = [{"papers": keys, "same": ["title-year"]}] if reported else []
    assert json.loads(done.out)["duplicates"] == expected


def test_pages_without_text_are_no_duplicates(tmp_path: Path) -> None:
    done = _add(
        tmp_path / "ws",
        write_pdf(tmp_path / "a.pdf", [None]),
        write_pdf(tmp_path / "b.pdf", [None, None]),
    )
    assert json.loads(done.out)["duplicates"] == []


def _library(tmp_path: Path) -> Path:
    papers = [
        Paper("ITEM0001", "Statins in the liver", AUTHORS, "2019", pages=TRIAL,
              fields={"DOI": "10.1000/Liver.1"}),
        # The published version: its DOI written as a link, its PDF with a page more.
        Paper("ITEM0002", "Statins in the liver: final report", AUTHORS, "2020",
              pages=[*TRIAL, ["Erratum follows."]], fields={"DOI": "https://doi.org/10.1000/liver.1"}),
        # The same PDF attached twice under another title.
        Paper("ITEM0003", "Liver statins (copy)", AUTHORS, "2019", pages=TRIAL),
        Paper("ITEM0004", "Statins in the Liver", [("Lee", "Min")], "2019", pages=OTHER),
        # One title, another year: a sequel, not a duplicate.
        Paper("ITEM0005", "Sleep and memory", AUTHORS, "2021", pages=OTHER[1:]),
        Paper("ITEM0006", "Sleep and memory", AUTHORS, "2022"),
    ]  # fmt: skip
    return build_library(tmp_path / "Zotero", papers)


def test_import_zotero_reports_each_kind_of_duplicate_and_imports_every_item(
    tmp_path: Path,
) -> None:
    report = import_zotero(_library(tmp_path), tmp_path / "ws")
    assert report.items == 6 and report.notes_written == 6
    found = {d.keys: [b.value for b in d.bases] for d in report.duplicates}
    assert found == {
        ("okafor2019statins", "okafor2020statins"): ["doi"],
        ("lee2019statins", "okafor2019statins"): ["title-year"],
        ("okafor2019liver", "okafor2019statins"): ["text"],
    }
    assert report.to_dict()["duplicates"][0] == {
        "papers": ["lee2019statins", "okafor2019statins"],
        "same": ["title-year"],
    }


def test_import_zotero_prints_the_duplicates(tmp_path: Path) -> None:
    done = invoke(
        "import", "zotero", "--data-dir", _library(tmp_path), "--workspace", tmp_path / "ws"
    )
    assert done.code == 0, done.err
    assert "likely duplicates (same DOI): okafor2019statins, okafor2020statins" in done.err
    assert len(json.loads(done.out)["duplicates"]) == 3
