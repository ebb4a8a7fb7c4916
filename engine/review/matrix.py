"""The practice × canon matrix as a pandas table, its filters, high-value cells and debate map.

High value: every contradiction (candidate real-world counter-evidence), and otherwise a
strong canon claim (strength ≥ `STRONG_CLAIM`) met by a confident relation (confidence ≥
`HIGH_CONFIDENCE`). An unknown strength is not strong. Only high-value cells get a brief.

Contested: a canon note is contested when a contradiction on it contests under the
workspace's scope (see `engine.review.contest`): a confirmed triage decision, and an
overlay contradiction not dismissed only when the workspace opts in. The same rule drives
the router, so the matrix and the answers never disagree.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import pandas as pd

from engine.review.band_precision import measured
from engine.review.contest import ContestScope, contest_scope, scope_of
from engine.review.overlay import Overlay
from engine.review.relations import EdgeKey, Relation
from engine.review.triage import TriageDecision, practice_flags, read_log
from engine.text.lines import shorten
from engine.workspace.stores import Workspace

STRONG_CLAIM = 0.7
# What makes a spreadsheet read a cell as a formula (OWASP CSV injection guidance).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
HIGH_CONFIDENCE = 0.8

COLUMNS = (
    "edge_id",
    "practice_id",
    "practice_title",
    "practice_label",
    "canon_address",
    "canon_source",
    "canon_id",
    "canon_title",
    "canon_label",
    "relation",
    "confidence",
    "cue",
    "measured",
    "claim_strength",
    "priority",
    "high_value",
    "contested",
    "triage",
    "practice_wrong",
    "disagreement",
)


def is_high_value(relation: Relation | str, strength: float | None, confidence: float) -> bool:
    """Whether a cell deserves a brief: any contradiction or possible tension, or a strong
    claim, confidently."""
    if relation in (Relation.CONTRADICTS, Relation.TENSION):
        return True
    return (strength or 0.0) >= STRONG_CLAIM and confidence >= HIGH_CONFIDENCE


def edge_id(key: EdgeKey) -> str:
    """A stable one-string name for an edge, for selections and links."""
    return key.token


def distinct_labels(titles: dict[str, str], *, width: int = 60) -> dict[str, str]:
    """A one-line label per id: the title clipped to `width`, its id added where labels repeat."""
    clipped = {key: shorten(title or key, width) for key, title in titles.items()}
    seen: dict[str, int] = {}
    for label in clipped.values():
        seen[label] = seen.get(label, 0) + 1
    return {
        key: (f"{label} [{key}]" if seen[label] > 1 else label) for key, label in clipped.items()
    }


def review_matrix(
    overlay: Overlay, workspace: Workspace, root: str | os.PathLike[str]
) -> tuple[pd.DataFrame, ContestScope]:
    """The matrix with the triage state of the workspace at `root`, and its contest scope.

    Raises ConfigError for an unusable `contest` setting.
    """
    scope = contest_scope(root)
    log = read_log(root)
    frame = matrix_frame(
        overlay, workspace, triage=log.state(), scope=scope, disagreeing=log.disagreements()
    )
    return frame, scope


# The downloaded CSV keeps the column names it had before the stores were named practice
# and canon, so a spreadsheet or script reading it keeps working.
CSV_NAMES = {
    "practice_id": "memory_id",
    "practice_title": "memory_title",
    "practice_label": "memory_label",
    "canon_address": "zk_address",
    "canon_source": "zk_source",
    "canon_id": "zk_id",
    "canon_title": "zk_title",
    "canon_label": "zk_label",
}


def matrix_frame(
    overlay: Overlay | None,
    workspace: Workspace,
    *,
    triage: dict[EdgeKey, TriageDecision] | None = None,
    scope: ContestScope = ContestScope.CONFIRMED,
    disagreeing: Collection[EdgeKey] = (),
) -> pd.DataFrame:
    """One row per overlay edge, in the overlay's priority order, with `COLUMNS`.

    `triage` is the current triage state; `triage` column holds the decision that acts or
    "", and `disagreement` whether the edge is among `disagreeing` (reviewers differ).
    `contested` follows the workspace's contest `scope`, as the router does. The label
    columns are distinct: a title shared by two notes carries the note's id.
    """
    decisions = triage or {}
    review = scope_of(overlay, decisions, scope)
    contested = {c.key.canon_address for c in review.contradictions if c.contests}
    wrong = practice_flags(decisions)
    edges = overlay.edges if overlay is not None else ()
    typer = overlay.typer if overlay is not None else ""
    practice_titles, canon_titles = {}, {}
    for edge in edges:
        practice = workspace.note(edge.key.practice_address)
        canon = workspace.note(edge.key.canon_address)
        practice_titles[edge.practice_id] = practice.title if practice else edge.practice_id
        canon_titles[edge.key.canon_address] = canon.title if canon else edge.canon_id
    practice_labels = distinct_labels(practice_titles)
    canon_labels = distinct_labels(canon_titles)
    rows = []
    for edge in edges:
        key = edge.key
        decision = decisions.get(key)
        rows.append(
            {
                "edge_id": edge_id(key),
                "practice_id": edge.practice_id,
                "practice_title": practice_titles[edge.practice_id],
                "practice_label": practice_labels[edge.practice_id],
                "canon_address": key.canon_address,
                "canon_source": edge.canon_source,
                "canon_id": edge.canon_id,
                "canon_title": canon_titles[key.canon_address],
                "canon_label": canon_labels[key.canon_address],
                "relation": edge.relation.value,
                "confidence": edge.confidence,
                "cue": edge.cue if edge.relation.candidate else "",
                "measured": measured(edge.relation, edge.confidence, typer),
                "claim_strength": edge.claim_strength,
                "priority": edge.priority,
                "high_value": is_high_value(edge.relation, edge.claim_strength, edge.confidence),
                "contested": key.canon_address in contested,
                "triage": decision.value if decision else "",
                "practice_wrong": key.practice_address in wrong,
                "disagreement": key in disagreeing,
            }
        )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    # An empty frame would type every column as object; keep the numeric ones numeric.
    return frame.astype({"confidence": float, "priority": float, "claim_strength": float})


def filter_frame(
    frame: pd.DataFrame,
    *,
    relations: Iterable[str] | None = None,
    min_confidence: float = 0.0,
    high_value_only: bool = False,
    contested_only: bool = False,
    text: str = "",
    pending_only: bool = False,
) -> pd.DataFrame:
    """The rows of a `matrix_frame` that pass every given filter, order kept.

    `text` keeps rows whose practice or canon title or id contains it (case ignored);
    `pending_only` keeps the rows a reviewer can triage (contradictions and possible
    tensions) that no reviewer has decided.
    """
    keep = frame["confidence"] >= min_confidence
    if relations is not None:
        keep &= frame["relation"].isin([str(r) for r in relations])
    if high_value_only:
        keep &= frame["high_value"].astype(bool)
    if contested_only:
        keep &= frame["contested"].astype(bool)
    if pending_only:
        keep &= (frame["triage"] == "") & frame["relation"].isin(_CANDIDATES)
    needle = text.strip().casefold()
    if needle:
        haystack = (
            frame["practice_title"] + "\n" + frame["canon_title"] + "\n" + frame["edge_id"]
        ).str.casefold()
        keep &= haystack.str.contains(needle, regex=False)
    return frame[keep].reset_index(drop=True)


_CANDIDATES = (Relation.CONTRADICTS.value, Relation.TENSION.value)


class QueueOrder(StrEnum):
    """How the edge queue is sorted."""

    PENDING = "pending first"
    PRIORITY = "priority"
    CONFIDENCE = "confidence"
    PRACTICE = "practice title"
    CANON = "canon title"


def sort_queue(frame: pd.DataFrame, order: QueueOrder | str = QueueOrder.PENDING) -> pd.DataFrame:
    """The rows in the chosen order; ties keep the overlay's priority order."""
    order = QueueOrder(order)
    if order is QueueOrder.PRIORITY:
        out = frame.sort_values("priority", ascending=False, kind="stable")
    elif order is QueueOrder.CONFIDENCE:
        out = frame.sort_values("confidence", ascending=False, kind="stable")
    elif order is QueueOrder.PRACTICE:
        out = frame.sort_values("practice_label", key=lambda c: c.str.casefold(), kind="stable")
    elif order is QueueOrder.CANON:
        out = frame.sort_values("canon_label", key=lambda c: c.str.casefold(), kind="stable")
    else:
        # Undecided contradictions first (what needs a reviewer), then undecided possible
        # tensions, each likeliest first (its typer's confidence, which its band prices),
        # then the rest by priority.
        undecided = frame["triage"] == ""
        rank = 2 - 2 * (undecided & (frame["relation"] == Relation.CONTRADICTS.value)).astype(int)
        rank -= (undecided & (frame["relation"] == Relation.TENSION.value)).astype(int)
        likely = frame["confidence"].where(rank < 2, 0.0)
        out = frame.assign(_rank=rank, _likely=likely)
        out = out.sort_values(
            ["_rank", "_likely", "priority"], ascending=[True, False, False], kind="stable"
        )
        out = out.drop(columns=["_rank", "_likely"])
    return out.reset_index(drop=True)


@dataclass(frozen=True)
class Page:
    """One page of a sequence: items [start, stop) of `total`, page `number` of `pages`."""

    number: int
    pages: int
    start: int
    stop: int
    total: int

    @classmethod
    def of(cls, total: int, number: int, size: int) -> Page:
        """Page `number` (0-based, clamped into range) of `total` items, `size` a page."""
        if size < 1:
            raise ValueError("page size must be at least 1")
        pages = max(1, -(-total // size))
        number = min(max(0, number), pages - 1)
        return cls(number, pages, number * size, min(total, (number + 1) * size), total)

    def caption(self, noun: str) -> str:
        """ "showing 41–80 of 141 rows", or "no rows" when there are none."""
        if self.total == 0:
            return f"no {noun}"
        return f"showing {self.start + 1:,}–{self.stop:,} of {self.total:,} {noun}"


def page_rows(frame: pd.DataFrame, page: Page) -> pd.DataFrame:
    """The rows of `frame` on `page`, renumbered from 0."""
    return frame.iloc[page.start : page.stop].reset_index(drop=True)


def relations_in(frame: pd.DataFrame) -> list[str]:
    """The relations a matrix frame holds, sorted, for a filter's choices."""
    return sorted(set(frame["relation"]))


def to_csv(frame: pd.DataFrame) -> str:
    """The table as CSV text (header row under the names in `CSV_NAMES`, no index), for download.

    A text cell a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a
    tab or a carriage return, say a note title `=HYPERLINK(…)`) gets a leading `'`, as
    spreadsheet-safe exporters do, so opening the file never runs it.
    """
    # Rows end in CRLF (RFC 4180): with a bare LF terminator a field holding a carriage
    # return is left unquoted, which splits the row in every reader.
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([CSV_NAMES.get(name, name) for name in frame.columns])
    for row in frame.itertuples(index=False, name=None):
        writer.writerow(["" if _missing(value) else neutralise_formula(value) for value in row])
    return buffer.getvalue()


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def neutralise_formula(value: object) -> object:
    """`value` with a `'` in front when it is text a spreadsheet would evaluate."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


@dataclass(frozen=True)
class DebateEntry:
    """Where practice stands on one canon note: practice ids supporting and contradicting it."""

    canon_address: str
    supporting: tuple[str, ...]
    contradicting: tuple[str, ...]
    dismissed: tuple[str, ...]
    contested: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "zk_address": self.canon_address,  # the key the JSON has always had
            "supporting": list(self.supporting),
            "contradicting": list(self.contradicting),
            "dismissed": list(self.dismissed),
            "contested": self.contested,
        }


def debate_map(
    overlay: Overlay | None,
    *,
    triage: dict[EdgeKey, TriageDecision] | None = None,
    scope: ContestScope = ContestScope.CONFIRMED,
) -> list[DebateEntry]:
    """Per canon note with a supporting or contradicting practice entry, in address order.

    `contradicting` lists the contradictions that contest under `scope` (confirmed in
    triage; with `unreviewed`, overlay ones not dismissed too); `dismissed` lists overlay
    contradictions a reviewer dismissed. A confirmed triage decision counts even if the
    overlay no longer has it.
    """
    decisions = triage or {}
    support: dict[str, set[str]] = {}
    against: dict[str, set[str]] = {}
    dismissed: dict[str, set[str]] = {}
    for edge in overlay.edges if overlay is not None else ():
        key = edge.key
        if edge.relation is Relation.SUPPORTS:
            support.setdefault(key.canon_address, set()).add(edge.practice_id)
        elif (
            edge.relation is Relation.CONTRADICTS and decisions.get(key) == TriageDecision.DISMISSED
        ):
            dismissed.setdefault(key.canon_address, set()).add(edge.practice_id)
    for found in scope_of(overlay, decisions, scope).contradictions:
        if found.contests:
            against.setdefault(found.key.canon_address, set()).add(found.key.practice_id)
    addresses = sorted(support.keys() | against.keys() | dismissed.keys())
    return [
        DebateEntry(
            canon_address=address,
            supporting=tuple(sorted(support.get(address, ()))),
            contradicting=tuple(sorted(against.get(address, ()))),
            dismissed=tuple(sorted(dismissed.get(address, ()))),
            contested=bool(against.get(address)),
        )
        for address in addresses
    ]
