"""A workspace opened for work: notes loaded, index up to date, and a worker that calls it."""

from __future__ import annotations

import os
from collections.abc import Callable
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

    @property
    def notice(self) -> str:
        """Why the index lives in memory for this run, or an empty string."""
        return self.index.notice

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
        self.opened: OpenWorkspace = self.call(open_workspace, root)

    def call(self, fn: Callable, /, *args, **kwargs):
        return self.submit(fn, *args, **kwargs).result()

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        return self._pool.submit(fn, *args, **kwargs)

    def close(self) -> None:
        self.call(self.opened.close)
        self._pool.shutdown(wait=False)
