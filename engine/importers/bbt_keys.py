"""Better BibTeX's citekeys, from every store layout it has used in a Zotero data folder.

Better BibTeX kept its keys in four places over the years, each still found in real data
folders; the newest present wins:

- `better-bibtex.sqlite`, table `citationkey` (itemID, itemKey, libraryID, citationKey);
- `better-bibtex.sqlite`, table `better-bibtex` (name, data), whose row
  `better-bibtex.citekey` holds a LokiJS collection `{"data": [{itemID, libraryID, itemKey,
  citekey}, …]}`;
- `betterbibtex-lokijs.sqlite`, table `lokijs` (name, data), whose row `db.json` holds a
  LokiJS database with a collection named `citekey`;
- `better-bibtex/db.json`, the same LokiJS database as a file.

Every file is copied before it is opened, read only, and never written. Keys come back by
(library, item key) and by item id; `{}` and the reason when nothing usable is found.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.core import jsonsafe

MAX_STORE_BYTES = 512 * 1024 * 1024
# One stored key: item id, item key, library id and the citekey, as the store gives them.
Row = tuple[object, object, object, object]


@dataclass(frozen=True)
class KeyStore:
    """The citekeys found, by (library, item key) and by item id, and which store gave them."""

    keys: dict[object, str]
    layout: str = ""


def better_bibtex_keys(data_dir: Path) -> KeyStore:
    """Better BibTeX's keys in `data_dir`, from the newest store layout that has any."""
    readers = (
        ("better-bibtex.sqlite", "citationkey", _citationkey_table),
        ("better-bibtex.sqlite", "better-bibtex", _loki_table),
        ("betterbibtex-lokijs.sqlite", "lokijs", _lokijs_table),
    )
    for name, layout, reader in readers:
        keys = _from_sqlite(data_dir / name, reader)
        if keys:
            return KeyStore(keys, f"{name} ({layout})")
    keys = _index(_loki_file(data_dir / "better-bibtex" / "db.json"))
    return KeyStore(keys, "better-bibtex/db.json" if keys else "")


def _from_sqlite(
    path: Path, reader: Callable[[sqlite3.Connection], Iterator[Row]]
) -> dict[object, str]:
    if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_STORE_BYTES:
        return {}
    with tempfile.TemporaryDirectory(prefix="synapse-bbt-") as folder:
        copy = Path(folder) / path.name
        try:
            shutil.copyfile(path, copy)
            db = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)
        except (OSError, sqlite3.DatabaseError):
            return {}
        try:
            return _index(reader(db))
        except (sqlite3.DatabaseError, ValueError, TypeError, AttributeError):
            return {}
        finally:
            db.close()


def _citationkey_table(db: sqlite3.Connection) -> Iterator[Row]:
    yield from db.execute("SELECT itemID, itemKey, libraryID, citationKey FROM citationkey")


def _loki_table(db: sqlite3.Connection) -> Iterator[Row]:
    row = db.execute(
        "SELECT data FROM `better-bibtex` WHERE name = 'better-bibtex.citekey'"
    ).fetchone()
    if row is not None:
        yield from _loki_rows(jsonsafe.loads(_bytes(row[0])))


def _lokijs_table(db: sqlite3.Connection) -> Iterator[Row]:
    row = db.execute("SELECT data FROM lokijs WHERE name = 'db.json'").fetchone()
    if row is not None:
        yield from _collection(jsonsafe.loads(_bytes(row[0])), "citekey")


def _loki_file(path: Path) -> Iterator[Row]:
    if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_STORE_BYTES:
        return
    try:
        database = jsonsafe.loads(path.read_bytes())
    except (OSError, ValueError):
        return
    yield from _collection(database, "citekey")


def _collection(database: object, name: str) -> Iterator[Row]:
    collections = database.get("collections") if isinstance(database, dict) else None
    for collection in collections if isinstance(collections, list) else []:
        if isinstance(collection, dict) and collection.get("name") == name:
            yield from _loki_rows(collection)


def _loki_rows(collection: object) -> Iterator[Row]:
    data = collection.get("data") if isinstance(collection, dict) else None
    for row in data if isinstance(data, list) else []:
        if isinstance(row, dict):
            key = row.get("citekey", row.get("citationKey"))
            yield row.get("itemID"), row.get("itemKey"), row.get("libraryID"), key


def _index(rows: Iterable[Row]) -> dict[object, str]:
    keys: dict[object, str] = {}
    for item_id, item_key, library, citekey in rows:
        if not isinstance(citekey, str) or not citekey.strip():
            continue
        if isinstance(item_key, str) and isinstance(library, int):
            keys[(library, item_key)] = citekey.strip()
        if isinstance(item_id, int):
            keys[item_id] = citekey.strip()
    return keys


def _bytes(value: object) -> bytes:
    if isinstance(value, bytes):
        return value
    return json.dumps(value).encode() if not isinstance(value, str) else value.encode()
