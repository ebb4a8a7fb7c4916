"""A workspace opened for work: its notes loaded and its search index brought up to date."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.index import Index, UpdateStats
from engine.stores import LoadProblem, Workspace
from engine.stores import open_workspace as load_workspace


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
