import platform
import threading
from pathlib import Path

import pytest

from engine.core.errors import WorkspaceError
from engine.core.heap import give_back
from engine.workspace.opened import Worker


def test_a_worker_opens_in_the_background_and_serves_calls(lab_path: Path) -> None:
    worker = Worker(str(lab_path))
    try:
        assert worker.ready(wait=60)
        assert worker.failure() is None
        assert len(worker.opened.workspace.notes) > 0
        assert worker.call(lambda: worker.opened.root) == lab_path.resolve()
    finally:
        worker.close()


def test_a_failed_open_is_reported_and_raised(tmp_path: Path) -> None:
    worker = Worker(str(tmp_path / "missing"))
    try:
        assert worker.ready(wait=60)
        assert isinstance(worker.failure(), WorkspaceError)
        with pytest.raises(WorkspaceError, match="does not exist"):
            _ = worker.opened
    finally:
        worker.close()


def test_the_ranking_view_is_made_after_the_open_without_a_question(lab_path: Path) -> None:
    worker = Worker(str(lab_path))
    try:
        worker.ranking.result(timeout=60)
        assert worker.opened.index.warmed
        hits = worker.opened.index.search("momentum returns")
        assert hits  # the view made beforehand serves the first search
    finally:
        worker.close()


def test_a_failed_open_leaves_the_ranking_unmade_and_the_load_error_shown(tmp_path: Path) -> None:
    worker = Worker(str(tmp_path / "missing"))
    try:
        assert isinstance(worker.ranking.exception(timeout=60), WorkspaceError)
        assert isinstance(worker.failure(), WorkspaceError)
    finally:
        worker.close()


class Interrupted(Exception):
    """Stands for the exception a page gets when its user asks again or leaves."""


def test_an_interrupted_wait_cancels_the_model_call_and_frees_its_thread(lab_path: Path) -> None:
    worker = Worker(str(lab_path))
    cancel = threading.Event()
    started, finished = threading.Event(), threading.Event()

    def model_call() -> None:
        started.set()
        # Like the model client: ends as soon as its cancel event is set, else at a far deadline.
        cancel.wait(600)
        finished.set()

    def tick() -> None:
        if started.is_set():
            raise Interrupted

    try:
        with pytest.raises(Interrupted):
            worker.call_model(model_call, cancel=cancel, tick=tick)
        assert cancel.is_set()
        assert finished.wait(20), "the model call kept its thread after the wait was interrupted"
    finally:
        worker.close()


def test_a_wait_that_ends_normally_returns_the_result_and_cancels_nothing(lab_path: Path) -> None:
    worker = Worker(str(lab_path))
    cancel = threading.Event()
    ticks = 0
    release = threading.Event()

    def tick() -> None:
        nonlocal ticks
        ticks += 1
        release.set()

    try:
        answer = worker.call_model(lambda: release.wait(600) and 42, cancel=cancel, tick=tick)
        assert answer == 42 and ticks and not cancel.is_set()
    finally:
        worker.close()


def test_freed_memory_is_given_back_where_the_c_library_can() -> None:
    # glibc keeps what threads freed; another C library has no such call, and nothing is done.
    assert give_back() is (platform.libc_ver()[0] == "glibc")
