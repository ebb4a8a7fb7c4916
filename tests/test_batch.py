import pytest

from engine.importers.batch import SYNC_ALL_FROM, BatchWriter


@pytest.mark.parametrize("count", [3, SYNC_ALL_FROM + 5], ids=["fsync-each", "sync-once"])
def test_files_are_replaced_whole_and_no_temporary_file_stays(tmp_path, count):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/f0.txt").write_text("old")
    with BatchWriter() as batch:
        for n in range(count):
            batch.write(tmp_path / "a" / f"f{n}.txt", f"new {n}")
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(
        f"f{n}.txt" for n in range(count)
    )
    assert (tmp_path / "a/f0.txt").read_text() == "new 0"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    (tmp_path / "f.txt").write_text("old")
    (tmp_path / "dir.txt").mkdir()
    with BatchWriter() as batch, pytest.raises(OSError):
        batch.write(tmp_path / "dir.txt", "cannot replace a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.txt", "f.txt"]
    assert (tmp_path / "f.txt").read_text() == "old"
