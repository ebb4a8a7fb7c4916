"""A workspace opened for work: notes loaded, index up to date, and a worker that calls it."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from engine.workspace.index import Index, UpdateStats
from engine.workspace.stores import LoadProblem, Workspace
from engine.workspace.stores import open_workspace as load_workspace


@dataclass(frozen=True, eq=False)
class OpenWorkspace:
    """A loaded workspace with its index brought up to date."""

    workspace: Workspace
    index: Index
    stats: UpdateStats

    @property
    def root(self) -> Path:
        return self.workspace.root

    @property
    def report(self) -> tuple[LoadProblem, ...]:
        return self.workspace.report

    def close(self) -> None:
        self.index.close()


def open_workspace(path: str | os.PathLike[str]) -> OpenWorkspace:
    """Load the workspace at `path` and update its index (only changed notes are reindexed)."""
    workspace = load_workspace(path)
    index = Index.open(workspace.root)
    stats = index.update(workspace)
    return OpenWorkspace(workspace, index, stats)


class Worker:
    """An opened workspace whose engine calls run one at a time on its own thread.

    Sessions share the workspace, so calls are serialised; a long call (an overlay build)
    can be submitted and watched while the page shows its progress.
    """

    def __init__(self, root: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="synapse-workspace")
        # Opening runs on the worker's thread, so a page can draw before the load finishes.
        self._opening: Future = self.submit(open_workspace, root)

    @property
    def opened(self) -> OpenWorkspace:
        """The opened workspace, waiting for the load; raises the load's WorkspaceError."""
        return self._opening.result()

    def ready(self, *, wait: float = 0.0) -> bool:
        """Whether the load has finished, well or not, after waiting up to `wait` seconds."""
        if wait > 0:
            futures.wait([self._opening], timeout=wait)
        return self._opening.done()

    def failure(self) -> BaseException | None:
        """The load's exception once it finished with one, else None."""
        return self._opening.exception() if self._opening.done() else None

    def call(self, fn: Callable, /, *args, **kwargs):
        return self.submit(fn, *args, **kwargs).result()

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        return self._pool.submit(fn, *args, **kwargs)

    def close(self) -> None:
        """Close the index once the load is over (queued behind it on the worker's thread)."""

        def finish() -> None:
            if self._opening.exception() is None:
                self._opening.result().close()

        self.call(finish)
        self._pool.shutdown(wait=False)
