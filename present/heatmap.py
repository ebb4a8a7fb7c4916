"""The claim matrix as a plotly heatmap: hue by relation, depth by confidence."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go

from engine.core.text import shorten
from present.markup import esc, relation_colours, triage_marks

_relation_band = {"supports": 0, "contradicts": 1, "extends": 2}


def _band_scale() -> list[list]:
    """A colour scale in three bands, one per relation, each from pale to its full colour."""
    scale: list[list] = []
    for name, band in _relation_band.items():
        # Bands meet without blending; the scale must still end exactly at 1.
        low, high = band / 3, min(1.0, (band + 1) / 3 - 1e-6 * (band < 2))
        scale += [[low, _tint(relation_colours[name], 0.15)], [high, relation_colours[name]]]
    return scale


def _tint(colour: str, amount: float) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(255 - (255 - c) * amount) for c in (red, green, blue)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def matrix_figure(frame: pd.DataFrame, *, limit: int = 40) -> go.Figure:
    """Practice × canon heatmap: hue by relation, depth by confidence, escaped labels.

    Only the first `limit` practice entries and canon notes (in the frame's priority order)
    are drawn; an invisible marker on every cell carries its row number for selection.
    """
    rows = list(dict.fromkeys(frame["memory_id"]))[:limit]
    shown = frame[frame["memory_id"].isin(rows)]
    cols = list(dict.fromkeys(shown["zk_address"]))[:limit]
    shown = shown[shown["zk_address"].isin(cols)]
    z = [[None] * len(cols) for _ in rows]
    text = [[""] * len(cols) for _ in rows]
    hover = []
    for number, cell in shown.iterrows():
        r, c = rows.index(cell["memory_id"]), cols.index(cell["zk_address"])
        z[r][c] = _relation_band.get(cell["relation"], 0) + 0.1 + 0.85 * float(cell["confidence"])
        marks = ("⚑" if cell["contested"] else "") + triage_marks.get(cell["triage"] or "", "")
        text[r][c] = marks
        hover.append(_cell_hover(cell, number))
    titles = dict(zip(frame["memory_id"], frame["memory_title"], strict=False))
    canon = dict(zip(frame["zk_address"], frame["zk_title"], strict=False))
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
            zmax=3,
            showscale=False,
            xgap=2,
            ygap=2,
        )
    )
    # Heatmap cells cannot be clicked to select; a near-invisible marker on each cell can,
    # and it carries the hover text and the cell's row number.
    figure.add_trace(
        go.Scatter(
            x=list(shown["zk_address"]),
            y=list(shown["memory_id"]),
            customdata=list(shown.index),
            hovertext=hover,
            hovertemplate="%{hovertext}<extra></extra>",
            mode="markers",
            marker={"size": 18, "opacity": 0.01, "symbol": "square"},
            showlegend=False,
        )
    )
    figure.update_layout(
        height=max(360, 24 * len(rows) + 240),
        plot_bgcolor="#f7f7f7",
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        xaxis={
            "tickvals": cols,
            "ticktext": [esc(shorten(canon.get(a, a), 24)) for a in cols],
            "tickangle": -60,
            "side": "top",
            "automargin": True,
        },
        yaxis={
            "tickvals": rows,
            "ticktext": [esc(shorten(titles.get(m, m), 40)) for m in rows],
            "autorange": "reversed",
            "automargin": True,
        },
        clickmode="event+select",
        dragmode=False,
    )
    return figure


def picked_row(event: Mapping | None, rows: int) -> int | None:
    """The row number a selection on `matrix_figure` picked, or None (also when out of range)."""
    points = (event or {}).get("selection", {}).get("points", [])
    picked = points[0].get("customdata") if points else None
    return picked if isinstance(picked, int) and picked < rows else None


def _cell_hover(cell: pd.Series, number: int) -> str:
    strength = cell["claim_strength"]
    lines = [
        f"<b>{esc(shorten(cell['memory_title'], 60))}</b> ({esc(cell['memory_id'])})",
        f"× <b>{esc(shorten(cell['zk_title'], 60))}</b> ({esc(cell['zk_address'])})",
        f"{esc(cell['relation'])} · confidence {cell['confidence']:.2f}"
        + ("" if pd.isna(strength) else f" · claim strength {strength:.2f}"),
    ]
    if cell["high_value"]:
        lines.append("high value")
    if cell["contested"]:
        lines.append("contested")
    if cell["triage"]:
        lines.append(f"triage: {esc(cell['triage'])}")
    lines.append(f"cell {number + 1}")
    return "<br>".join(lines)
