"""Crash safety: child processes are killed with SIGKILL mid-write, and the files survive."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest

from engine.api import open_workspace
from engine.review.overlay import build_overlay, load_overlay, read_overlay
from engine.review.relations import EdgeKey
from engine.review.triage import LOG_PATH, TriageDecision, read_log, record
from engine.workspace.caches import index_path
from engine.workspace.index import Index
from engine.workspace.layout import OVERLAY_PATH
from engine.workspace.stores import load_workspace
from tests.conftest import ROOT

DEADLINE = 60.0


T = TypeVar("T")


def wait_for(condition: Callable[[], T], what: str, *, deadline: float = DEADLINE) -> T:
    """Poll `condition` until it returns something truthy; fail after `deadline` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    pytest.fail(f"timed out after {deadline:.0f}s waiting for {what}")


@contextmanager
def child(script: str, *args: object) -> Iterator[subprocess.Popen[str]]:
    """A Python child running `script` from the repo root; killed on the way out."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=DEADLINE)


def kill9(proc: subprocess.Popen[str]) -> str:
    """SIGKILL the child and return what it printed before it died."""
    assert proc.poll() is None, proc.communicate()[1]
    os.kill(proc.pid, signal.SIGKILL)
    out: str = proc.communicate(timeout=DEADLINE)[0]
    assert proc.returncode == -signal.SIGKILL
    return out


# --- the overlay ----------------------------------------------------------------------

# Rebuilds the overlay with a typer registered under a test name in its own registry; the
# child parks itself forever at the chosen point so the parent can kill it there.
OVERLAY_CHILD = """
import os, sys, time
from pathlib import Path
from engine.api import open_workspace
from engine.review.overlay import build_overlay
from engine.review.typers import TYPERS, OfflineTyper

root, marker, stop = sys.argv[1], Path(sys.argv[2]), sys.argv[3]

def park(text):
    # Whole before it appears: the parent reads it as soon as it exists.
    side = marker.with_suffix(".part")
    side.write_text(text)
    os.rename(side, marker)
    time.sleep(3600)

class Slow(OfflineTyper):
    name = "slow"

typers = TYPERS.copy()
typers.register("slow", Slow)
if stop == "before-rename":
    os.replace = lambda src, dst, **dir_fds: park(str(src))

def progress(done, total):
    if stop == "while-typing" and done == 2:
        park(f"{done} of {total}")

build_overlay(open_workspace(root), typer="slow", progress=progress, typers=typers)
"""


@pytest.mark.parametrize("stop", ["while-typing", "before-rename"], ids=str)
def test_a_killed_overlay_build_leaves_the_previous_file(
    lab_path: Path, tmp_path: Path, stop: str
) -> None:
    opened = open_workspace(lab_path)
    built = build_overlay(opened)
    opened.close()
    overlay_file = lab_path / OVERLAY_PATH
    before = overlay_file.read_bytes()
    marker = tmp_path / "marker"
    with child(OVERLAY_CHILD, lab_path, marker, stop) as proc:
        wait_for(marker.exists, "the child to reach its stop")
        kill9(proc)
    temps = sorted(overlay_file.parent.glob(".*.tmp"))
    if stop == "before-rename":
        # The new overlay was whole and fsynced in its temp file when the child died.
        assert [p.name for p in temps] == [marker.read_text()]
        assert json.loads(temps[0].read_text())["typer"] == "slow"
    else:
        assert temps == []
    assert overlay_file.read_bytes() == before
    assert read_overlay(lab_path).reason == ""
    loaded = load_overlay(lab_path)
    assert loaded is not None
    assert loaded.to_dict() == built.to_dict()
    # A stale temp file neither blocks nor leaks into the next build.
    reopened = open_workspace(lab_path)
    rebuilt = build_overlay(reopened)
    reopened.close()
    reloaded = load_overlay(lab_path)
    assert reloaded is not None
    assert reloaded.to_dict() == rebuilt.to_dict()


# --- the index ------------------------------------------------------------------------

NOTES = 2000
# Enough new notes that the update's dirty pages spill into the WAL before it commits.
NEW = 1000

# Updates the index in the child. With a stop count it parks inside the update's
# transaction after that many inserts; with 0 it runs free until killed.
INDEX_CHILD = """
import sys, time
from pathlib import Path
from engine.workspace.index import Index
from engine.workspace.stores import load_workspace

root, marker, stop = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
insert, inserted = Index._insert, []

def counting(self, *args, **kwargs):
    inserted.append(1)
    if len(inserted) == stop:
        marker.write_text(str(stop))
        time.sleep(3600)
    return insert(self, *args, **kwargs)

Index._insert = counting
workspace = load_workspace(root)
marker.with_suffix(".loaded").write_text("")
with Index.open(root) as index:
    index.update(workspace)
    # Stay open: closing would checkpoint the WAL away before the parent sees it grow.
    time.sleep(3600)
"""


def write_notes(root: Path, ids: range, word: str) -> None:
    box = root / ".zettelkasten" / "bulk"
    box.mkdir(parents=True, exist_ok=True)
    for n in ids:
        body = " ".join(f"{word}{n} term{(n * 7 + k) % 997}" for k in range(60))
        (box / f"n{n}.md").write_text(
            f"---\nid: n{n}\ntype: finding\ntitle: note {n} {word}\n---\n{body}\n",
            encoding="utf-8",
        )


def top(index: Index, query: str) -> str | None:
    hits = index.search(query, k=1)
    return hits[0].address if hits else None


@pytest.fixture
def indexed(tmp_path: Path) -> Path:
    """A workspace of NOTES indexed notes, then changed on disk: NEW new, 50 edited, 50 gone."""
    root = tmp_path / "ws"
    write_notes(root, range(NOTES), "old")
    with Index.open(root) as index:
        index.update(load_workspace(root))
    write_notes(root, range(NOTES, NOTES + NEW), "new")
    write_notes(root, range(50), "edited")
    for n in range(NOTES - 50, NOTES):
        (root / f".zettelkasten/bulk/n{n}.md").unlink()
    return root


@pytest.mark.parametrize("stop", [1000, 0], ids=["parked-after-1000-inserts", "free-running"])
def test_a_killed_index_update_rolls_back_and_the_next_update_catches_up(
    indexed: Path, tmp_path: Path, stop: int
) -> None:
    marker = tmp_path / "marker"
    wal = Path(f"{index_path(indexed)}-wal")
    with child(INDEX_CHILD, indexed, marker, stop) as proc:
        if stop:
            wait_for(marker.exists, "the child to park inside the transaction")
            # Uncommitted pages had already spilled to the WAL when the child died.
            assert wal.stat().st_size > 0
        else:
            wait_for(marker.with_suffix(".loaded").exists, "the child to load the notes")
            wait_for(lambda: wal.exists() and wal.stat().st_size > 1 << 20, "the WAL to grow")
        kill9(proc)
    with Index.open(indexed) as index:
        assert not index.rebuilt
        if stop:
            assert index.count() == NOTES
            assert top(index, "new2100") is None
            assert top(index, "old7") == "zk:bulk:n7"
        else:
            # Killed before or after its commit, never in between.
            assert index.count() in {NOTES, NOTES + NEW - 50}
        stats = index.update(load_workspace(indexed))
        assert index.count() == NOTES + NEW - 50
        assert (stats.removed, stats.added) in {(50, NEW), (0, 0)}
        assert top(index, "new2100") == "zk:bulk:n2100"
        assert top(index, "edited7") == "zk:bulk:n7"
        assert top(index, f"old{NOTES - 1}") is None


@pytest.mark.parametrize(
    "keep", [0, 100, 0.5, -4096], ids=["empty", "header-cut", "half", "last-page-cut"]
)
def test_a_truncated_index_file_is_rebuilt(indexed: Path, keep: float) -> None:
    db = index_path(indexed)
    data = db.read_bytes()
    db.write_bytes(data[: int(len(data) * keep) if isinstance(keep, float) else keep])
    with Index.open(indexed) as index:
        assert index.count() == 0
        assert index.rebuilt == (keep != 0)
        assert index.update(load_workspace(indexed)).added == NOTES + NEW - 50
        assert top(index, "new2100") == "zk:bulk:n2100"


def test_a_garbage_index_file_is_rebuilt(indexed: Path) -> None:
    db = index_path(indexed)
    db.write_bytes(os.urandom(db.stat().st_size))
    with Index.open(indexed) as index:
        assert index.rebuilt and index.count() == 0
        index.update(load_workspace(indexed))
        assert top(index, "edited7") == "zk:bulk:n7"


# --- the triage log -------------------------------------------------------------------

# Records decisions until killed, printing each number once `record` has returned.
TRIAGE_CHILD = """
import sys
from engine.review.relations import EdgeKey
from engine.review.triage import record

root, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
go = sys.argv[4] if len(sys.argv) > 4 else None
if go:
    from pathlib import Path
    # Spin rather than sleep, so both writers start within moments of each other.
    while not Path(go).exists():
        pass
n = 0
while count == 0 or n < count:
    record(root, EdgeKey(f"{worker}-{n}", "finance", "z"), "confirmed", note="x" * 200)
    print(n, flush=True)
    n += 1
"""


def log_lines(root: Path) -> int:
    path = root / LOG_PATH
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize("tear", [False, True], ids=["as-killed", "tail-torn-after"])
def test_a_killed_triage_writer_leaves_whole_lines_and_the_next_record_is_clean(
    tmp_path: Path, tear: bool
) -> None:
    with child(TRIAGE_CHILD, tmp_path, "w", 0) as proc:
        wait_for(lambda: log_lines(tmp_path) >= 100, "100 decisions in the log")
        acknowledged = [int(line) for line in kill9(proc).split()]
    read = read_log(tmp_path)
    ids = [entry.edge.practice_id for entry in read.entries]
    # Every whole line parses, in order, and every acknowledged decision is there.
    assert ids == [f"w-{n}" for n in range(len(ids))]
    assert acknowledged == list(range(len(acknowledged)))
    assert len(ids) >= len(acknowledged) >= 99
    # At most one torn line: a kill can stop a write that straddles a page.
    assert read.problems in {(), (f"line {len(ids) + 1}: incomplete last line ignored",)}
    torn = len(read.problems)
    if tear and not torn:
        # As a power cut can: the tail of the last write never reached the disk.
        log = tmp_path / LOG_PATH
        with log.open("r+b") as stream:
            stream.truncate(log.stat().st_size - 40)
        ids.pop()
        torn = 1
        assert read_log(tmp_path).problems[-1].endswith("incomplete last line ignored")
    after = EdgeKey("after-the-crash", "finance", "z")
    record(tmp_path, after, TriageDecision.DISMISSED)
    read = read_log(tmp_path)
    # The new decision starts its own line: it is not glued to a torn fragment.
    assert [e.edge.practice_id for e in read.entries] == [*ids, after.practice_id]
    assert read.state()[after] is TriageDecision.DISMISSED
    assert len(read.problems) == torn


def test_two_writers_started_together_lose_nothing(tmp_path: Path) -> None:
    go = tmp_path / "go"
    with (
        child(TRIAGE_CHILD, tmp_path, "a", 200, go) as first,
        child(TRIAGE_CHILD, tmp_path, "b", 200, go) as second,
    ):
        go.touch()
        assert [first.wait(timeout=DEADLINE), second.wait(timeout=DEADLINE)] == [0, 0]
    read = read_log(tmp_path)
    assert read.problems == ()
    assert len(read.entries) == log_lines(tmp_path) == 400
    for worker in ("a", "b"):
        mine = [e.edge.practice_id for e in read.entries if e.edge.practice_id.startswith(worker)]
        assert mine == [f"{worker}-{n}" for n in range(200)]
