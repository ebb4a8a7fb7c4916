"""The index's SQLite file: its tables, opened in WAL mode, never through a link, rebuilt when
corrupt."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from engine.core.errors import WorkspaceError
from engine.workspace.atomic import check_no_links, open_parent
from engine.workspace.caches import INDEX_FILE, cache_file

# Bump when the tables, the tokenizer, the bag layout or the seals change: older files are rebuilt.
SCHEMA_VERSION = "5"
# The meta rows an update writes with the docs: the digest of the notes it brought the table
# in line with (`NoteMap.digest`), and `rows_digest` of the table it left.
NOTES_DIGEST = "notes_digest"
ROWS_DIGEST = "rows_digest"
_TABLES = frozenset({"meta", "docs", "terms"})
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL UNIQUE,
    store TEXT NOT NULL,
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    bag BLOB NOT NULL,
    seal BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS terms (
    id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, seal BLOB NOT NULL
);
"""


def is_current(db: sqlite3.Connection) -> bool:
    """Whether the database holds this version's tables."""
    try:
        version = meta_value(db, "schema_version")
    except sqlite3.OperationalError:  # no meta table yet
        return False
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return version == SCHEMA_VERSION and {name for (name,) in rows} >= _TABLES


def create_schema(db: sqlite3.Connection) -> bool:
    """Drop whatever tables the database holds and create this version's, inside the caller's
    transaction; True when something was dropped (the index is rebuilt)."""
    dropped = bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
    for name in ("docs_fts", "docs", "terms", "meta"):  # docs_fts: schema 3 and older
        db.execute(f"DROP TABLE IF EXISTS {name}")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
    return dropped


def meta_value(db: sqlite3.Connection, key: str) -> str | None:
    """The meta row `key`'s value, or None."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode, so readers in other processes never wait for a writer."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
    try:
        if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.Error:
        connection.close()
        raise
    return connection


def safe_index_path(root: str | Path) -> Path:
    """This user's index file of the workspace at `root`, in their cache folder, checked writable.

    SQLite opens the path itself (this build has no no-follow VFS), so the checks come
    first: neither the cache folder nor any file in it (the database, its WAL and
    shared-memory files) may be a symbolic or hard link.
    """
    file = cache_file(root, INDEX_FILE)
    check_no_links(file.root, inside="")
    with open_parent(file, create=True):
        pass
    probe = file.path.parent / f".{file.name}.probe"
    # A read-only folder would only fail at the first write, deep inside an update.
    fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    os.close(fd)
    probe.unlink()
    return file.path


def write_problem(exc: BaseException) -> str:
    """Why writing the index failed, in words (the file named when the OS named it)."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot write {exc.filename or 'the cache folder'} ({exc.strerror})"
    return str(exc)


def cannot_write(exc: sqlite3.DatabaseError) -> bool:
    """True when SQLite cannot write here (read-only, full disk) rather than a corrupt file."""
    text = str(exc).lower()
    signs = ("readonly", "read-only", "unable to open", "disk i/o error", "disk is full")
    return any(sign in text for sign in signs)


def refuse_unless_corrupt(exc: sqlite3.DatabaseError) -> None:
    """Corrupt files are rebuilt; a locked or unreadable one is the caller's problem."""
    if isinstance(exc, sqlite3.OperationalError):
        raise WorkspaceError(f"cannot open the index: {exc}") from exc


def remove_database(path: Path) -> None:
    """Delete the database and its WAL, shared-memory and journal files, if present."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()
