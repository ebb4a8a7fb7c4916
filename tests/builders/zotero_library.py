"""Build a small Zotero data folder for tests and benchmarks: zotero.sqlite, storage/, BBT keys.

The tables and columns are those of Zotero's own schema (a subset: what the importer
reads, with Zotero's column names, types and key constraints), so the importer is tested
against the real layout without a Zotero install.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.builders.pdfgen import write_pdf

SCHEMA = """
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT,
    templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex));
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT,
    storageHash TEXT, lastProcessedModificationTime INT);
CREATE TABLE itemAnnotations (itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL,
    type INTEGER NOT NULL, authorName TEXT, text TEXT, comment TEXT, color TEXT,
    pageLabel TEXT, sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""
TYPES = ("journalArticle", "book", "attachment", "note", "annotation")
FIELDS = ("title", "date", "abstractNote", "publicationTitle", "DOI", "extra", "citationKey")


@dataclass
class Mark:
    """A highlight to put on an item's PDF: text, 0-based page index, label, colour."""

    text: str
    page_index: int
    label: str | None = None
    color: str = "#ffd400"
    kind: int = 1


@dataclass
class Paper:
    """One library item, optionally with a PDF (pages of lines) and highlights on it."""

    key: str
    title: str
    authors: Sequence[tuple[str, str]]
    date: str = ""
    abstract: str = ""
    pages: Sequence[Sequence[str] | None] | None = None
    marks: Sequence[Mark] = ()
    bbt_key: str | None = None
    extra: str = ""
    added: str = "2024-01-01 00:00:00"
    deleted: bool = False
    pdf_bytes: bytes | None = None
    fields: dict[str, Any] = field(default_factory=dict)


# Better BibTeX's key stores over the years: its `citationkey` table (BBT 6 and later), a
# LokiJS collection in a `better-bibtex` table (BBT 5), a LokiJS database in
# `betterbibtex-lokijs.sqlite` (BBT 4) or in `better-bibtex/db.json` (older still).
BBT_LAYOUTS = ("citationkey", "loki-table", "lokijs", "db-json")


def build_library(
    folder: Path,
    papers: Sequence[Paper],
    *,
    better_bibtex: bool | str = True,
    zotero_version: int = 6,
) -> Path:
    """Write `folder/zotero.sqlite` (and storage/, Better BibTeX's keys) for `papers`.

    `better_bibtex` is True for its current store, a name of `BBT_LAYOUTS`, or False.
    `zotero_version` 5 writes the schema before built-in annotations: no itemAnnotations
    table, so highlights (`marks`) cannot be stored.
    """
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / "zotero.sqlite")
    db.executescript(SCHEMA)
    if zotero_version < 6:
        db.execute("DROP TABLE itemAnnotations")
    db.executemany("INSERT INTO itemTypes VALUES (?, ?, NULL, 1)", enumerate(TYPES, start=1))
    db.executemany("INSERT INTO fields VALUES (?, ?, 0)", enumerate(FIELDS, start=1))
    type_id = {name: n for n, name in enumerate(TYPES, start=1)}
    field_id = {name: n for n, name in enumerate(FIELDS, start=1)}
    values: dict[str, int] = {}
    creators: dict[tuple[str, str], int] = {}
    next_id = iter(range(1, 10**9))
    keys = []
    for paper in papers:
        item_id = next(next_id)
        db.execute(
            "INSERT INTO items (itemID, itemTypeID, dateAdded, libraryID, key) VALUES (?,?,?,1,?)",
            (item_id, type_id["journalArticle"], paper.added, paper.key),
        )
        data = {"title": paper.title, "date": paper.date, "abstractNote": paper.abstract}
        data |= {"extra": paper.extra} | paper.fields
        for name, value in data.items():
            if value:
                if value not in values:
                    values[value] = len(values) + 1
                    db.execute("INSERT INTO itemDataValues VALUES (?, ?)", (values[value], value))
                db.execute(
                    "INSERT INTO itemData VALUES (?, ?, ?)",
                    (item_id, field_id[name], values[value]),
                )
        for order, (last, first) in enumerate(paper.authors):
            if (last, first) not in creators:
                creators[(last, first)] = len(creators) + 1
                db.execute(
                    "INSERT INTO creators VALUES (?, ?, ?, 0)",
                    (creators[(last, first)], first, last),
                )
            db.execute(
                "INSERT INTO itemCreators VALUES (?, ?, 1, ?)",
                (item_id, creators[(last, first)], order),
            )
        if paper.deleted:
            db.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))
        if paper.bbt_key:
            keys.append((item_id, paper.key, paper.bbt_key))
        if paper.pages is not None or paper.pdf_bytes is not None:
            _attach(db, folder, paper, item_id, next_id, type_id, marks=zotero_version >= 6)
    db.commit()
    db.close()
    if better_bibtex:
        layout = "citationkey" if better_bibtex is True else str(better_bibtex)
        _write_keys(folder, layout, keys)
    return folder


def _write_keys(folder: Path, layout: str, keys: list[tuple[int, str, str]]) -> None:
    rows = [{"itemID": i, "libraryID": 1, "itemKey": k, "citekey": c} for i, k, c in keys]
    if layout == "db-json":
        (folder / "better-bibtex").mkdir(exist_ok=True)
        database = {"collections": [{"name": "citekey", "data": rows}]}
        (folder / "better-bibtex" / "db.json").write_text(json.dumps(database), "utf-8")
        return
    name = "betterbibtex-lokijs.sqlite" if layout == "lokijs" else "better-bibtex.sqlite"
    bbt = sqlite3.connect(folder / name)
    if layout == "citationkey":
        bbt.execute(
            "CREATE TABLE citationkey (itemID NOT NULL, itemKey NOT NULL, libraryID NOT NULL,"
            " citationKey NOT NULL CHECK (citationKey <> ''), pinned CHECK (pinned in (0, 1)),"
            " PRIMARY KEY (itemID))"
        )
        bbt.executemany("INSERT INTO citationkey VALUES (?, ?, 1, ?, 0)", keys)
    elif layout == "loki-table":
        bbt.execute("CREATE TABLE `better-bibtex` (name TEXT PRIMARY KEY NOT NULL, data TEXT)")
        bbt.execute(
            "INSERT INTO `better-bibtex` VALUES ('better-bibtex.citekey', ?)",
            (json.dumps({"name": "citekey", "data": rows}),),
        )
    elif layout == "lokijs":
        bbt.execute("CREATE TABLE lokijs (name TEXT PRIMARY KEY NOT NULL, data TEXT NOT NULL)")
        database = {"collections": [{"name": "citekey", "data": rows}]}
        bbt.execute("INSERT INTO lokijs VALUES ('db.json', ?)", (json.dumps(database),))
    else:
        raise ValueError(f"unknown Better BibTeX layout {layout!r}")
    bbt.commit()
    bbt.close()


def _attach(
    db: sqlite3.Connection,
    folder: Path,
    paper: Paper,
    item_id: int,
    next_id: Iterator[int],
    type_id: dict[str, int],
    *,
    marks: bool,
) -> None:
    attachment_id = next(next_id)
    attachment_key = f"A{paper.key[1:]}"
    db.execute(
        "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)",
        (attachment_id, type_id["attachment"], attachment_key),
    )
    db.execute(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path)"
        " VALUES (?, ?, 0, 'application/pdf', ?)",
        (attachment_id, item_id, f"storage:{paper.key}.pdf"),
    )
    target = folder / "storage" / attachment_key / f"{paper.key}.pdf"
    if paper.pdf_bytes is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(paper.pdf_bytes)
    else:
        write_pdf(target, paper.pages or [])
    for n, mark in enumerate(paper.marks if marks else ()):
        mark_id = next(next_id)
        db.execute(
            "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)",
            (mark_id, type_id["annotation"], f"H{n}{paper.key[1:]}"),
        )
        position = json.dumps({"pageIndex": mark.page_index, "rects": [[50, 700, 300, 712]]})
        db.execute(
            "INSERT INTO itemAnnotations VALUES (?, ?, ?, 'me', ?, '', ?, ?, ?, ?, 0)",
            (
                mark_id,
                attachment_id,
                mark.kind,
                mark.text,
                mark.color,
                mark.label if mark.label is not None else str(mark.page_index + 1),
                f"{mark.page_index:05d}|{n:06d}|00000",
                position,
            ),
        )
