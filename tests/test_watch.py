"""One watcher per workspace: sessions compare its stamp; an answer's own stamp decides."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from engine.api import Answer, Freshness, OpenWorkspace, answer
from engine.navigation.navigator import NavState
from engine.navigation.steps import Action, ActionKind
from engine.workspace.freshness import closure_files
from engine.workspace.watch import Watcher

WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
SOURCE = "sources/jt1993.txt"


def watcher(root: Path, **kwargs: int) -> Watcher:
    # A long interval: only an explicit check() looks again, so counts are exact.
    return Watcher(root, interval=3600.0, **{"racy_ns": 0, **kwargs})


def same_size_edit(path: Path) -> None:
    """Change one byte, keeping the size and putting the modification time back."""
    before = path.stat()
    data = bytearray(path.read_bytes())
    data[0] = ord("x") if data[0] != ord("x") else ord("y")
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def tree(root: Path) -> dict[str, tuple[int, int, str]]:
    return {
        str(p.relative_to(root)): (
            p.stat().st_mtime_ns,
            p.stat().st_size,
            hashlib.sha256(p.read_bytes()).hexdigest(),
        )
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def winners(lab: OpenWorkspace) -> Answer:
    result = answer(lab, WINNERS)
    assert result.label == "ANSWER"
    return result


def test_two_sessions_share_one_watcher_and_hash_each_file_once(
    lab: OpenWorkspace, winners: Answer
) -> None:
    shared = watcher(lab.root)
    files = closure_files(lab.workspace, winners.run.cited)
    first, seen_a = winners.checked(lab, shared, None)
    second, seen_b = winners.checked(lab, shared, None)
    assert first is second is Freshness.CURRENT
    assert shared.counts.hashes == len(files)  # the second session read nothing
    before = shared.counts
    for _ in range(5):  # each session's timer fires again: stamps compared, nothing stat-ed
        _, seen_a = winners.checked(lab, shared, seen_a)
        _, seen_b = winners.checked(lab, shared, seen_b)
    assert shared.counts == before


def test_an_edit_is_published_once_and_a_touch_not_at_all(lab_path: Path) -> None:
    shared = watcher(lab_path)
    shared.hashes([SOURCE, "sources/jt1993.annotations.json"])
    os.utime(lab_path / SOURCE)  # a touch: the stat moves, the content does not
    assert shared.check() == 0
    with (lab_path / SOURCE).open("ab") as handle:
        handle.write(b"\n")
    assert shared.check() == 1
    assert shared.check() == 1
    assert shared.changed_since(0) == frozenset({SOURCE})
    assert shared.changed_since(1) == frozenset()


def test_a_same_size_edit_with_its_mtime_put_back_is_published(lab_path: Path) -> None:
    shared = watcher(lab_path)
    shared.hashes([SOURCE])
    same_size_edit(lab_path / SOURCE)
    assert shared.check() == 1


def test_a_file_written_just_now_is_hashed_again_at_the_next_check(lab_path: Path) -> None:
    shared = Watcher(lab_path, interval=3600.0)
    (lab_path / "fresh.txt").write_bytes(b"one")
    shared.hashes(["fresh.txt"])
    shared.check()  # inside the timestamp tick it may change with no stat moving: read again
    assert shared.counts.hashes == 2


def test_an_edit_while_the_answer_is_computed_leaves_it_stale(lab: OpenWorkspace) -> None:
    shared = watcher(lab.root)
    shared.hashes(closure_files(lab.workspace, answer(lab, WINNERS).run.cited))

    def edit_when_answering(state: NavState, action: Action) -> None:
        if action.kind is ActionKind.ANSWER:
            with (lab.root / SOURCE).open("ab") as handle:
                handle.write(b"\n")

    result = answer(lab, WINNERS, observer=edit_when_answering)
    assert result.checked(lab, shared, None)[0] is Freshness.FILES_CHANGED


def test_a_session_comparing_first_sees_an_edit_the_watcher_has_not_checked(
    lab: OpenWorkspace, winners: Answer
) -> None:
    shared = watcher(lab.root)
    shared.hashes(closure_files(lab.workspace, winners.run.cited))  # another session's
    shared.check()  # the last check: the next is an interval away
    same_size_edit(lab.root / SOURCE)
    assert winners.checked(lab, shared, None)[0] is Freshness.FILES_CHANGED
    assert shared.stamp == 1


def test_an_edit_after_a_session_found_it_current_is_seen_at_the_next_check(
    lab: OpenWorkspace, winners: Answer
) -> None:
    shared = watcher(lab.root)
    state, seen = winners.checked(lab, shared, None)
    assert state is Freshness.CURRENT
    same_size_edit(lab.root / SOURCE)
    assert winners.checked(lab, shared, seen)[0] is Freshness.CURRENT  # not looked yet
    shared.check()
    assert winners.checked(lab, shared, seen) == (Freshness.FILES_CHANGED, None)


def test_a_cited_note_edited_reads_as_notes_changed(lab: OpenWorkspace, winners: Answer) -> None:
    shared = watcher(lab.root)
    _, seen = winners.checked(lab, shared, None)
    note = lab.workspace.note(winners.run.cited[0])
    assert note is not None
    with (lab.root / note.path).open("ab") as handle:
        handle.write(b"\n")
    shared.check()
    assert winners.checked(lab, shared, seen)[0] is Freshness.NOTES_CHANGED
    assert shared.notes_changed(lab.workspace, winners.run.cited)


def test_a_seen_from_another_watcher_is_not_trusted(lab: OpenWorkspace, winners: Answer) -> None:
    _, seen = winners.checked(lab, watcher(lab.root), None)
    same_size_edit(lab.root / SOURCE)
    assert winners.checked(lab, watcher(lab.root), seen)[0] is Freshness.FILES_CHANGED


def test_a_file_dropped_beyond_the_limit_is_published_as_changed(lab_path: Path) -> None:
    shared = watcher(lab_path, limit=1)
    shared.hashes([SOURCE])
    shared.hashes(["sources/jt1993.annotations.json"])
    assert shared.watched() == {"sources/jt1993.annotations.json"}
    assert shared.changed_since(0) == frozenset({SOURCE})


def test_watching_writes_nothing(lab: OpenWorkspace, winners: Answer) -> None:
    before = tree(lab.root)
    shared = watcher(lab.root, rehash_every=1)
    _, seen = winners.checked(lab, shared, None)
    shared.check()
    winners.checked(lab, shared, seen)
    shared.notes_changed(lab.workspace, winners.run.cited)
    assert tree(lab.root) == before
