"""Claim matrix: the edge queue, the heatmap overview, one selected edge and its triage."""

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from engine import (
    EngineError,
    QueueOrder,
    filter_frame,
    practice_entries,
    read_overlay,
    relations_in,
    review_export,
    review_matrix,
    sort_queue,
    to_csv,
    triage_history,
)
from present import cells, sides
from present.markup import md_escape
from present.tables import table_html
from webapp import matrix_widgets as panes
from webapp import services, shared
from webapp import urlstate as url
from webapp.state import KEYS

st.title("Claim matrix")
worker = shared.open_worker("Open a workspace in the sidebar to see its claim matrix.")
root = worker.opened.root
session = st.session_state
read = read_overlay(root)
practice = len(practice_entries(worker.opened.workspace))


def needs_practice() -> None:
    """What an empty matrix needs and how to add it, with the build button."""
    with st.container(border=True, key="matrix_empty"):
        st.markdown(cells.empty_matrix_words(practice))
        st.code(cells.PRACTICE_EXAMPLE, language="markdown", wrap_lines=True)
        if st.button("Build the overlay", key=KEYS.matrix_build, type="primary"):
            services.type_overlay(worker)
            st.rerun()


if read.overlay is None:
    if practice:
        st.info(f"No claim overlay yet: {md_escape(read.reason)}.")
        if st.button("Build the overlay", key=KEYS.matrix_build, type="primary"):
            services.type_overlay(worker)
            st.rerun()
    else:
        needs_practice()
    st.stop()
overlay = read.overlay
if not overlay.edges:
    needs_practice()
    st.stop()
try:
    frame, scope = review_matrix(overlay, worker.opened.workspace, root)
except EngineError as exc:
    st.error(md_escape(exc))
    st.stop()

built = md_escape(f"Overlay built {overlay.built_at} by {overlay.typer}: {len(frame)} edges")
with st.expander(built):
    st.caption(cells.overlay_summary(overlay.counts) + f" Contradictions that contest: {scope}.")
    if st.button("Rebuild the overlay", key=KEYS.matrix_rebuild):
        services.type_overlay(worker)
        st.rerun()

relations = relations_in(frame)
defaults = {"rel": relations}
orders = list(QueueOrder)  # bound first: a bare list(...) in the call types as empty
options: dict[str, Sequence[str]] = {"rel": relations, "sort": orders, "view": ["Queue", "Heatmap"]}
url.restore("matrix", url.MATRIX, options, defaults)
left, middle, right = st.columns([3, 2, 2])
chosen = left.multiselect("Relations", relations, key=KEYS.matrix_relations)
search = left.text_input("Find by title or id", key=KEYS.matrix_search)
floor = middle.slider("Minimum confidence", 0.0, 1.0, step=0.05, key=KEYS.matrix_min_conf)
order = middle.selectbox(
    "Sort",
    orders,
    format_func=str,
    key=KEYS.matrix_order,
    on_change=lambda: session.pop(KEYS.matrix_walk, None),  # a new order, a new walk
)
high = right.checkbox("High-value only", key=KEYS.matrix_high_value)
contested = right.checkbox("Contested only", key=KEYS.matrix_contested)
pending = right.checkbox("Not yet reviewed only", key=KEYS.matrix_pending)
visible = filter_frame(
    frame,
    relations=chosen,
    min_confidence=floor,
    high_value_only=high,
    contested_only=contested,
    text=search,
    pending_only=pending,
)
visible = sort_queue(visible, order)
# The pair just decided stays in view, and selected, even when a filter (say "Not yet
# reviewed only") no longer passes it; "Next" moves on.
decided = session.get(KEYS.matrix_decided)
if decided and decided not in set(visible["edge_id"]) and decided in set(frame["edge_id"]):
    visible = pd.concat([visible, frame[frame["edge_id"] == decided]], ignore_index=True)
st.caption(f"{len(visible):,} of {len(frame):,} edges pass the filters.")
st.download_button(
    "Download these edges (CSV)",
    lambda: to_csv(review_export(visible, overlay, worker.opened, root)),
    "claim_matrix.csv",
    "text/csv",
    help="Both sentences, the cue, the decision, its note, who decided and when, per pair.",
    # A click that reran the page could drop the deferred export before the browser
    # fetched it (nothing downloaded); a download changes nothing the page shows.
    on_click="ignore",
)
if visible.empty:
    url.save("matrix", url.MATRIX, defaults)
    st.info("No edge passes these filters.")
    st.stop()

# One selection, by edge token, drives the detail and the triage buttons; a link from an
# answer, a heatmap click, a queue row and the picker below all set the same one. It lives
# under its own key (and in the URL as `edge`): a widget's state is dropped on a run that
# renders it differently.
tokens = list(visible["edge_id"])
if session.get(KEYS.matrix_selected) not in tokens:
    session[KEYS.matrix_selected] = tokens[0]

view = st.radio("View", options["view"], horizontal=True, key=KEYS.matrix_view)
if view == "Queue":
    picked = panes.queue_pane(visible)  # a new click only: a re-sort is not a pick
else:
    picked = panes.heatmap_pane(visible)
    if picked == session.get(KEYS.chart_seen):
        picked = None
    elif picked is not None:
        session[KEYS.chart_seen] = picked
if picked is not None and picked in tokens:
    session[KEYS.matrix_selected] = picked

if decided and session[KEYS.matrix_selected] != decided:
    session.pop(KEYS.matrix_decided, None)  # the reviewer moved on: stop keeping it in view

labels = dict(zip(tokens, (cells.cell_label(r) for _, r in visible.iterrows()), strict=True))
st.subheader("Selected edge")
session[KEYS.matrix_pick] = session[KEYS.matrix_selected]
token = st.selectbox(
    "Edge",
    tokens,
    format_func=labels.__getitem__,
    key=KEYS.matrix_pick,
    on_change=lambda: session.update({KEYS.matrix_selected: session[KEYS.matrix_pick]}),
)
row = visible.iloc[tokens.index(token)]
url.save("matrix", url.MATRIX, defaults)
panes.detail_pane(worker, overlay, row)
st.subheader("Triage")
panes.triage_pane(str(root), frame, row, tokens)
if message := session.pop(KEYS.triage_message, None):
    st.toast(md_escape(message))
    st.caption(md_escape(f"Recorded — {message}"))
with st.expander("Triage log (newest first)", expanded=True):
    log = [
        {
            **line,
            "by": sides.reviewer_words(line["by"]),
            "decision": sides.decision_words(line["decision"]),
        }
        for line in triage_history(root, worker.opened.workspace)
    ]
    st.html(table_html(log) if log else "<small>No decision recorded yet.</small>")
