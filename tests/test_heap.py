"""The heap helpers: a cycle collector paused for a burst, and resumed as it was found."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.heap import collections_paused
from engine.datasets.scifact import finding_note
from engine.datasets.sections import sectioned
from engine.workspace.stores import load_workspace


@pytest.fixture
def collector_on() -> Iterator[None]:
    was_on = gc.isenabled()
    gc.enable()
    yield
    if was_on:
        gc.enable()
    else:
        gc.disable()


def test_collection_is_off_inside_and_on_again_after(collector_on: None) -> None:
    with collections_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_still_resumes_collection(collector_on: None) -> None:
    with pytest.raises(RuntimeError), collections_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off(collector_on: None) -> None:
    gc.disable()
    with collections_paused():
        pass
    assert not gc.isenabled()


def test_loading_a_workspace_runs_no_collection_and_leaves_it_on(
    collector_on: None, tmp_path: Path
) -> None:
    box = tmp_path / ".zettelkasten" / "papers"
    box.mkdir(parents=True)
    for n in range(400):
        text = finding_note(f"p{n}", f"Paper {n}", sectioned([f"Finding {n} holds in cohort {n}."]))
        (box / f"p{n}.md").write_text(text, encoding="utf-8")
    started: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(note)
    try:
        workspace = load_workspace(tmp_path)
    finally:
        gc.callbacks.pop()
    assert len(workspace.notes) == 400 and gc.isenabled()
    # Unpaused, the load's thousands of objects start a collection every 700 or so; paused,
    # at most the one owed runs as it ends.
    assert len(started) <= 1, started
