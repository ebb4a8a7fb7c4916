"""Which contradictions contest a node, and which are only disclosed beside an answer.

A workspace chooses with `contest` in `workspace.toml`: `"confirmed"` (the default) lets
only contradictions a reviewer confirmed in triage contest a node; `"unreviewed"` lets
every overlay contradiction not dismissed contest as well (the gate's edges are trusted).
Under the default, an overlay contradiction nobody has confirmed or dismissed is still
disclosed on any answer that cites one of its notes, with a link to review it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core.model import Edge
from engine.review.overlay import Overlay, load_overlay
from engine.review.relations import EdgeKey, Relation
from engine.review.triage import TriageDecision, state
from engine.workspace.settings import ContestScope, read_settings
from engine.workspace.stores import Workspace

__all__ = ["ContestScope", "ReviewScope", "contest_scope", "disclose", "review_scope", "scope_of"]


class ReviewState(StrEnum):
    """Where a contradiction stands in triage."""

    CONFIRMED = "confirmed"
    UNREVIEWED = "unreviewed"
    FOLLOW_UP = "follow-up"
    PRACTICE_WRONG = "practice-wrong"  # our practice note is the wrong side; never contests


def contest_scope(root: str | os.PathLike[str]) -> ContestScope:
    """The workspace's `contest` setting; `confirmed` when it is not set.

    Raises ConfigError naming the problem when the setting is there but unusable.
    """
    return read_settings(root).contest()


@dataclass(frozen=True)
class Contradiction:
    """One contradiction in review, with its triage state and what the overlay said of it."""

    key: EdgeKey
    state: ReviewState
    contests: bool  # whether it makes its endpoints contested under the workspace's scope
    confidence: float | None = None  # None: confirmed in triage, no longer in the overlay
    cue: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "edge": self.key.to_dict(),
            "practice": self.key.practice_address,
            "canon": self.key.canon_address,
            "state": self.state.value,
            "contests": self.contests,
            "confidence": self.confidence,
            "cue": self.cue,
        }


@dataclass(frozen=True)
class ReviewScope:
    """Every contradiction in review for a workspace, and the scope that decides which contest."""

    scope: ContestScope
    contradictions: tuple[Contradiction, ...]

    def edges(self) -> list[Edge]:
        """The `contradicts` edges the router honours: those that contest, practice → canon."""
        return [
            Edge(c.key.practice_address, c.key.canon_address, Relation.CONTRADICTS.value)
            for c in self.contradictions
            if c.contests
        ]

    def touching(self, refs: set[str] | frozenset[str]) -> tuple[Contradiction, ...]:
        """The contradictions with an endpoint among `refs` (say an answer's cited nodes).

        A pair whose practice note a reviewer marked wrong touches only where that note is
        among `refs`: the canon claim it was about stands.
        """
        return tuple(
            c
            for c in self.contradictions
            if c.key.practice_address in refs
            or (c.key.canon_address in refs and c.state is not ReviewState.PRACTICE_WRONG)
        )


def scope_of(
    overlay: Overlay | None,
    decisions: dict[EdgeKey, TriageDecision] | None,
    scope: ContestScope = ContestScope.CONFIRMED,
) -> ReviewScope:
    """The contradictions in review: confirmed in triage, or in the overlay and not settled.

    Only `confirmed` contests the canon claim; a pair decided `practice-wrong`,
    `scope-differs` or `dismissed` neither contests nor is disclosed as unreviewed.
    """
    decisions = decisions or {}
    found: dict[EdgeKey, Contradiction] = {}
    for edge in overlay.edges if overlay is not None else ():
        decision = decisions.get(edge.key)
        if decision is TriageDecision.PRACTICE_WRONG:
            continue  # added below, whatever the overlay now says of the pair
        if edge.relation is not Relation.CONTRADICTS or (decision and decision.settled):
            continue  # not a contradiction, or a reviewer said both stand
        if decision is TriageDecision.CONFIRMED:
            status = ReviewState.CONFIRMED
        elif decision is TriageDecision.FOLLOW_UP:
            status = ReviewState.FOLLOW_UP
        else:
            status = ReviewState.UNREVIEWED
        contests = status is ReviewState.CONFIRMED or scope is ContestScope.UNREVIEWED
        found[edge.key] = Contradiction(edge.key, status, contests, edge.confidence, edge.cue)
    typed = {e.key: e for e in overlay.edges} if overlay is not None else {}
    for key, decision in decisions.items():
        # A confirmation stands even when a rebuilt overlay no longer has the edge.
        if decision is TriageDecision.CONFIRMED and key not in found:
            found[key] = Contradiction(key, ReviewState.CONFIRMED, True)
        elif decision is TriageDecision.PRACTICE_WRONG:
            # Our practice note is the wrong side: disclosed where the note is cited, and the
            # canon claim is never contested by it.
            seen = typed.get(key)
            confidence, cue = (seen.confidence, seen.cue) if seen is not None else (None, "")
            found[key] = Contradiction(key, ReviewState.PRACTICE_WRONG, False, confidence, cue)
    return ReviewScope(scope, tuple(found[k] for k in sorted(found)))


def review_scope(root: str | os.PathLike[str]) -> ReviewScope:
    """The review scope of the workspace at `root`; raises ConfigError for a bad setting."""
    return scope_of(load_overlay(root), state(root), contest_scope(root))


@dataclass(frozen=True)
class Disclosed:
    """A contradiction on a node an answer cites, with both notes' titles for the reader."""

    contradiction: Contradiction
    cited: str  # the cited node it touches
    practice_title: str
    canon_title: str

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.contradiction.to_dict(),
            "edge_id": self.contradiction.key.token,
            "cited": self.cited,
            "practice_title": self.practice_title,
            "canon_title": self.canon_title,
        }


@dataclass(frozen=True)
class Disclosure:
    """The contradictions touching an answer's cited nodes, and the scope that applied."""

    scope: ContestScope
    items: tuple[Disclosed, ...] = ()

    @property
    def unreviewed(self) -> tuple[Disclosed, ...]:
        """Those that were disclosed but did not contest (no reviewer confirmed them)."""
        return tuple(
            d
            for d in self.items
            if not d.contradiction.contests
            and d.contradiction.state is not ReviewState.PRACTICE_WRONG
        )

    @property
    def practice_wrong(self) -> tuple[Disclosed, ...]:
        """Cited practice notes a reviewer marked as the wrong side of a contradiction."""
        return tuple(d for d in self.items if d.contradiction.state is ReviewState.PRACTICE_WRONG)

    @property
    def contesting(self) -> tuple[Disclosed, ...]:
        return tuple(d for d in self.items if d.contradiction.contests)

    def summary(self) -> str:
        """One line for the answer's banner, or "" when nothing touches the cited nodes."""
        parts = []
        if self.contesting:
            n = len(self.contesting)
            parts.append(
                f"{n} contradiction{'s' * (n != 1)} contest{'s' * (n == 1)} a cited source"
            )
        if self.unreviewed:
            n = len(self.unreviewed)
            parts.append(
                f"{n} unreviewed contradiction{'s' * (n != 1)} against a cited source — review "
                + ("it" if n == 1 else "them")
            )
        if self.practice_wrong:
            n = len({d.contradiction.key.practice_address for d in self.practice_wrong})
            parts.append(f"{n} cited practice note{'s' * (n != 1)} marked wrong by a reviewer")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope.value,
            "summary": self.summary(),
            "items": [d.to_dict() for d in self.items],
        }


def disclose(review: ReviewScope, cited: Iterable[str], workspace: Workspace) -> Disclosure:
    """The contradictions of `review` with an endpoint among the `cited` nodes, in key order."""
    refs = list(dict.fromkeys(cited))
    items = []
    for found in review.touching(set(refs)):
        key = found.key
        touched = key.canon_address if key.canon_address in refs else key.practice_address
        items.append(
            Disclosed(
                found,
                touched,
                _title(workspace, key.practice_address, key.practice_id),
                _title(workspace, key.canon_address, key.canon_id),
            )
        )
    return Disclosure(review.scope, tuple(items))


def _title(workspace: Workspace, address: str, fallback: str) -> str:
    note = workspace.note(address)
    return note.title if note is not None and note.title else fallback
