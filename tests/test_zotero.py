import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.verifiers import verify
from engine.importers.zotero import import_zotero
from engine.workspace.stores import load_workspace
from tests.builders.zotero_library import Mark, Paper, build_library
from tests.cli import invoke

WINNERS = "Buying past winners and selling past losers generated significant abnormal returns."
PAGES = [["Introduction to the study of returns."], [WINNERS, "The profits are not due to risk."]]


def papers() -> list[Paper]:
    return [
        Paper(
            key="K0000001",
            title="Returns to Buying Winners and Selling Losers",
            authors=[("Jegadeesh", "Narasimhan"), ("Titman", "Sheridan")],
            date="1993-03-00 1993-03",
            abstract="We document momentum in stock returns.",
            pages=PAGES,
            marks=[Mark(WINNERS, 1, label="66", color="#ff6666")],
            bbt_key="jegadeesh1993",
        ),
        Paper(key="K0000002", title="The Winner Effect", authors=[("Smith", "A")], date="2001"),
        Paper(
            key="K0000003",
            title="A Winner Effect Revisited",
            authors=[("Smith", "B")],
            date="2001",
            added="2024-02-01 00:00:00",
        ),
        Paper(key="K0000004", title="Trashed", authors=[("Gone", "G")], deleted=True),
        Paper(key="K0000005", title="Scanned", authors=[("Scan", "S")], date="2010", pages=[None]),
        Paper(
            key="K0000006",
            title="Zotero Seven",
            authors=[("World Health Organization", "")],
            date="2020",
            fields={"citationKey": "who2020"},
        ),
    ]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return build_library(tmp_path / "Zotero", papers())


def test_items_become_source_notes_with_highlights_as_quotes(library: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    report = import_zotero(library, root)
    assert report.items == 5 and report.highlights == 1
    workspace = load_workspace(root)
    assert workspace.report == ()
    note = workspace.note("zk:zotero:jegadeesh1993")
    assert note is not None
    assert note.type is not None
    assert note.type.value == "source" and note.title.startswith("Returns to Buying")
    assert note.quotes[0].body == WINNERS and note.quotes[0].page == 2
    highlights = json.loads((root / "sources/jegadeesh1993.annotations.json").read_text())
    assert highlights == [{"text": WINNERS, "page": 2, "color": "#ff6666", "label": "66"}]
    result = verify("quote", {"body": WINNERS, "source": "jegadeesh1993"}, workspace=root)
    assert result.ok and result.page == 2


def test_citekeys_come_from_better_bibtex_zotero_or_a_stable_rule(
    library: Path, tmp_path: Path
) -> None:
    import_zotero(library, tmp_path / "ws")
    names = sorted(p.stem for p in (tmp_path / "ws/.zettelkasten/zotero").iterdir())
    # The later of the two Smith 2001 items gets the suffix; the trashed item is left out.
    assert names == [
        "jegadeesh1993",
        "scan2010scanned",
        "smith2001winner",
        "smith2001winnerb",
        "who2020",
    ]


def test_a_rerun_writes_nothing_and_an_edit_updates_in_place(library: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    import_zotero(library, root)
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}
    again = import_zotero(library, root)
    assert again.notes_written == 0 and again.notes_unchanged == 5
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()} == before
    db = sqlite3.connect(library / "zotero.sqlite")
    db.execute(
        "UPDATE itemDataValues SET value = 'Revised title' WHERE value = 'The Winner Effect'"
    )
    db.commit()
    db.close()
    third = import_zotero(library, root)
    assert third.notes_written == 1
    notes = list((root / ".zettelkasten/zotero").iterdir())
    assert len(notes) == 5
    revised = load_workspace(root).note("zk:zotero:smith2001winner")
    assert revised is not None
    assert revised.title == "Revised title"


def test_pdf_problems_are_reported_and_the_note_still_written(
    library: Path, tmp_path: Path
) -> None:
    report = import_zotero(library, tmp_path / "ws")
    assert report.pdfs == {"added": 1, "failed": 1, "none": 3}
    assert any("no-text-layer" in text for _, text in report.problems)
    assert (tmp_path / "ws/.zettelkasten/zotero/scan2010scanned.md").is_file()
    assert not (tmp_path / "ws/sources/scan2010scanned.txt").exists()


def test_references_name_authors_and_years(library: Path, tmp_path: Path) -> None:
    import_zotero(library, tmp_path / "ws")
    csl = json.loads((tmp_path / "ws/sources/zotero.csl.json").read_text())
    first = next(item for item in csl if item["id"] == "jegadeesh1993")
    assert first["author"][1] == {"family": "Titman", "given": "Sheridan"}
    assert first["issued"] == {"date-parts": [[1993]]}


def test_the_library_is_opened_read_only_from_a_copy(library: Path, tmp_path: Path) -> None:
    database = library / "zotero.sqlite"
    before = database.read_bytes()
    lock = sqlite3.connect(database)
    lock.execute("BEGIN EXCLUSIVE")  # Zotero holds its database like this while it runs
    try:
        assert import_zotero(library, tmp_path / "ws").items == 5
    finally:
        lock.rollback()
        lock.close()
    assert database.read_bytes() == before


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda d: None, "no zotero.sqlite"),
        (lambda d: (d / "zotero.sqlite").write_bytes(b"not sqlite at all" * 100), "not a readable"),
        (lambda d: sqlite3.connect(d / "zotero.sqlite").execute("CREATE TABLE items (x)"), "lacks"),
    ],
    ids=["missing", "not-sqlite", "wrong-schema"],
)
def test_a_bad_data_dir_is_a_one_line_error(
    tmp_path: Path, setup: Callable[[Path], object], message: str
) -> None:
    folder = tmp_path / "Zotero"
    folder.mkdir()
    setup(folder)
    code, _, err = invoke("import", "zotero", "--data-dir", folder, "--workspace", tmp_path / "w")
    assert code == 2 and err.startswith("error:") and message in err


def test_a_new_better_bibtex_key_moves_the_note(library: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    import_zotero(library, root)
    bbt = sqlite3.connect(library / "better-bibtex.sqlite")
    bbt.execute("UPDATE citationkey SET citationKey = 'jt1993'")
    bbt.commit()
    bbt.close()
    report = import_zotero(library, root)
    names = {p.stem for p in (root / ".zettelkasten/zotero").iterdir()}
    assert "jt1993" in names and "jegadeesh1993" not in names and len(names) == 5
    assert any("re-keyed as jt1993" in text for _, text in report.problems)


def test_the_command_prints_a_summary(library: Path, tmp_path: Path) -> None:
    code, out, err = invoke(
        "import", "zotero", "--data-dir", library, "--workspace", tmp_path / "w"
    )
    summary = json.loads(out)
    # The scan without a text layer is skipped and named: exit 1, like `sources add`.
    assert code == 1 and summary["items"] == 5 and summary["problems"] == 1
    assert "scan2010scanned: no-text-layer" in err


def test_a_zotero_5_library_imports_without_highlights(tmp_path: Path) -> None:
    folder = build_library(tmp_path / "Zotero5", papers(), zotero_version=5)
    report = import_zotero(folder, tmp_path / "ws")
    assert report.items == 5 and report.highlights == 0
    assert any("no highlights in this Zotero version" in n for n in report.notices)
    text = (tmp_path / "ws/sources/jegadeesh1993.txt").read_text("utf-8")
    assert WINNERS in text


STORES = {
    "citationkey": "better-bibtex.sqlite (citationkey)",
    "loki-table": "better-bibtex.sqlite (better-bibtex)",
    "lokijs": "betterbibtex-lokijs.sqlite (lokijs)",
    "db-json": "better-bibtex/db.json",
}


@pytest.mark.parametrize(("layout", "store"), STORES.items(), ids=STORES.keys())
def test_better_bibtex_keys_are_read_from_every_store_layout(
    tmp_path: Path, layout: str, store: str
) -> None:
    folder = build_library(tmp_path / "Zotero", papers(), better_bibtex=layout)
    report = import_zotero(folder, tmp_path / "ws")
    assert (tmp_path / "ws/.zettelkasten/zotero/jegadeesh1993.md").is_file()
    assert f"citekeys from Better BibTeX's {store}" in report.notices


@pytest.mark.parametrize(
    ("authors", "title", "key"),
    [
        ([("De Bock", "K")], "Optimal control of tumours", "debock2020optimal"),
        ([("van der Berg", "J")], "The effect of winners", "vanderberg2020effect"),
        ([("Müller", "A")], "Über die Rendite", "muller2020uber"),
        ([], "Anonymous report on returns", "anonymous2020"),
    ],
    ids=["particle-de", "particle-van-der", "accents", "no-author"],
)
def test_generated_citekeys_follow_better_bibtex_s_default(
    tmp_path: Path, authors: list[tuple[str, str]], title: str, key: str
) -> None:
    paper = Paper(key="K0000009", title=title, authors=authors, date="2020")
    folder = build_library(tmp_path / "Zotero", [paper], better_bibtex=False)
    import_zotero(folder, tmp_path / "ws")
    assert (tmp_path / f"ws/.zettelkasten/zotero/{key}.md").is_file()


def test_an_untitled_item_is_reported_and_left_out(tmp_path: Path) -> None:
    folder = build_library(
        tmp_path / "Zotero", [*papers(), Paper(key="K0000010", title="", authors=[("A", "B")])]
    )
    report = import_zotero(folder, tmp_path / "ws")
    assert ("K0000010", "has no title; left out") in report.problems
    names = {p.stem for p in (tmp_path / "ws/.zettelkasten/zotero").iterdir()}
    assert not any(name.startswith(("anon", "a20")) for name in names)


def test_an_empty_item_is_skipped_with_a_notice_and_the_import_succeeds(tmp_path: Path) -> None:
    good = papers()[:1]
    empty = Paper(key="K0000011", title="", authors=[])
    folder = build_library(tmp_path / "Zotero", [*good, empty])
    code, out, err = invoke("import", "zotero", "--data-dir", folder, "--workspace", tmp_path / "w")
    assert code == 0 and json.loads(out)["problems"] == 0, err
    assert "notice: item K0000011 is empty (no title, fields or attachment); skipped" in err
