"""A claim-matrix cell as a reviewer reads it, and the contradiction triage queue and log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from engine.core.text import shorten
from engine.review.matrix import is_high_value
from engine.review.overlay import EdgeKey, Overlay, OverlayEdge
from engine.review.synthesis import cell_material, synthesize
from engine.review.triage import read_log
from engine.workspace.opened import OpenWorkspace
from present.markup import esc, md_escape, triage_marks


def cell_label(row: Mapping) -> str:
    """One line naming a matrix cell: practice × canon, relation and confidence."""
    mark = triage_marks.get(row.get("triage") or "", "")
    return (
        f"{shorten(row['memory_title'], 50)} × {shorten(row['zk_title'], 50)} — "
        f"{row['relation']} {row['confidence']:.2f}" + (f" {mark}" if mark else "")
    )


def triage_queue(frame: pd.DataFrame) -> pd.DataFrame:
    """The contradictions of a matrix frame, untriaged first, then by priority."""
    queue = frame[frame["relation"] == "contradicts"].copy()
    queue["pending"] = queue["triage"].fillna("") == ""
    queue = queue.sort_values(["pending", "priority"], ascending=[False, False], kind="stable")
    return queue.drop(columns="pending").reset_index(drop=True)


def pending_count(queue: pd.DataFrame) -> int:
    """How many contradictions of a triage queue no reviewer has decided yet."""
    return int((queue["triage"] == "").sum())


def edge_key(row: Mapping) -> EdgeKey:
    """The triage key of a matrix row."""
    return EdgeKey(row["memory_id"], row["zk_source"], row["zk_id"])


def find_edge(overlay: Overlay | None, row: Mapping) -> OverlayEdge | None:
    """The overlay edge behind a matrix row."""
    key = edge_key(row)
    return next((e for e in (overlay.edges if overlay else ()) if e.key == key), None)


def cell_detail(opened: OpenWorkspace, edge: OverlayEdge) -> dict:
    """What a reviewer reads about one cell: the brief if high value, quotes and rationale."""
    material = cell_material(opened, edge)
    detail = {
        "high_value": is_high_value(edge.relation, edge.claim_strength, edge.confidence),
        "rationale": edge.rationale,
        "evidence": edge.evidence,
        "quotes": [],
        "brief": None,
        "verified": None,
        "problem": "",
        "missing": material is None,
    }
    if material is None:
        return detail
    detail["quotes"] = [{"id": q.id, "body": q.body, "page": q.page} for q in material.quotes]
    if detail["high_value"]:
        brief = synthesize(material)
        detail["brief"], detail["verified"] = brief.text, brief.verified
        if not brief.verified:
            failure = brief.check.failure.value if brief.check.failure else "failed"
            detail["problem"] = f"{failure}: {brief.check.detail}".rstrip(": ")
    return detail


def quotes_html(quotes: Sequence[Mapping]) -> str:
    """Verbatim quotes as escaped block quotes with their id and page."""
    items = []
    for quote in quotes:
        page = f", p. {esc(quote['page'])}" if quote.get("page") is not None else ""
        items.append(
            "<blockquote style='margin:6px 0;padding:4px 10px;border-left:3px solid #bbb'>"
            f"“{esc(quote['body'])}” <small style='color:#666'>[{esc(quote['id'])}{page}]</small>"
            "</blockquote>"
        )
    return "".join(items) or "<small>No stored quotes.</small>"


def triage_rows(root: str | Path, *, last: int = 10) -> list[dict]:
    """The newest triage log lines, newest first, as plain rows."""
    entries = read_log(root).entries[-last:]
    return [
        {
            "at": e.at,
            "decision": e.decision.value,
            "practice": e.edge.memory_address,
            "canon": e.edge.zk_address,
            "note": e.note,
        }
        for e in reversed(entries)
    ]


def overlay_summary(counts: Mapping) -> str:
    """The overlay's counts in one sentence, Markdown-escaped (the keys come from a file)."""
    kinds = ", ".join(f"{n:,} {name}" for name, n in (counts.get("by_relation") or {}).items())
    return md_escape(
        f"{counts.get('practice', 0):,} practice entries, {counts.get('typed', 0):,} pairs typed, "
        f"{counts.get('kept', 0):,} kept" + (f" ({kinds})" if kinds else "") + "."
    )
