import os
import sqlite3
from pathlib import Path

import pytest

from engine.core.errors import WorkspaceError
from engine.workspace.caches import cache_folder, index_path
from engine.workspace.index_file import (
    cannot_write,
    connect,
    refuse_unless_corrupt,
    remove_database,
    safe_index_path,
)


def test_the_index_file_opens_in_wal_mode_in_the_users_cache_folder(tmp_path: Path) -> None:
    path = safe_index_path(tmp_path)
    assert path == index_path(tmp_path) and path.parent.is_dir()
    assert not (tmp_path / ".synapse" / "index.sqlite").exists()
    connection = connect(path)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        connection.close()


def test_a_link_in_the_cache_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "note.md"
    elsewhere.write_text("a note")
    root = tmp_path / "ws"
    root.mkdir()
    safe_index_path(root)
    os.symlink(elsewhere, cache_folder(root) / "index.sqlite-wal")
    with pytest.raises(WorkspaceError, match="link"):
        safe_index_path(root)
    assert elsewhere.read_text() == "a note"


def test_removing_the_database_takes_its_side_files(tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    for suffix in ("", "-wal", "-shm", "-journal"):
        (tmp_path / f"index.sqlite{suffix}").write_text("x")
    remove_database(db)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("message", "unwritable"),
    [
        ("attempt to write a readonly database", True),
        ("database or disk is full", True),
        ("file is not a database", False),
    ],
    ids=["read-only", "disk-full", "corrupt"],
)
def test_cannot_write_tells_an_unwritable_place_from_a_corrupt_file(
    message: str, unwritable: bool
) -> None:
    assert cannot_write(sqlite3.DatabaseError(message)) is unwritable


def test_a_locked_index_is_the_callers_problem_and_a_corrupt_one_is_rebuilt() -> None:
    with pytest.raises(WorkspaceError, match="cannot open the index"):
        refuse_unless_corrupt(sqlite3.OperationalError("database is locked"))
    refuse_unless_corrupt(sqlite3.DatabaseError("file is not a database"))  # no raise
