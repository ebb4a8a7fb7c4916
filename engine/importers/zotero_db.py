"""Read a Zotero library (`zotero.sqlite`, and Better BibTeX's keys) into plain item values.

Zotero holds its database open and locked while it runs, so the file is copied to a
temporary folder and the copy is opened read-only; the library itself is never written.
Only the tables and columns read here are assumed: items, itemTypes, fields, itemData,
itemDataValues, creators, itemCreators, itemAttachments, and, when present,
itemAnnotations (Zotero 6 and later keep highlights there; Zotero 5 has none) and
deletedItems (to leave out the trash). Better BibTeX's keys are read from whichever of its
store layouts the folder holds (`engine.importers.bbt_keys`).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import ConfigError
from engine.importers.bbt_keys import better_bibtex_keys

# Zotero's annotation types that mark a passage of the text.
_TEXT_ANNOTATIONS = (1, 5)  # highlight, underline
_SKIPPED_TYPES = ("attachment", "note", "annotation")
_LINKED_FILE = 2


@dataclass(frozen=True)
class Highlight:
    """One highlight: its Zotero key, text, 1-based page position, label and colour."""

    key: str
    text: str
    page: int | None
    label: str | None
    color: str | None


@dataclass(frozen=True)
class Attachment:
    """A PDF attached to an item; `path` is None when Zotero's path cannot be resolved."""

    key: str
    path: Path | None
    stored: str
    highlights: tuple[Highlight, ...]


@dataclass(frozen=True)
class Creator:
    """An author: last and first name, or a single-field name in `last`."""

    last: str
    first: str = ""


@dataclass(frozen=True)
class ZoteroItem:
    """One regular library item with the fields the importer uses."""

    item_id: int
    key: str
    library: int
    type: str
    date_added: str
    fields: tuple[tuple[str, str], ...]
    creators: tuple[Creator, ...]
    attachments: tuple[Attachment, ...]
    citekey: str | None

    def field(self, name: str) -> str:
        return next((value for key, value in self.fields if key == name), "")

    @property
    def year(self) -> int | None:
        digits = self.field("date")[:4]
        return int(digits) if digits.isdigit() and digits != "0000" else None


@contextlib.contextmanager
def open_library(data_dir: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to a temporary copy of `data_dir/zotero.sqlite`."""
    database = data_dir / "zotero.sqlite"
    if not database.is_file():
        raise ConfigError(f"no zotero.sqlite in {data_dir} (give Zotero's data directory)")
    with tempfile.TemporaryDirectory(prefix="synapse-zotero-") as folder:
        copy = Path(folder) / "zotero.sqlite"
        try:
            shutil.copyfile(database, copy)
            for suffix in ("-wal", "-shm"):
                sidecar = database.with_name(database.name + suffix)
                if sidecar.is_file():
                    shutil.copyfile(sidecar, copy.with_name(copy.name + suffix))
        except OSError as exc:
            raise ConfigError(f"cannot copy {database}: {exc.strerror or exc}") from None
        connection = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)
        try:
            connection.execute("SELECT 1 FROM items LIMIT 1")
        except sqlite3.DatabaseError as exc:
            connection.close()
            raise ConfigError(f"{database} is not a readable Zotero database: {exc}") from None
        try:
            yield connection
        finally:
            connection.close()


@dataclass(frozen=True)
class ZoteroLibrary:
    """The library's regular items, whether its Zotero version keeps highlights in its
    database (Zotero 6 and later), and which Better BibTeX store gave the citekeys."""

    items: tuple[ZoteroItem, ...]
    annotations: bool
    key_store: str


def read_items(data_dir: Path) -> ZoteroLibrary:
    """Every regular item in the library (trash left out), ordered by date added then key.

    A Zotero 5 library has no annotation table: its items and PDFs are read all the same,
    with no highlights, and `annotations` says so.
    """
    data_dir = Path(data_dir)
    better = better_bibtex_keys(data_dir)
    with open_library(data_dir) as db:
        annotations = _has_table(db, "itemAnnotations")
        try:
            items = _read(db, data_dir, better.keys, annotations=annotations)
        except sqlite3.DatabaseError as exc:
            raise ConfigError(f"the Zotero database lacks what is read here: {exc}") from None
    return ZoteroLibrary(items, annotations, better.layout)


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return row.fetchone() is not None


def _read(
    db: sqlite3.Connection, data_dir: Path, better: dict[Any, str], *, annotations: bool
) -> tuple[ZoteroItem, ...]:
    deleted = _deleted(db)
    rows = db.execute(
        "SELECT i.itemID, i.key, i.libraryID, t.typeName, i.dateAdded FROM items i"
        " JOIN itemTypes t ON t.itemTypeID = i.itemTypeID"
        f" WHERE t.typeName NOT IN ({','.join('?' * len(_SKIPPED_TYPES))})",
        _SKIPPED_TYPES,
    ).fetchall()
    fields = defaultdict(list)
    for item_id, name, value in db.execute(
        "SELECT d.itemID, f.fieldName, v.value FROM itemData d"
        " JOIN fields f ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID"
    ):
        fields[item_id].append((name, "" if value is None else str(value)))
    creators = defaultdict(list)
    for item_id, last, first in db.execute(
        "SELECT ic.itemID, c.lastName, c.firstName FROM itemCreators ic"
        " JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex"
    ):
        creators[item_id].append(Creator((last or "").strip(), (first or "").strip()))
    attachments = _attachments(db, data_dir, annotations=annotations)
    items = []
    for item_id, key, library, type_name, added in rows:
        if item_id in deleted:
            continue
        item_fields = tuple(sorted(fields.get(item_id, ())))
        citekey = better.get((library, key)) or better.get(item_id) or _native_key(item_fields)
        items.append(
            ZoteroItem(
                item_id=item_id,
                key=key,
                library=library,
                type=type_name,
                date_added=str(added or ""),
                fields=item_fields,
                creators=tuple(creators.get(item_id, ())),
                attachments=tuple(attachments.get(item_id, ())),
                citekey=citekey,
            )
        )
    return tuple(sorted(items, key=lambda item: (item.date_added, item.key)))


def _deleted(db: sqlite3.Connection) -> set[int]:
    try:
        return {row[0] for row in db.execute("SELECT itemID FROM deletedItems")}
    except sqlite3.OperationalError:
        return set()


def _attachments(
    db: sqlite3.Connection, data_dir: Path, *, annotations: bool
) -> dict[int, list[Attachment]]:
    highlights = defaultdict(list)
    rows = (
        db.execute(
            "SELECT a.parentItemID, i.key, a.type, a.text, a.color, a.pageLabel, a.sortIndex,"
            " a.position FROM itemAnnotations a JOIN items i ON i.itemID = a.itemID"
            " ORDER BY a.parentItemID, a.sortIndex, i.key"
        )
        if annotations
        else ()
    )
    for parent, key, kind, text, color, label, _sort, position in rows:
        if kind in _TEXT_ANNOTATIONS and isinstance(text, str) and text.strip():
            page = _page_index(position, label)
            highlights[parent].append(
                Highlight(key, " ".join(text.split()), page, label or None, color or None)
            )
    out = defaultdict(list)
    for item_id, parent, key, link_mode, content_type, stored in db.execute(
        "SELECT a.itemID, a.parentItemID, i.key, a.linkMode, a.contentType, a.path"
        " FROM itemAttachments a JOIN items i ON i.itemID = a.itemID"
        " WHERE a.parentItemID IS NOT NULL ORDER BY a.parentItemID, a.itemID"
    ):
        stored = stored or ""
        if content_type != "application/pdf" and not stored.lower().endswith(".pdf"):
            continue
        path = _resolve(data_dir, key, stored, linked=link_mode == _LINKED_FILE)
        out[parent].append(Attachment(key, path, stored, tuple(highlights.get(item_id, ()))))
    return out


def _resolve(data_dir: Path, key: str, stored: str, *, linked: bool) -> Path | None:
    if stored.startswith("storage:"):
        name = stored.removeprefix("storage:")
        if "/" in name or "\\" in name or name in {"", ".", ".."}:
            return None
        return data_dir / "storage" / key / name
    if linked and Path(stored).is_absolute():
        return Path(stored)
    return None  # "attachments:…" is relative to a base folder only Zotero's settings know


def _page_index(position: object, label: object) -> int | None:
    try:
        index = json.loads(position).get("pageIndex") if isinstance(position, str) else None
    except (ValueError, AttributeError):
        index = None
    if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
        return index + 1
    return int(label) if isinstance(label, str) and label.isdigit() else None


def _native_key(fields: tuple[tuple[str, str], ...]) -> str | None:
    values = dict(fields)
    if values.get("citationKey", "").strip():
        return values["citationKey"].strip()
    for line in values.get("extra", "").splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() in {"citation key", "citationkey"} and value.strip():
            return value.strip()
    return None
