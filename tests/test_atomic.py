import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from engine.core.errors import WorkspaceError
from engine.workspace.atomic import (
    SYNC_ALL_FROM,
    AppFile,
    append_durable,
    file_lock,
    read_app_buffer,
    read_app_file,
    synapse_path,
    sync_files,
    write_atomic,
)


def test_write_atomic_creates_then_replaces_whole(tmp_path: Path) -> None:
    target = tmp_path / ".synapse" / "links" / "x.json"
    write_atomic(target, "first")
    write_atomic(target, b"second")
    assert target.read_text() == "second"
    assert os.listdir(target.parent) == ["x.json"]


def test_failed_write_keeps_the_previous_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    write_atomic(target, "kept")
    with pytest.raises(TypeError):
        write_atomic(target, cast(Any, 42))  # not bytes: fails while writing the temp file
    assert target.read_text() == "kept"
    assert os.listdir(tmp_path) == ["x.json"]


def test_append_durable_appends_in_order(tmp_path: Path) -> None:
    log = tmp_path / "sub" / "log.jsonl"
    for n in range(3):
        append_durable(log, f"{n}\n".encode())
    assert log.read_text() == "0\n1\n2\n"


def test_file_lock_excludes_a_second_holder(tmp_path: Path) -> None:
    lock = tmp_path / "a.lock"
    with file_lock(lock):
        fd = os.open(lock, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released after the block
    finally:
        os.close(fd)


def test_synapse_path_refuses_a_symlink_leading_outside(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "ws"
    root.mkdir()
    (root / ".synapse").symlink_to(outside)
    with pytest.raises(WorkspaceError, match="symbolic link"):
        write_atomic(synapse_path(root, ".synapse/triage.jsonl"), "x")
    assert list(outside.iterdir()) == []
    assert synapse_path(tmp_path, ".synapse/x").path == tmp_path.resolve() / ".synapse/x"
    with pytest.raises(WorkspaceError, match="only under"):
        synapse_path(tmp_path, "notes/x")


def test_a_later_write_sweeps_old_leftovers_but_not_fresh_ones(tmp_path: Path) -> None:
    target = tmp_path / "links" / "claim_links.json"
    write_atomic(target, "{}")
    old = target.parent / ".claim_links.json.crashed.tmp"
    fresh = target.parent / ".claim_links.json.busy.tmp"
    old.write_text("half")
    fresh.write_text("being written")
    hours_ago = time.time() - 2 * 3600
    os.utime(old, (hours_ago, hours_ago))
    write_atomic(target, '{"edges": []}')
    assert not old.exists() and fresh.exists()
    assert target.read_text() == '{"edges": []}'


@pytest.mark.parametrize(
    "read",
    [read_app_file, lambda file, **cap: bytes(read_app_buffer(file, **cap))],
    ids=["bytes", "buffer"],
)
def test_read_app_file_refuses_links_fifos_and_oversize(
    tmp_path: Path, read: Callable[..., bytes]
) -> None:
    synapse = tmp_path / ".synapse"
    synapse.mkdir()
    (synapse / "big.json").write_bytes(b"x" * 100)
    (synapse / "empty.json").write_bytes(b"")
    (tmp_path / "note.md").write_text("a note")
    (synapse / "link.json").symlink_to(tmp_path / "note.md")
    os.mkfifo(synapse / "fifo.json")
    with pytest.raises(WorkspaceError, match="over the 50-byte cap"):
        read(synapse_path(tmp_path, ".synapse/big.json"), max_bytes=50)
    with pytest.raises(WorkspaceError, match="symbolic link"):
        read(synapse_path(tmp_path, ".synapse/link.json"))
    with pytest.raises(WorkspaceError, match="not a regular file"):
        read(synapse_path(tmp_path, ".synapse/fifo.json"))
    with pytest.raises(FileNotFoundError):
        read(synapse_path(tmp_path, ".synapse/missing.json"))
    assert read(synapse_path(tmp_path, ".synapse/big.json")) == b"x" * 100
    assert read(synapse_path(tmp_path, ".synapse/empty.json")) == b""


@pytest.mark.parametrize("kind", ["symlink", "hardlink"], ids=str)
def test_writes_refuse_a_linked_target_and_leave_the_note_alone(tmp_path: Path, kind: str) -> None:
    note = tmp_path / "note.md"
    note.write_text("a note")
    (tmp_path / ".synapse").mkdir()
    target = tmp_path / ".synapse" / "triage.jsonl"
    if kind == "symlink":
        target.symlink_to(note)
    else:
        os.link(note, target)
    file = synapse_path(tmp_path, ".synapse/other.json")
    with pytest.raises(WorkspaceError, match="link"):
        write_atomic(file, "{}")  # any write is refused while `.synapse/` holds a link
    with pytest.raises(WorkspaceError, match="link"):
        append_durable(synapse_path(tmp_path, ".synapse/triage.jsonl"), b"line\n")
    assert note.read_text() == "a note"
    assert not (tmp_path / ".synapse" / "other.json").exists()


def test_a_linked_folder_on_the_way_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / ".synapse").mkdir()
    (tmp_path / ".synapse" / "links").symlink_to(elsewhere)
    with pytest.raises(WorkspaceError, match="link"):
        write_atomic(synapse_path(tmp_path, ".synapse/links/claim_links.json"), "{}")
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("count", [3, SYNC_ALL_FROM + 5], ids=["fsync-each", "sync-once"])
def test_a_batch_written_without_fsync_is_whole_and_leaves_no_temporary(
    tmp_path: Path, count: int
) -> None:
    files = [AppFile(tmp_path, ("a", f"f{n}.txt")) for n in range(count)]
    write_atomic(files[0], "old")
    for n, file in enumerate(files):
        write_atomic(file, f"new {n}", durable=False)
    sync_files(files)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(f.name for f in files)
    assert (tmp_path / "a/f0.txt").read_text() == "new 0"


@pytest.mark.parametrize("count", [3, SYNC_ALL_FROM + 5], ids=["fsync-each", "sync-once"])
def test_a_batch_sweeps_its_names_leftovers_once_at_its_end(tmp_path: Path, count: int) -> None:
    files = [AppFile(tmp_path, ("a", f"f{n}.txt")) for n in range(count)]
    folder = tmp_path / "a"
    folder.mkdir()
    hours_ago = time.time() - 2 * 3600
    stale = [folder / ".f0.txt.crashed.tmp", folder / f".f{count - 1}.txt.0123abcd.tmp"]
    kept = [
        folder / ".f1.txt.busy.tmp",  # fresh: a writer may still be at it
        folder / ".other.txt.crashed.tmp",  # a name this batch did not write
        folder / ".f0.txt.crashed.bak",  # not a temporary file's name
    ]
    for leftover in [*stale, *kept]:
        leftover.write_text("half")
    for leftover in [*stale, *kept[1:]]:
        os.utime(leftover, (hours_ago, hours_ago))
    for n, file in enumerate(files):
        write_atomic(file, f"new {n}", durable=False, sweep=False)
    assert all(p.exists() for p in stale)  # not swept write by write
    sync_files(files)
    assert not any(p.exists() for p in stale) and all(p.exists() for p in kept)


def test_a_very_long_name_gets_a_temporary_name_that_fits(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 250 + ".txt")
    write_atomic(target, "text", durable=False)
    assert target.read_text() == "text" and len(list(tmp_path.iterdir())) == 1
