"""The claim matrix as a reviewer downloads it: each pair's two sentences, its cue, and the
decision standing on it with its note, who made it and when.

The rows and columns of the matrix frame are kept (ids stay in a download, where a
spreadsheet or script can join on them); the reader's columns are appended.
"""

from __future__ import annotations

import os

import pandas as pd

from engine.review.cell import compared_texts, cue_label, edge_key
from engine.review.overlay import Overlay, OverlayEdge
from engine.review.relations import EdgeKey
from engine.review.synthesis import cell_material
from engine.review.triage import read_log
from engine.workspace.opened import OpenWorkspace

READER_COLUMNS = (
    "practice_text",
    "canon_text",
    "cue_label",
    "decision",
    "note",
    "decided_by",
    "decided_at",
)


def review_export(
    frame: pd.DataFrame,
    overlay: Overlay | None,
    opened: OpenWorkspace,
    root: str | os.PathLike[str],
) -> pd.DataFrame:
    """`frame` (matrix rows) with `READER_COLUMNS` appended, for the CSV download.

    `decision` is the standing decision ("" when unreviewed or reset); `note`, `decided_by`
    and `decided_at` are that decision's. A pair whose notes left the workspace has empty
    sentences.
    """
    edges: dict[EdgeKey, OverlayEdge] = {e.key: e for e in (overlay.edges if overlay else ())}
    standing = read_log(root).latest()
    extra: dict[str, list[str]] = {name: [] for name in READER_COLUMNS}
    for _, row in frame.iterrows():
        key = edge_key(row)
        edge = edges.get(key)
        material = cell_material(opened, edge) if edge is not None else None
        practice, canon = (
            compared_texts(opened, edge, material)
            if edge is not None and material is not None
            else ("", "")
        )
        entry = standing.get(key)
        extra["practice_text"].append(practice)
        extra["canon_text"].append(canon)
        extra["cue_label"].append(cue_label(str(row.get("cue") or "")))
        extra["decision"].append(entry.decision.value if entry else "")
        extra["note"].append(entry.note if entry else "")
        extra["decided_by"].append(entry.by if entry else "")
        extra["decided_at"].append(entry.at if entry else "")
    return frame.assign(**extra)
