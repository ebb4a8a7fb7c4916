"""The claim matrix as a plotly heatmap: hue by relation, depth by confidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from engine import (
    Address,
    EdgeKey,
    Page,
    distinct_labels,
    shorten,
)
from present.markup import esc, relation_colours, triage_marks

CLEAR = "rgba(0,0,0,0)"
GRID = "rgba(128,128,128,0.12)"
_relation_band = {"supports": 0, "contradicts": 1, "extends": 2, "tension": 3}
_BANDS = len(_relation_band)


def _band_scale() -> list[list[float | str]]:
    """A colour scale in one band per relation, each from pale to its full colour."""
    scale: list[list[float | str]] = []
    for name, band in _relation_band.items():
        # Bands meet without blending; the scale must still end exactly at 1.
        low, high = band / _BANDS, min(1.0, (band + 1) / _BANDS - 1e-6 * (band < _BANDS - 1))
        scale += [[low, _tint(relation_colours[name], 0.15)], [high, relation_colours[name]]]
    return scale


def _tint(colour: str, amount: float) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(255 - (255 - c) * amount) for c in (red, green, blue)]
    return "#" + "".join(f"{c:02x}" for c in mix)


@dataclass(frozen=True)
class HeatmapView:
    """One page of the heatmap and what it shows of the whole."""

    figure: go.Figure
    rows: Page  # practice entries, in the frame's order
    columns: Page  # canon notes met on the rows shown
    drawn: int  # edges drawn
    total: int  # edges in the frame
    column_key: tuple[tuple[str, str], ...] = ()  # (column code, canon label), in order

    def caption(self) -> str:
        """What the figure shows of the whole, in true counts."""
        return (
            f"Rows: {self.rows.caption('practice entries')}. "
            f"Columns: {self.columns.caption('canon notes on these rows')}. "
            f"{self.drawn:,} of {self.total:,} edges drawn."
        )


def heatmap_view(
    frame: pd.DataFrame,
    *,
    row_page: int = 0,
    column_page: int = 0,
    rows_per_page: int = 40,
    columns_per_page: int = 20,
) -> HeatmapView:
    """A page of the practice × canon heatmap: hue by relation, depth by confidence.

    Rows are the frame's practice entries in its order, paged; columns are the canon notes
    those rows meet, paged. Labels are escaped and distinct (a repeated title carries its
    id). An invisible marker on every cell carries the edge's token for selection.
    """
    all_rows = list(dict.fromkeys(frame["practice_id"]))
    rows_at = Page.of(len(all_rows), row_page, rows_per_page)
    rows = all_rows[rows_at.start : rows_at.stop]
    on_rows = frame[frame["practice_id"].isin(rows)]
    all_cols = list(dict.fromkeys(on_rows["canon_address"]))
    cols_at = Page.of(len(all_cols), column_page, columns_per_page)
    cols = all_cols[cols_at.start : cols_at.stop]
    shown = on_rows[on_rows["canon_address"].isin(cols)]
    titles = dict(zip(frame["practice_id"], frame["practice_title"], strict=False))
    canon = dict(zip(frame["canon_address"], frame["canon_title"], strict=False))
    row_labels = distinct_labels({m: titles.get(m, m) for m in rows}, width=32)
    col_labels = distinct_labels({a: canon.get(a, a) for a in cols}, width=90)
    # Columns carry short codes and a key below the chart: long titles on a column axis
    # become a smear on a narrow screen, and the hover still names the note in full.
    codes = [str(cols_at.start + n + 1) for n in range(len(cols))]
    figure = _figure(shown, rows, cols)
    figure.update_layout(
        height=max(320, 26 * len(rows) + 120),
        xaxis={"ticktext": codes, "tickangle": 0, "tickfont": {"size": 10}},
        yaxis={"ticktext": [esc(row_labels[m]) for m in rows]},
    )
    key = tuple(zip(codes, (col_labels[a] for a in cols), strict=True))
    return HeatmapView(figure, rows_at, cols_at, len(shown), len(frame), key)


def column_key_html(view: HeatmapView) -> str:
    """The column codes of a heatmap page with the canon note each stands for, escaped."""
    items = "".join(
        f"<span style='margin-right:12px;white-space:normal'><b>{esc(code)}</b> {esc(label)}</span>"
        for code, label in view.column_key
    )
    return f"<div class='heatmap-key' style='font-size:0.8em;line-height:1.6'>{items}</div>"


def matrix_figure(frame: pd.DataFrame, *, limit: int = 40) -> go.Figure:
    """The first page of the heatmap, at most `limit` rows and `limit` columns."""
    return heatmap_view(frame, rows_per_page=limit, columns_per_page=limit).figure


def _figure(shown: pd.DataFrame, rows: list[str], cols: list[str]) -> go.Figure:
    z: list[list[float | None]] = [[None] * len(cols) for _ in rows]
    text = [[""] * len(cols) for _ in rows]
    hover = []
    for _, cell in shown.iterrows():
        r, c = rows.index(cell["practice_id"]), cols.index(cell["canon_address"])
        z[r][c] = _relation_band.get(cell["relation"], 0) + 0.1 + 0.85 * float(cell["confidence"])
        marks = ("⚑" if cell["contested"] else "") + triage_marks.get(cell["triage"] or "", "")
        text[r][c] = marks
        hover.append(_cell_hover(cell))
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=cols,
            y=rows,
            text=text,
            texttemplate="%{text}",
            hoverinfo="skip",
            colorscale=_band_scale(),
            zmin=0,
            zmax=_BANDS,
            showscale=False,
            xgap=2,
            ygap=2,
        )
    )
    # Heatmap cells cannot be clicked to select; a near-invisible marker on each cell can,
    # and it carries the hover text and the edge's token.
    figure.add_trace(
        go.Scatter(
            x=list(shown["canon_address"]),
            y=list(shown["practice_id"]),
            customdata=[_token(cell) for _, cell in shown.iterrows()],
            hovertext=hover,
            hovertemplate="%{hovertext}<extra></extra>",
            mode="markers",
            marker={"size": 18, "opacity": 0.01, "symbol": "square"},
            showlegend=False,
        )
    )
    # No colour of its own behind the cells: the page's theme shows through (a white block in
    # the dark theme otherwise), and the grid reads in both through a translucent grey.
    figure.update_layout(
        paper_bgcolor=CLEAR,
        plot_bgcolor=GRID,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        xaxis={"tickvals": cols, "tickangle": -90, "side": "top", "automargin": True},
        yaxis={"tickvals": rows, "autorange": "reversed", "automargin": True},
        clickmode="event+select",
        dragmode=False,
    )
    return figure


def _token(cell: pd.Series) -> str:
    if "edge_id" in cell and isinstance(cell["edge_id"], str):
        return cell["edge_id"]
    address = Address.parse(str(cell["canon_address"]))
    return EdgeKey(
        cell["practice_id"], cell.get("canon_source") or address.source, address.id
    ).token


def picked_edge(event: Mapping[str, Any] | None) -> str | None:
    """The edge token a selection on the heatmap picked, or None."""
    points = (event or {}).get("selection", {}).get("points", [])
    picked = points[0].get("customdata") if points else None
    return picked if isinstance(picked, str) and EdgeKey.from_token(picked) else None


def _cell_hover(cell: pd.Series) -> str:
    strength = cell["claim_strength"]
    lines = [
        f"<b>{esc(shorten(cell['practice_title'], 60))}</b> ({esc(cell['practice_id'])})",
        f"× <b>{esc(shorten(cell['canon_title'], 60))}</b> ({esc(cell['canon_address'])})",
        f"{esc(cell['relation'])} · confidence {cell['confidence']:.2f}"
        + ("" if pd.isna(strength) else f" · claim strength {strength:.2f}"),
    ]
    if cell["high_value"]:
        lines.append("high value")
    if cell["contested"]:
        lines.append("contested")
    if cell["triage"]:
        lines.append(f"triage: {esc(cell['triage'])}")
    if cell.get("cue"):
        lines.append(f"cue: {esc(cell['cue'])}")
    return "<br>".join(lines)
