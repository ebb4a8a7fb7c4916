"""What review says of a workspace at one moment, read once per question.

A `ReviewSnapshot` holds the overlay, the triage decisions, the contest scope they give and
the stamp of the files they came from. The answer, the banner, the graphs and the router
all take it from the one snapshot, and the stamp keys the app's cache of answers.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.core.model import Edge
from engine.review.contest import Disclosure, ReviewScope, disclose, scope_of
from engine.review.overlay import Overlay, load_overlay
from engine.review.relations import EdgeKey, Relation
from engine.review.triage import TriageDecision, practice_flags, state
from engine.workspace.layout import REVIEW_FILES
from engine.workspace.settings import read_settings
from engine.workspace.stores import Workspace


def review_stamp(root: str | os.PathLike[str]) -> str:
    """Changes whenever the triage log, the overlay or the settings change on disk."""
    parts = []
    for relative in REVIEW_FILES:
        try:
            info = (Path(root) / relative).stat()
            parts.append(f"{info.st_size}:{info.st_mtime_ns}")
        except OSError:
            parts.append("-")
    return "|".join(parts)


@dataclass(frozen=True)
class ReviewSnapshot:
    """The overlay, the triage decisions and the contest scope, as of `stamp`."""

    stamp: str
    overlay: Overlay | None
    decisions: Mapping[EdgeKey, TriageDecision]
    scope: ReviewScope

    @classmethod
    def load(cls, root: str | os.PathLike[str]) -> ReviewSnapshot:
        """Read the workspace's review files once; raises ConfigError for a bad setting.

        The stamp is taken first, so a file written meanwhile makes the next stamp differ.
        """
        stamp = review_stamp(root)
        overlay = load_overlay(root)
        decisions = state(root)
        scope = scope_of(overlay, decisions, read_settings(root).contest())
        return cls(stamp, overlay, decisions, scope)

    @property
    def key(self) -> tuple[str, ...]:
        """A hashable key that changes with anything review would change in an answer."""
        return (self.stamp, *(f"{e.src} {e.dst} {e.relation}" for e in self.edges()))

    def edges(self) -> list[Edge]:
        """The `contradicts` edges that contest their endpoints for the router."""
        return self.scope.edges()

    def overlay_edges(self) -> tuple[Edge, ...]:
        """Every overlay edge, practice → canon, for drawing beside a walk."""
        if self.overlay is None:
            return ()
        return tuple(
            Edge(e.key.practice_address, e.key.canon_address, e.relation.value)
            for e in self.overlay.edges
        )

    def confirmed_pairs(self) -> frozenset[tuple[str, str]]:
        """(practice, canon) addresses of contradictions a reviewer confirmed."""
        return frozenset(
            (key.practice_address, key.canon_address)
            for key, decision in self.decisions.items()
            if decision.contests_canon
        )

    def confirmed_edges(self) -> list[Edge]:
        """A `contradicts` edge, practice → canon, for every confirmed triage decision."""
        return [
            Edge(key.practice_address, key.canon_address, Relation.CONTRADICTS.value)
            for key, decision in self.decisions.items()
            if decision.contests_canon
        ]

    def practice_wrong(self) -> frozenset[str]:
        """Addresses of practice notes a reviewer marked wrong on some pair."""
        return practice_flags(dict(self.decisions))

    def disclose(self, cited: Iterable[str], workspace: Workspace) -> Disclosure:
        """The contradictions touching the `cited` nodes, contesting or only disclosed."""
        return disclose(self.scope, cited, workspace)
