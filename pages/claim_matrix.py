"""Claim matrix: practice against canon, cell briefs, and the contradiction triage queue."""

import streamlit as st

from engine.core.errors import EngineError
from engine.review.matrix import filter_frame, matrix_frame, relations_in, to_csv
from engine.review.overlay import read_overlay
from engine.review.triage import Decision, record, state
from pages import shared
from present import cells
from present.heatmap import matrix_figure, picked_row
from present.markup import md_escape, relation_legend_html
from present.tables import table_html

st.title("Claim matrix")
worker = shared.current_worker()
if worker is None:
    st.warning("Open a workspace in the sidebar to see its claim matrix.")
    st.stop()
root = worker.opened.root
session = st.session_state


read = read_overlay(root)
if read.overlay is None:
    st.info(f"No claim overlay yet: {md_escape(read.reason)}.")
    if st.button("Build the overlay", key="matrix_build", type="primary"):
        shared.build_overlay(worker)
        st.rerun()
    st.stop()
overlay = read.overlay
frame = matrix_frame(overlay, worker.opened.workspace, triage=state(root))

built = md_escape(f"Overlay built {overlay.built_at} by {overlay.typer}: {len(frame)} edges")
with st.expander(built):
    st.caption(cells.overlay_summary(overlay.counts))
    if st.button("Rebuild the overlay", key="matrix_rebuild"):
        shared.build_overlay(worker)
        st.rerun()

relations = relations_in(frame)
left, middle, right = st.columns([3, 2, 2])
chosen = left.multiselect("Relations", relations, default=relations, key="matrix_relations")
floor = middle.slider("Minimum confidence", 0.0, 1.0, 0.0, 0.05, key="matrix_min_conf")
high = right.checkbox("High-value only", key="matrix_high_value")
contested = right.checkbox("Contested only", key="matrix_contested")
visible = filter_frame(
    frame,
    relations=chosen,
    min_confidence=floor,
    high_value_only=high,
    contested_only=contested,
)
st.caption(f"{len(visible):,} of {len(frame):,} cells visible")
st.download_button(
    "Download the visible matrix (CSV)",
    to_csv(visible),
    file_name="claim_matrix.csv",
    mime="text/csv",
    key="matrix_csv",
)
if visible.empty:
    st.info("No cell passes these filters.")
    st.stop()

st.html(relation_legend_html())
event = st.plotly_chart(
    matrix_figure(visible),
    key="matrix_chart",
    on_select="rerun",
    selection_mode="points",
    theme=None,
    config={"displaylogo": False},
)
picked = picked_row(event, len(visible))
if picked is not None and picked != session.get("matrix_picked"):
    session["matrix_picked"] = picked
    session["matrix_cell"] = int(picked)

st.subheader("Cell")
cell = st.selectbox(
    "Cell",
    range(len(visible)),
    format_func=lambda i: cells.cell_label(visible.iloc[i]),
    key="matrix_cell",
)
row = visible.iloc[cell]
edge = cells.find_edge(overlay, row)
detail = worker.call(cells.cell_detail, worker.opened, edge) if edge else None
if detail is None or detail["missing"]:
    st.warning("One of this cell's notes is no longer in the workspace.")
else:
    if detail["brief"] is None:
        st.caption("Not a high-value cell: no brief is written for it.")
    elif detail["verified"]:
        st.success("Brief verified against its material.")
    else:
        st.warning(f"Brief flagged, not verified: {md_escape(detail['problem'])}")
    if detail["brief"]:
        st.container(border=True).text(detail["brief"])
    st.markdown("**Verbatim quotes**")
    st.html(cells.quotes_html(detail["quotes"]))
    st.markdown(f"**Rationale** — {md_escape(detail['rationale'] or 'none given')}")

st.subheader("Contradiction triage")


def decide(key, decision: Decision) -> None:
    """Append the decision to the triage log; answers made before it are forgotten."""
    try:
        record(root, key, decision, note=session.get("triage_note", ""))
    except (EngineError, OSError) as exc:
        session["triage_message"] = f"Not recorded: {exc}"
        return
    session["triage_note"] = ""
    session["triage_message"] = f"Recorded: {decision.value}"
    shared.answer_cache_clear()


queue = cells.triage_queue(frame)
if queue.empty:
    st.caption("The overlay holds no contradiction to review.")
else:
    pending = cells.pending_count(queue)
    st.caption(f"{pending} of {len(queue)} contradictions not yet reviewed.")
    item = st.selectbox(
        "Contradiction",
        range(len(queue)),
        format_func=lambda i: cells.cell_label(queue.iloc[i]),
        key="triage_item",
    )
    st.text_input("Note", key="triage_note", placeholder="Why, in a sentence")
    key = cells.edge_key(queue.iloc[item])
    choices = (
        ("Confirm", Decision.CONFIRMED),
        ("Dismiss", Decision.DISMISSED),
        ("Follow up", Decision.FOLLOW_UP),
    )
    for column, (label, decision) in zip(st.columns(3), choices, strict=True):
        column.button(label, key=f"triage_{decision.value}", on_click=decide, args=(key, decision))
if message := session.pop("triage_message", None):
    st.toast(md_escape(message))
with st.expander("Triage log (newest first)", expanded=True):
    rows = cells.triage_rows(root)
    st.html(table_html(rows) if rows else "<small>No decision recorded yet.</small>")
