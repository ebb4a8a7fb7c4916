"""The ranking view is kept beside the index: a new process reads it back instead of building
it, and only when it was built from the same rows and its seal verifies."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from engine.workspace.caches import cache_folder, index_path
from engine.workspace.index import Index
from engine.workspace.index_view_file import VIEW_FILE
from engine.workspace.stores import load_workspace

QUERY = "past winners losers momentum"


def _search(root: Path, query: str = QUERY) -> list[tuple[str, float]]:
    """A new index over `root`, updated and asked once, as a new process would."""
    with Index.open(root) as index:
        index.update(load_workspace(root))
        return [(hit.address, hit.score) for hit in index.search(query, k=5)]


def _view(root: Path) -> Path:
    return cache_folder(root) / VIEW_FILE


def test_a_new_index_reads_the_kept_view_and_ranks_the_same(lab_path: Path) -> None:
    first = _search(lab_path)
    kept = _view(lab_path).stat()
    assert first and _search(lab_path) == first
    again = _view(lab_path).stat()
    assert (again.st_ino, again.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)  # read, not built


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # the seal
        lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:],  # the header
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: b"",
    ],
    ids=["seal", "header", "truncated", "empty"],
)
def test_a_damaged_view_is_built_again_from_the_rows(lab_path: Path, damage: object) -> None:
    first = _search(lab_path)
    view = _view(lab_path)
    view.write_bytes(damage(view.read_bytes()))  # type: ignore[operator]
    assert _search(lab_path) == first
    assert _view(lab_path).stat().st_size > 100  # written again, whole


def test_a_view_kept_by_another_user_is_not_read(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _search(lab_path)
    theirs = _view(lab_path).read_bytes()
    monkeypatch.setenv("SYNAPSE_STATE_DIR", str(lab_path.parent / "other-user"))
    assert _search(lab_path) == first
    mine = _view(lab_path)
    assert mine.read_bytes() != theirs  # sealed with this user's key, not copied


def test_a_changed_note_is_ranked_as_it_reads_now(lab_path: Path) -> None:
    _search(lab_path)
    note = lab_path / ".zettelkasten" / "finance" / "z-mom-01.md"
    note.write_text(note.read_text("utf-8") + "\nXylophonic returns.\n", "utf-8")
    assert [a for a, _ in _search(lab_path, "xylophonic")] == ["zk:finance:z-mom-01"]


def test_rows_tampered_after_the_view_was_kept_change_nothing_it_ranks(lab_path: Path) -> None:
    first = _search(lab_path)
    with contextlib.closing(sqlite3.connect(index_path(lab_path))) as raw, raw:
        raw.execute("UPDATE docs SET bag = x'' , title = 'forged'")
    assert _search(lab_path) == first


def test_rows_deleted_by_hand_are_indexed_again_at_the_next_update(lab_path: Path) -> None:
    first = _search(lab_path)
    with contextlib.closing(sqlite3.connect(index_path(lab_path))) as raw, raw:
        raw.execute("DELETE FROM docs WHERE address = ?", (first[0][0],))
    with Index.open(lab_path) as index:
        stats = index.update(load_workspace(lab_path))
        assert (stats.added, stats.changed, stats.removed) == (1, 0, 0)
        assert [(h.address, h.score) for h in index.search(QUERY, k=5)] == first


def test_an_unchanged_workspace_is_not_read_row_by_row(lab_path: Path) -> None:
    _search(lab_path)
    with contextlib.closing(sqlite3.connect(index_path(lab_path))) as raw, raw:
        # A row whose hash no longer matches its note: an update that compared rows would
        # index it again; one that trusts the last update's record of the notes does not.
        raw.execute("UPDATE docs SET sha256 = 'stale' WHERE address = 'zk:finance:z-mom-01'")
    with Index.open(lab_path) as index:
        assert index.update(load_workspace(lab_path)).changed == 0
