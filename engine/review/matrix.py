"""The practice × canon matrix as a pandas table, its filters, high-value cells and debate map.

High value: every contradiction (candidate real-world counter-evidence), and otherwise a
strong canon claim (strength ≥ `STRONG_CLAIM`) met by a confident relation (confidence ≥
`HIGH_CONFIDENCE`). An unknown strength is not strong. Only high-value cells get a brief.

Contested: a canon note is contested when a contradiction on it is in scope, i.e. a
confirmed triage decision or an overlay contradiction not dismissed (see `engine.review.triage`).
The same rule drives the router, so the matrix and the answers never disagree.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from engine.review.overlay import EdgeKey, Overlay
from engine.review.triage import Decision, contested_keys
from engine.review.typers import Relation
from engine.workspace.stores import Workspace

STRONG_CLAIM = 0.7
# What makes a spreadsheet read a cell as a formula (OWASP CSV injection guidance).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
HIGH_CONFIDENCE = 0.8

COLUMNS = (
    "memory_id",
    "memory_title",
    "zk_address",
    "zk_source",
    "zk_id",
    "zk_title",
    "relation",
    "confidence",
    "claim_strength",
    "priority",
    "high_value",
    "contested",
    "triage",
)


def is_high_value(relation: Relation | str, strength: float | None, confidence: float) -> bool:
    """Whether a cell deserves a brief: any contradiction, or a strong claim, confidently."""
    if relation == Relation.CONTRADICTS:
        return True
    return (strength or 0.0) >= STRONG_CLAIM and confidence >= HIGH_CONFIDENCE


def matrix_frame(
    overlay: Overlay | None,
    workspace: Workspace,
    *,
    triage: dict[EdgeKey, Decision] | None = None,
) -> pd.DataFrame:
    """One row per overlay edge, in the overlay's priority order, with `COLUMNS`.

    `triage` is the current triage state; `triage` column holds the decision or "".
    """
    decisions = triage or {}
    contested = {key.zk_address for key in contested_keys(overlay, decisions)}
    rows = []
    for edge in overlay.edges if overlay is not None else ():
        key = edge.key
        memory = workspace.note(key.memory_address)
        canon = workspace.note(key.zk_address)
        decision = decisions.get(key)
        rows.append(
            {
                "memory_id": edge.memory_id,
                "memory_title": memory.title if memory else edge.memory_id,
                "zk_address": key.zk_address,
                "zk_source": edge.zk_source,
                "zk_id": edge.zk_id,
                "zk_title": canon.title if canon else edge.zk_id,
                "relation": edge.relation.value,
                "confidence": edge.confidence,
                "claim_strength": edge.claim_strength,
                "priority": edge.priority,
                "high_value": is_high_value(edge.relation, edge.claim_strength, edge.confidence),
                "contested": key.zk_address in contested,
                "triage": decision.value if decision else "",
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
) -> pd.DataFrame:
    """The rows of a `matrix_frame` that pass every given filter, order kept."""
    keep = frame["confidence"] >= min_confidence
    if relations is not None:
        keep &= frame["relation"].isin([str(r) for r in relations])
    if high_value_only:
        keep &= frame["high_value"].astype(bool)
    if contested_only:
        keep &= frame["contested"].astype(bool)
    return frame[keep].reset_index(drop=True)


def relations_in(frame: pd.DataFrame) -> list[str]:
    """The relations a matrix frame holds, sorted, for a filter's choices."""
    return sorted(set(frame["relation"]))


def to_csv(frame: pd.DataFrame) -> str:
    """The table as CSV text (header row, no index), for download.

    A text cell a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a
    tab or a carriage return, say a note title `=HYPERLINK(…)`) gets a leading `'`, as
    spreadsheet-safe exporters do, so opening the file never runs it.
    """
    # Rows end in CRLF (RFC 4180): with a bare LF terminator a field holding a carriage
    # return is left unquoted, which splits the row in every reader.
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(list(frame.columns))
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
    """Where practice stands on one canon note: memory ids supporting and contradicting it."""

    zk_address: str
    supporting: tuple[str, ...]
    contradicting: tuple[str, ...]
    dismissed: tuple[str, ...]
    contested: bool

    def to_dict(self) -> dict:
        return {
            "zk_address": self.zk_address,
            "supporting": list(self.supporting),
            "contradicting": list(self.contradicting),
            "dismissed": list(self.dismissed),
            "contested": self.contested,
        }


def debate_map(
    overlay: Overlay | None, *, triage: dict[EdgeKey, Decision] | None = None
) -> list[DebateEntry]:
    """Per canon note with a supporting or contradicting practice entry, in address order.

    `contradicting` lists the contradictions in scope (confirmed in triage, or in the
    overlay and not dismissed); `dismissed` lists overlay contradictions a reviewer
    dismissed. A confirmed triage decision counts even if the overlay no longer has it.
    """
    decisions = triage or {}
    support: dict[str, set[str]] = {}
    against: dict[str, set[str]] = {}
    dismissed: dict[str, set[str]] = {}
    for edge in overlay.edges if overlay is not None else ():
        key = edge.key
        if edge.relation is Relation.SUPPORTS:
            support.setdefault(key.zk_address, set()).add(edge.memory_id)
        elif edge.relation is Relation.CONTRADICTS and decisions.get(key) == Decision.DISMISSED:
            dismissed.setdefault(key.zk_address, set()).add(edge.memory_id)
    for key in contested_keys(overlay, decisions):
        against.setdefault(key.zk_address, set()).add(key.memory_id)
    addresses = sorted(support.keys() | against.keys() | dismissed.keys())
    return [
        DebateEntry(
            zk_address=address,
            supporting=tuple(sorted(support.get(address, ()))),
            contradicting=tuple(sorted(against.get(address, ()))),
            dismissed=tuple(sorted(dismissed.get(address, ()))),
            contested=bool(against.get(address)),
        )
        for address in addresses
    ]
